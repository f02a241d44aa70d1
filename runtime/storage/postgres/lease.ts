/**
 * The active-host lease on PostgreSQL (port.ts `LeaderLease`): which one of the host processes sharing a database
 * keeps the working state and writes.
 *
 * - Holding: a session-level advisory lock, taken with `pg_try_advisory_lock` on a connection of the lease's own
 *   (not the pool's), polled while another session holds it. The server releases it when that session ends — a
 *   clean close, or the holder killed with -9 (the server sees the socket close, rolls back its open transaction,
 *   then frees the lock), so a waiting process takes over only after the old holder's last transaction is settled.
 * - Fencing: taking the lease raises `cluster_lease.epoch` and sets the store's fence to it (connection.ts), so
 *   every later transaction of this process checks the epoch first. A holder whose session died without the
 *   process noticing cannot commit after another process took over.
 * - Loss: the lease session is pinged every `heartbeatMs`; a failed ping, a connection error or the connection
 *   ending tells the `onLost` listeners once.
 */
import pg from 'pg';
import { WopkitError } from '../../shared/errors.ts';
import type { ActiveHost, LeaderLease } from '../port.ts';
import { num, type StoreDb } from './connection.ts';

/** The advisory-lock key of the lease: `hashtext` of a fixed name, computed by the server. */
const TRY_LOCK = `SELECT pg_try_advisory_lock(hashtext('wopkit.active-host')) AS held`;

