/**
 * The PostgreSQL back-end of the storage port: any number of host processes share one database, each serving every
 * request. Everything that must hold across processes is decided by the database, in the transaction that needs it:
 * event sequences (a run's counter row, locked until COMMIT: gap-free), claims (conditional inserts and updates:
 * whoever commits first does the work), counts (a row per bound, moved in the same transaction), CTI-1 (every
 * statement names its tenant), migrations (one transaction under an advisory lock).
 *
 * Every request is one transaction, BEGIN…COMMIT on one pooled connection, kept short; every connection of the pool
 * runs with `statement_timeout`, `lock_timeout` and `idle_in_transaction_session_timeout`, so a host that stalls in
 * a transaction (a long GC pause, a stopped process) holds its locks for at most that long — the server ends its
 * session — and a request that cannot get a lock in time is answered 503 (retry) instead of waiting. A transaction
 * that loses a race (a serialization failure, a deadlock) is run again. A connection the server ends under a request
 * (a terminated backend, a session idle in its transaction too long, a closed socket) fails that request alone, 503,
 * and is destroyed rather than pooled (lease.ts); a COMMIT whose answer was lost with its connection is settled by
 * what the server says became of the transaction (commit-outcome.ts).
 *
 * Durability: `commit` resolves after COMMIT under `synchronous_commit = on` (checked: `durability()`), so an
 * acknowledged request survives a crash of the host and of the database server.
 */
import pg from 'pg';
import { StoreFaults } from '../faults.ts';
import { WAKE_CHANNEL, WakeListeners, wakes } from '../wake.ts';
import { StoreClosedError, StoreCorruptError, StoreUnavailableError, type StoragePort, type StoreHealth, type WritePlan } from '../port.ts';
import { runOp } from '../ops/index.ts';
import { applyMigrations } from '../sql/migrate.ts';
import { schemaDdl } from '../sql/schema.ts';
import { columnsOf } from '../sql/columns.ts';
import type { Row, SqlSession } from '../sql/session.ts';
import { WopkitError } from '../../shared/errors.ts';
import { POSTGRES_MIGRATIONS } from './migrations.ts';
import { isPgCorrupt, isPgRetryable, isPgUnavailable, PgSession, PG_TYPES } from './session.ts';
import { BEGIN_TX, commitSurelyFailed, OUTCOME_UNKNOWN, readCommitOutcome, txIdentity } from './commit-outcome.ts';
import { Lease } from './lease.ts';

const SETTINGS = columnsOf('pg_settings');

export { POSTGRES_MIGRATIONS } from './migrations.ts';

export interface PostgresStoreOptions {
  /** Connections of this process's pool (default 10). */
  readonly poolSize?: number;
  /** The longest one statement may run (default 10 s). */
  readonly statementTimeoutMs?: number;
  /** The longest a statement waits for a lock before the request is answered 503 (default 2 s). */
  readonly lockTimeoutMs?: number;
  /** The longest a session may sit idle inside a transaction before the server ends it (default 5 s). */
  readonly idleInTransactionTimeoutMs?: number;
  /** Times a transaction that lost a race is run again (default 3). */
  readonly retries?: number;
  /**
   * Hear other hosts' commits that create work (LISTEN on one connection of its own, default true). Off behind a
   * pooler in transaction mode, where LISTEN cannot work: the background work then finds new work at its next
   * look at the agenda (every second when idle).
   */
  readonly listen?: boolean;
}

export const DEFAULT_POSTGRES_OPTIONS: Required<PostgresStoreOptions> = { poolSize: 10, statementTimeoutMs: 10_000, lockTimeoutMs: 2_000, idleInTransactionTimeoutMs: 5_000, retries: 3, listen: true };

/** The URL with its password masked, for the start line and error messages. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return 'postgres (unparseable URL)';
  }
}

/** The advisory-lock key migrations hold: hosts starting together migrate once. */
const MIGRATION_LOCK = `SELECT pg_advisory_xact_lock(hashtext('wopkit.schema_version'))`;

