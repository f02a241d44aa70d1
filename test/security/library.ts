/** The OpenWOP runtime as a library caller uses it: on its own in-memory store, each request one plan, committed once. */
import { createOpenwopRuntime, type OpenwopRuntime, type OpenwopRuntimeOptions } from '../../runtime/openwop/index.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import { unitOfWork, type Tx } from '../../runtime/storage/index.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';

export interface Library {
  readonly port: StoragePort;
  readonly rt: OpenwopRuntime;
  /** One request: plan its writes with `f`, commit them once; what `f` returned. */
  request<T>(f: (tx: Tx) => Promise<T> | T): Promise<T>;
}

export async function library(options: Omit<OpenwopRuntimeOptions, 'port'> = {}): Promise<Library> {
  const port = await openMemoryStore();
  const rt = createOpenwopRuntime({ ...options, port });
  return {
    port,
    rt,
    request: (f) => unitOfWork(port, f),
  };
}