export interface LeaseOptions {
  /** How often a waiting process retries the lock (default 100 ms). */
  readonly pollMs?: number;
  /** How often the holder pings its session (default 1000 ms). */
  readonly heartbeatMs?: number;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** A released lease: `acquire` stops at its next step and gives up whatever it holds by then. */
class LeaseReleasedError extends WopkitError<'lease_released'> {
  constructor() {
    super('lease_released', 'the lease was released while it was being acquired');
  }
}

/**
 * Server-side settings of the lease session, so that a holder whose machine vanishes (no FIN, no RST) frees the
 * lease in about half a minute instead of the OS keepalive default of two hours: TCP keepalives probe an idle
 * session, and the server checks the client connection while a query runs.
 */
const SESSION_SETTINGS = [
  'SET tcp_keepalives_idle = 10',
  'SET tcp_keepalives_interval = 5',
  'SET tcp_keepalives_count = 3',
  "SET client_connection_check_interval = '2s'",
];

export function postgresLease(url: string, db: StoreDb, o: LeaseOptions = {}): LeaderLease {
  const pollMs = o.pollMs ?? 100;
  const heartbeatMs = o.heartbeatMs ?? 1000;
  const listeners: ((err: Error) => void)[] = [];
  let session: pg.Client | undefined;
  let epoch: number | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let state: 'idle' | 'acquiring' | 'held' | 'lost' | 'released' = 'idle';
  /** The acquisition in progress (release() waits for it to end, so the lock is free when release() resolves). */
  let attempt: Promise<unknown> | undefined;
  /** Read through a call: `state` changes across awaits (release() may run meanwhile). */
  const released = (): boolean => state === 'released';

  const lost = (err: Error): void => {
    if (state !== 'held') return;
    state = 'lost';
    clearInterval(heartbeat);
    void session?.end().catch(() => undefined);
    for (const l of listeners) l(err);
  };

  async function connect(): Promise<pg.Client> {
    // keepAlive on the client side too; every query of the session is bounded (a hung server fails the heartbeat).
    const c = new pg.Client({ connectionString: url, application_name: `wopkit lease ${process.pid}`, keepAlive: true, query_timeout: Math.max(5_000, heartbeatMs * 5) });
    c.on('error', (err) => lost(err));
    c.on('end', () => lost(new Error('the lease session ended')));
    await c.connect();
    // Best effort: an older server without one of the settings still gives a working lease.
    for (const sql of SESSION_SETTINGS) await c.query(sql).catch(() => undefined);
    return c;
  }

  /** One heartbeat: the session answers and the store's epoch is still this lease's (else it is lost). */
  async function beat(): Promise<void> {
    const row = (await session!.query<{ epoch: string }>('SELECT epoch FROM cluster_lease WHERE id = 1')).rows[0];
    const current = row === undefined ? undefined : num(row.epoch);
    if (current !== epoch) throw new Error(`the store's lease epoch is ${current ?? 'none'}, this holder's ${epoch}`);
  }


  async function acquireOnce(signal?: AbortSignal): Promise<number> {
    if (state !== 'idle') throw new Error(`lease: acquire called when ${state}`);
    state = 'acquiring';
    try {
      // Poll for the lock; a session that fails while waiting is replaced (the server may restart meanwhile).
      // After every await: a release() that ran meanwhile ends the attempt (and frees a lock taken by then).
      for (;;) {
        signal?.throwIfAborted();
        if (released()) throw new LeaseReleasedError();
        try {
          session ??= await connect();
          if (released()) throw new LeaseReleasedError();
          if ((await session.query<{ held: boolean }>(TRY_LOCK)).rows[0]!.held) break;
        } catch (err) {
          if (signal?.aborted || err instanceof LeaseReleasedError) throw err;
          await session?.end().catch(() => undefined);
          session = undefined;
        }
        await sleep(pollMs, signal);
      }
      if (released()) throw new LeaseReleasedError();
      const row = (await session!.query<{ epoch: string }>(
        `INSERT INTO cluster_lease (id, epoch, url, pid) VALUES (1, 1, NULL, $1)
         ON CONFLICT (id) DO UPDATE SET epoch = cluster_lease.epoch + 1, url = NULL, pid = EXCLUDED.pid, since = now()
         RETURNING epoch`,
        [process.pid],
      )).rows[0]!;
      if (released()) throw new LeaseReleasedError();
      epoch = num(row.epoch);
      db.fence = epoch;
      state = 'held';
    } catch (err) {
      state = 'released';
      await session?.end().catch(() => undefined);
      session = undefined;
      throw err;
    }
    heartbeat = setInterval(() => {
      beat().catch((err: Error) => lost(err));
    }, heartbeatMs);
    heartbeat.unref();
    return epoch;
  }

  return {
    acquire(signal) {
      const p = acquireOnce(signal);
      attempt = p.catch(() => undefined);
      return p;
    },
    async publish(where) {
      if (state !== 'held' || session === undefined) throw new Error('lease: publish without holding the lease');
      const r = await session.query('UPDATE cluster_lease SET url = $1 WHERE id = 1 AND epoch = $2', [where, epoch]);
      if (r.rowCount !== 1) throw new Error(`lease: epoch ${epoch} is no longer current; not publishing`);
    },
    async active(): Promise<ActiveHost | undefined> {
      const row = (await db.pool.query<{ epoch: string; url: string | null }>('SELECT epoch, url FROM cluster_lease WHERE id = 1')).rows[0];
      return row === undefined || row.url === null ? undefined : { url: row.url, epoch: num(row.epoch) };
    },
    onLost(listener) {
      listeners.push(listener);
    },
    async release() {
      const was = state;
      state = 'released';
      clearInterval(heartbeat);
      // Acquiring: the attempt sees the release at its next step and ends its own session; wait for that.
      if (was === 'acquiring') await attempt;
      if (was !== 'held' && was !== 'lost') return;
      const s = session;
      session = undefined;
      if (s === undefined) return;
      // Unpublish first (a waiting process then sees no active host rather than a dead address), then end the session,
      // which frees the advisory lock.
      if (was === 'held') await s.query('UPDATE cluster_lease SET url = NULL WHERE id = 1 AND epoch = $1', [epoch]).catch(() => undefined);
      await s.end().catch(() => undefined);
    },
  };
}