/** Open (and migrate) the store at `url` (`postgres://user:password@host:port/database`). */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<StoragePort> {
  const o = { ...DEFAULT_POSTGRES_OPTIONS, ...options };
  const location = redactedUrl(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: o.poolSize,
    types: PG_TYPES,
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    options: `-c statement_timeout=${o.statementTimeoutMs} -c lock_timeout=${o.lockTimeoutMs} -c idle_in_transaction_session_timeout=${o.idleInTransactionTimeoutMs}`,
  });
  // An idle client losing its connection (server restart, session ended) must not crash the process: the pool drops
  // it and the next query gets a fresh connection. A checked-out client's faults are its lease's (lease.ts).
  pool.on('error', () => {});
  try {
    await inTransaction(pool, async (client) => {
      const s = new PgSession(client);
      await client.query(MIGRATION_LOCK);
      await applyMigrations(s, {
        migrations: POSTGRES_MIGRATIONS,
        location,
        fresh: { name: 'the current schema, created at once', sql: schemaDdl('postgres') },
        exec: (sql) => s.exec(sql),
        step: (f) => f(),
      });
    });
  } catch (err) {
    await pool.end();
    if (isPgUnavailable(err)) throw new StoreUnavailableError(`cannot reach PostgreSQL at ${location} (${(err as { code?: string }).code ?? (err as Error).message})`);
    throw err;
  }
  return new PostgresStore(pool, location, o.retries, o.listen ? url : undefined);
}

/**
 * Run `f` in one transaction on one pooled connection: COMMIT when it resolves, ROLLBACK when it throws. A connection
 * lost on the way (the server ended the session, the socket closed) fails with that fault — never with the client's
 * later "not queryable" — and is destroyed, not pooled; a COMMIT whose answer was lost resolves by what the server
 * says became of the transaction (commit-outcome.ts).
 */
async function inTransaction<T>(pool: pg.Pool, f: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const lease = await Lease.take(pool);
  let broken = false;
  /**
   * The fault to report: a refusal or the server's own error as they are; a client-side failure (a "not queryable"
   * client, a closed socket) as the loss that caused it, which may carry the server's reason (25P03, 57P01).
   */
  const cause = (err: unknown): unknown => (err instanceof WopkitError || err instanceof pg.DatabaseError || lease.lost === undefined ? err : lease.lost);
  try {
    const tx = txIdentity(await lease.client.query(BEGIN_TX));
    let result: T;
    try {
      result = await f(lease.client);
    } catch (err) {
      if (lease.lost !== undefined) throw cause(err); // the server rolled the transaction back with the session
      try {
        await lease.client.query('ROLLBACK');
      } catch {
        broken = true; // the connection itself failed: do not hand it back to the pool
      }
      throw cause(err);
    }
    try {
      await lease.client.query('COMMIT');
    } catch (err) {
      broken = true;
      if (commitSurelyFailed(err, lease.lost !== undefined)) throw err;
      // The lost connection goes first: the outcome is read on another one, which a full pool could not give.
      lease.release(true);
      const outcome = await readCommitOutcome(pool, tx);
      if (outcome === 'committed') return result;
      if (outcome === 'aborted') throw cause(err);
      throw new StoreUnavailableError(OUTCOME_UNKNOWN);
    }
    return result;
  } catch (err) {
    if (lease.lost !== undefined) broken = true;
    throw cause(err);
  } finally {
    lease.release(broken);
  }
}

/** A lock not granted in time or a statement cancelled on its timeout: this request's contention, not the database's health. */
const isContention = (err: unknown): boolean => {
  const code = (err as { code?: string }).code;
  return code === '55P03' || code === '57014';
};

class PostgresStore implements StoragePort {
  readonly kind = 'postgres' as const;
  readonly location: string;
  readonly reads: SqlSession;
  readonly #pool: pg.Pool;
  readonly #retries: number;
  readonly #faults: StoreFaults;
  #closed: Promise<void> | undefined;

  readonly #wake = new WakeListeners();
  /** Where to LISTEN (undefined: not at all), and the listening connection while there are listeners. */
  readonly #listenUrl: string | undefined;
  #listener: WakeConnection | undefined;

  constructor(pool: pg.Pool, location: string, retries: number, listenUrl: string | undefined) {
    this.#pool = pool;
    this.location = location;
    this.#faults = new StoreFaults(location);
    this.#retries = retries;
    this.#listenUrl = listenUrl;
    this.reads = this.#guarded(new PgSession(pool));
  }

