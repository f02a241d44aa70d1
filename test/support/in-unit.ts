/**
 * A test calling a HostRuntime operation directly stands in for a request: it opens the one unit of work the request
 * boundary (route-helpers.ts `serve`) would, runs the operation in it and commits.
 */
import { unitOfWork, type StoragePort, type Tx } from '../../runtime/storage/index.ts';

export const inUnit = <T>(port: StoragePort, work: (tx: Tx) => Promise<T> | T): Promise<T> => unitOfWork(port, work);
