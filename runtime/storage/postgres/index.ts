/**
 * The PostgreSQL back-end of the storage port (runtime/storage/port.ts), for hosts that outgrow one machine:
 * several host processes may share one database. Everything that must hold across processes is decided by the
 * database, never by a lock in this process:
 * - event sequences: a per-run counter row advanced by an upsert that holds its row lock until COMMIT (gap-free,
 *   and a rolled-back append gives its number back);
 * - fire-once and one-run-per-slot: conditional inserts keyed by the claim (`ON CONFLICT DO NOTHING`), so exactly
 *   one caller sees its row inserted;
 * - CTI-1: each memory statement carries the tenant (`WHERE tenant = …`, and the tenant of an existing entry is
 *   compared in the upsert's conflict branch);
 * - migrations: one transaction under a transaction-level advisory lock, so processes starting together migrate once;
 * - which process is the active host: a session-level advisory lock with a fencing epoch (lease.ts).
 *
 * Durability: each port call resolves after its transaction committed, under the server's default
 * `synchronous_commit = on` (the commit record is flushed to the WAL before the server answers).
 */
import type { StoragePort } from '../port.ts';
import { migrate, openPool, redactedUrl, StoreDb } from './connection.ts';
import { postgresMemoryEntries, postgresRuns } from './entries.ts';
import { postgresConsolidation, postgresDocumentLog, postgresQuestions, postgresReplay } from './journals.ts';
import { postgresCommitments, postgresSchedules } from './ledgers.ts';
import { POSTGRES_MIGRATIONS } from './migrations.ts';
import { postgresProposals } from './proposals.ts';
import { postgresLease, type LeaseOptions } from './lease.ts';

export { POSTGRES_MIGRATIONS } from './migrations.ts';

/** Open (and migrate) the store at `url` (`postgres://user:password@host:port/database`). */
export async function openPostgresStore(url: string, leaseOptions?: LeaseOptions): Promise<StoragePort> {
  const location = redactedUrl(url);
  const pool = openPool(url);
  const db = new StoreDb(pool);
  try {
    await migrate(db, POSTGRES_MIGRATIONS, location);
  } catch (err) {
    await pool.end();
    throw err;
  }
  let closed: Promise<void> | undefined;
  return {
    kind: 'postgres',
    location,
    memory: postgresMemoryEntries(db),
    runs: postgresRuns(db),
    commitments: postgresCommitments(db),
    schedules: postgresSchedules(db),
    consolidation: postgresConsolidation(db),
    replay: postgresReplay(db),
    questions: postgresQuestions(db),
    transcripts: postgresDocumentLog(db, 'transcripts'),
    traces: postgresDocumentLog(db, 'traces'),
    proposals: postgresProposals(db),
    batch: (f) => db.batch(f),
    lease: () => postgresLease(url, db, leaseOptions),
    close() {
      closed ??= pool.end();
      return closed;
    },
  };
}
