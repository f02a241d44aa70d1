/**
 * The settings every connection to a store runs with: WAL on a file (readers never wait for the writer; an in-memory
 * store keeps its rollback journal in memory),
 * `synchronous=FULL` (a committed transaction is on disk before the commit returns, so it survives a power loss),
 * `busy_timeout` (another connection's write lock is waited for, not failed on), foreign keys off (the store keeps
 * its own integrity in its operations).
 *
 * Checkpoints: a memory write dirties a page in each of about ten B-trees, so a group commit of 32 writes appends
 * about 220 pages to the WAL, and SQLite's default (a checkpoint once the WAL holds 1,000 pages) had the writing
 * connection copy the WAL back into the database — and sync it — every four or five groups, writing the same hot
 * pages (counts, index tails, event logs) again each time. At WAL_CHECKPOINT_PAGES a checkpoint copies each page once
 * for ten times as many commits (docs/storage.md "Checkpoints" has the measurements). The WAL file is reused from its
 * start after a checkpoint, so it stays at about 40 MB while the store is open; one that grew past
 * WAL_SIZE_LIMIT_BYTES (no checkpoint could finish while a read held an old snapshot) is truncated to it at the first
 * commit after a checkpoint completes. Durability does not depend on checkpoints: a commit is in the synced WAL.
 */
import type { DatabaseSync } from 'node:sqlite';

/** WAL pages after which a commit checkpoints (SQLite's default is 1,000). */
export const WAL_CHECKPOINT_PAGES = 10_000;
/** The size a WAL file is truncated back to after a checkpoint, when it grew larger. */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

export function applyPragmas(db: DatabaseSync, o: { readonly busyTimeoutMs: number; readonly wal: boolean }): void {
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(o.busyTimeoutMs))}`);
  db.exec(o.wal ? 'PRAGMA journal_mode = WAL' : 'PRAGMA journal_mode = MEMORY');
  db.exec('PRAGMA synchronous = FULL');
  if (o.wal) db.exec(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}; PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
}
