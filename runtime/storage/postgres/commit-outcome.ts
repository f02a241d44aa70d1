/**
 * What became of a transaction whose connection was lost while COMMIT was on its way: it may have committed (the
 * server wrote the commit record, then the answer never arrived) or not. Answering 503 for a write that is stored
 * would make a client retry it — a second entry, a second event — so the store asks the server instead.
 *
 * Every transaction learns its id and its server process when it begins (`BEGIN_TX`, in BEGIN's own round trip).
 * After a COMMIT that did not answer plainly, a fresh connection reads `pg_xact_status(xid)`:
 * - `committed`: the write is durable; the request is answered as committed.
 * - `aborted`: nothing of it stayed; 503, and a retry is harmless.
 * - `in progress`: the old session still runs (the server has not yet noticed its client went away). It is ended —
 *   `pg_terminate_backend`, only while that process still holds this transaction — which settles the transaction
 *   (a session ended inside COMMIT's critical section finishes the commit first), and the status is read again.
 * When the status cannot be read (the server is unreachable for the few attempts made), the outcome is unknown and
 * the request is answered 503 saying so (`OUTCOME_UNKNOWN`).
 */
import type pg from 'pg';

/** BEGIN, with the transaction's id (assigned now) and its server process, in one round trip. */
export const BEGIN_TX = 'BEGIN; SELECT pg_current_xact_id()::text AS xid, pg_backend_pid() AS pid';

/** A transaction as the server knows it. */
export interface TxIdentity {
  /** The full (epoch-extended) transaction id, as text. */
  readonly xid: string;
  /** The server process running it. */
  readonly pid: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The identity from the answer to `BEGIN_TX` (pg answers a multi-statement text with one result per statement). */
export function txIdentity(answer: unknown): TxIdentity {
  const last: unknown = Array.isArray(answer) ? answer[answer.length - 1] : answer;
  const row: unknown = isRecord(last) && Array.isArray(last.rows) ? last.rows[0] : undefined;
  if (isRecord(row) && typeof row.xid === 'string' && typeof row.pid === 'number') return { xid: row.xid, pid: row.pid };
  throw new Error('PostgreSQL did not report the transaction id at BEGIN');
}

export type CommitOutcome = 'committed' | 'aborted' | 'unknown';

/** The reason a request is answered 503 when its commit's outcome could not be read. */
export const OUTCOME_UNKNOWN = 'the connection to PostgreSQL was lost during COMMIT and the outcome could not be read; the write may have been stored';

/**
 * A COMMIT that failed with an ordinary error (severity ERROR: a deferred constraint, a serialization failure) rolled
 * back for certain; a fatal error, a lost connection or any other failure leaves the outcome open.
 */
export const commitSurelyFailed = (err: unknown, connectionLost: boolean): boolean =>
  !connectionLost && isRecord(err) && err.severity === 'ERROR' && typeof err.code === 'string';

const STATUS = 'SELECT pg_xact_status($1::xid8) AS status';
/** End the process only while it still runs this transaction (a process id can be reused once its session ends). */
const END_SESSION = 'SELECT pg_terminate_backend(pid, 2000) FROM pg_stat_activity WHERE pid = $1 AND backend_xid::text = ($2::xid8::text::numeric % 4294967296)::text';

export interface OutcomeOptions {
  /** Status reads before giving up (default 4). */
  readonly attempts?: number;
  /** The pause before the second attempt, doubled after each (default 250 ms). */
  readonly pauseMs?: number;
}

/** Read what became of `tx`, on connections of `pool` (not the lost one). */
export async function readCommitOutcome(pool: pg.Pool, tx: TxIdentity, o: OutcomeOptions = {}): Promise<CommitOutcome> {
  const attempts = o.attempts ?? 4;
  let pause = o.pauseMs ?? 250;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) {
      await new Promise((r) => setTimeout(r, pause));
      pause *= 2;
    }
    try {
      const status: unknown = (await pool.query(STATUS, [tx.xid])).rows[0]?.status;
      if (status === 'committed' || status === 'aborted') return status;
      if (status === 'in progress') await pool.query(END_SESSION, [tx.pid, tx.xid]);
      // null: an id the server no longer (or never) knew; read again, then give up.
    } catch {
      // The server cannot answer now: try again after the pause.
    }
  }
  return 'unknown';
}