  /**
   * The read session, answering as the commit path does: a server or network that cannot answer now is a
   * StoreUnavailableError (503 with Retry-After, not a 500), corrupt data raises the store's fatal error.
   */
  #guarded(s: PgSession): SqlSession {
    const guard = async <T>(f: () => Promise<T>): Promise<T> => {
      if (this.#closed !== undefined) throw new StoreClosedError();
      try {
        return await f();
      } catch (err) {
        if (err instanceof WopkitError) throw err;
        if (isPgCorrupt(err)) {
          throw this.#faults.raiseFatal((err as Error).message);
        }
        if (isPgUnavailable(err)) {
          const reason = `PostgreSQL ${(err as { code?: string }).code ?? ''} ${(err as Error).message}`.trim().slice(0, 300);
          // A database out of reach for a read is out of reach for the request's commit too: not writable until a
          // write succeeds again (readiness probes with one), whichever statement of the request met it first.
          if (!isContention(err)) this.#faults.writable(false, reason);
          throw new StoreUnavailableError(reason);
        }
        throw err;
      }
    };
    return {
      dialect: 'postgres',
      run: (sql, params) => guard(() => s.run(sql, params)),
      get: (sql, params) => guard(() => s.get(sql, params)),
      all: (sql, params, limit) => guard(() => s.all(sql, params, limit)),
      returning: (sql, params) => guard(() => s.returning(sql, params)),
    };
  }

  onWake(listener: () => void): () => void {
    const remove = this.#wake.add(listener);
    if (this.#listenUrl !== undefined && this.#listener === undefined && this.#closed === undefined) this.#listener = new WakeConnection(this.#listenUrl, () => this.#wake.notify());
    return () => {
      remove();
      if (this.#wake.size === 0) {
        void this.#listener?.close();
        this.#listener = undefined;
      }
    };
  }

  async commit(plan: WritePlan): Promise<readonly unknown[]> {
    if (this.#closed !== undefined) throw new StoreClosedError();
    if (this.#faults.fatal !== undefined) throw this.#faults.fatal;
    for (let attempt = 0; ; attempt++) {
      if (this.#closed !== undefined) throw new StoreClosedError();
      try {
        const results = await inTransaction(this.#pool, async (client) => {
          const s = new PgSession(client);
          const out: unknown[] = [];
          for (const op of plan) out.push(await runOp(s, op));
          // Delivered to every listening host when (and only if) this transaction commits.
          if (wakes(plan)) await client.query(`SELECT pg_notify('${WAKE_CHANNEL}', '')`);
          return out;
        });
        this.#faults.writable(true);
        return results;
      } catch (err) {
        // A commit whose outcome could not be read: the database is out of reach, so the store is not writable now.
        if (err instanceof StoreUnavailableError) this.#faults.writable(false, err.reason);
        if (err instanceof WopkitError) throw err; // a refusal: the request's own outcome
        if (isPgRetryable(err) && attempt < this.#retries) continue;
        if (isPgCorrupt(err)) {
          throw this.#faults.raiseFatal((err as Error).message);
        }
        if (isPgUnavailable(err)) {
          const reason = `PostgreSQL ${(err as { code?: string }).code ?? ''} ${(err as Error).message}`.trim().slice(0, 300);
          if (!isContention(err)) this.#faults.writable(false, reason);
          throw new StoreUnavailableError(reason);
        }
        throw err;
      }
    }
  }

  health(): StoreHealth {
    return this.#faults.health;
  }

  onFatal(listener: (err: StoreCorruptError) => void): void {
    this.#faults.onFatal(listener);
  }

  async durability(): Promise<Readonly<Record<string, string>>> {
    const row: Row | undefined = (await this.#pool.query<Row>('SHOW synchronous_commit')).rows[0];
    return { synchronous_commit: row === undefined ? '' : SETTINGS.text(row, 'synchronous_commit') };
  }

  close(): Promise<void> {
    if (this.#closed === undefined) {
      const listener = this.#listener;
      this.#listener = undefined;
      this.#closed = Promise.all([listener?.close(), this.#pool.end()]).then(() => undefined);
    }
    return this.#closed;
  }
}

/**
 * The one connection a host LISTENs on (outside the pool: a pooled connection would be handed to requests). Lost
 * (a server restart, a network break), it is opened again after a pause that doubles up to 30 s; meanwhile the
 * background work's own look at the agenda finds the work.
 */
class WakeConnection {
  #client: pg.Client | undefined;
  #closed = false;
  #pauseMs = 500;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly url: string, private readonly onNotice: () => void) {
    void this.#open();
  }

  async #open(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    this.#client = client;
    const retry = () => {
      if (this.#client !== client || this.#closed) return;
      this.#client = undefined;
      void client.end().catch(() => undefined);
      this.#timer = setTimeout(() => void this.#open(), this.#pauseMs);
      this.#timer.unref();
      this.#pauseMs = Math.min(this.#pauseMs * 2, 30_000);
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', (n) => {
      if (n.channel === WAKE_CHANNEL) this.onNotice();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${WAKE_CHANNEL}`);
      this.#pauseMs = 500;
      // Work committed while no connection listened is found now rather than at the next look.
      this.onNotice();
    } catch {
      retry();
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
