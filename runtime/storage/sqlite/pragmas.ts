/**
 * The settings every connection to a store runs with: WAL on a file (readers never wait for the writer; an in-memory
 * store keeps its rollback journal in memory),
 * `synchronous=FULL` (a committed transaction is on disk before the commit returns, so it survives a power loss),
 * `busy_timeout` (another connection's write lock is waited for, not failed on), foreign keys off (the store keeps
 * its own integrity in its operations).
 */
import type { DatabaseSync } from 'node:sqlite';

export function applyPragmas(db: DatabaseSync, o: { readonly busyTimeoutMs: number; readonly wal: boolean }): void {
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(o.busyTimeoutMs))}`);
  db.exec(o.wal ? 'PRAGMA journal_mode = WAL' : 'PRAGMA journal_mode = MEMORY');
  db.exec('PRAGMA synchronous = FULL');
}
