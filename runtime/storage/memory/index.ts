/**
 * The in-memory back-end of the storage port (tests, and `--store memory`): the SQLite back-end on a private
 * in-memory database. Same SQL, same atomicity and ordering, so the contract suite proves both at once; nothing
 * reaches the disk and everything is gone on close.
 */
import type { StoragePort } from '../port.ts';
import { openSqliteStore } from '../sqlite/index.ts';

export function openMemoryStore(): Promise<StoragePort> {
  return openSqliteStore(':memory:', { kind: 'memory' });
}
