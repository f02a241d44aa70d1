/**
 * The PostgreSQL connection of a store: a `pg` Pool, a transaction helper, and schema migration under an advisory
 * lock (several host processes starting together against one database migrate it exactly once).
 */
import pg from 'pg';
import { LeaseFencedError, StoreVersionError, type Migration } from '../port.ts';

/** Runs SQL: the pool (one statement, autocommit) or the client of an open transaction. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

/** A row's column as a JavaScript number (`bigint` columns arrive as strings). */
export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v));

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

export function openPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  // An idle client losing its connection (server restart, database dropped) must not crash the process: the next
  // query gets a fresh connection or rejects.
  pool.on('error', () => {});
  return pool;
}

/**
 * A statement that only reads, as the store's own SQL is written: one statement (no `;` inside), starting with
 * SELECT, calling none of the functions that write or lock (sequences, advisory locks) and creating no table
 * (`SELECT … INTO`). Anything else is fenced (connection.ts `query`); this errs towards fencing.
 */
function isPlainRead(q: unknown): boolean {
  const text = typeof q === 'string' ? q : typeof q === 'object' && q !== null && typeof (q as { text?: unknown }).text === 'string' ? (q as { text: string }).text : '';
  return /^\s*SELECT\b/i.test(text) && !/;\s*\S/.test(text) && !/\b(nextval|setval|pg_advisory\w*|pg_try_advisory\w*|INTO)\b/i.test(text);
}

/**
 * The store's connection as its sub-stores use it: the pool (one statement, autocommit), or — while a batch runs —
 * the batch's connection, so every statement of the batch joins its one transaction.
 */
export class StoreDb {
  #batch: pg.PoolClient | undefined;
  /**
   * The lease epoch this process holds (lease.ts), once it took the active-host lease: every transaction then
   * checks it first (`fenceCheck`), so a process that lost the lease commits nothing more.
   */
  fence: number | undefined;
  constructor(readonly pool: pg.Pool) {}

  /**
   * `pg`'s query, on the batch's connection while a batch runs. Once the store is fenced (it took the active-host
   * lease), a statement that is not a plain read and runs outside a batch gets a transaction of its own with the
   * fence check, so no write of a process that lost the lease commits, batched or not.
   */
  readonly query = ((...args: unknown[]) => {
    if (this.#batch === undefined && this.fence !== undefined && !isPlainRead(args[0])) {
      return inTransaction(this, (c) => (c.query as (...a: unknown[]) => Promise<unknown>).apply(c, args));
    }
    const target = this.#batch ?? this.pool;
    return (target.query as (...a: unknown[]) => unknown).apply(target, args);
  }) as unknown as pg.Pool['query'];

  /** The batch's connection, if a batch is running. */
  get batchClient(): pg.PoolClient | undefined {
    return this.#batch;
  }

  /** Run `f` as one batch: every statement on one connection, in one transaction (port.ts `batch`). */
  async batch<T>(f: () => Promise<T>): Promise<T> {
    if (this.#batch !== undefined) throw new Error('batches do not nest');
    return inTransaction(this, async (client) => {
      this.#batch = client;
      try {
        return await f();
      } finally {
        this.#batch = undefined;
      }
    });
  }
}

/**
 * Run `f` in one transaction on one pooled connection: COMMIT when it resolves (the promise resolves after the
 * commit is durable, under the server's default synchronous_commit), ROLLBACK when it throws. Inside a batch, `f`
 * runs on the batch's connection as part of the batch's transaction.
 */
export async function inTransaction<T>(db: StoreDb, f: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const inBatch = db.batchClient;
  if (inBatch !== undefined) return f(inBatch);
  const client = await db.pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    if (db.fence !== undefined) await fenceCheck(client, db.fence);
    const result = await f(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true; // the connection itself failed: do not hand it back to the pool
    }
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * Refuse the transaction unless the store's lease epoch is still `held`. The row is read FOR SHARE, so a process
 * taking the lease over (which updates it) waits for this transaction to end, and this transaction either commits
 * before the takeover or sees the new epoch and commits nothing.
 */
async function fenceCheck(c: pg.PoolClient, held: number): Promise<void> {
  const row = (await c.query<{ epoch: string }>('SELECT epoch FROM cluster_lease WHERE id = 1 FOR SHARE')).rows[0];
  const current = row === undefined ? undefined : num(row.epoch);
  if (current !== held) throw new LeaseFencedError(held, current);
}

/** One advisory-lock key for the whole schema: `hashtext` of a fixed name, computed by the server. */
const MIGRATION_LOCK = `SELECT pg_advisory_xact_lock(hashtext('wopkit.schema_version'))`;

/**
 * Bring the schema up to the newest of `migrations`, in one transaction that holds the migration lock: the
 * `schema_version` table is created if missing, every step newer than the recorded version runs and is recorded.
 * A database whose version is newer than the code knows is refused (StoreVersionError) before anything changes.
 * Returns the version the database is at.
 */
export async function migrate(db: StoreDb, migrations: readonly Migration[], location: string): Promise<number> {
  const latest = migrations.reduce((m, s) => Math.max(m, s.version), 0);
  return inTransaction(db, async (c) => {
    await c.query(MIGRATION_LOCK);
    await c.query('CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const found = num((await c.query<{ v: number | null }>('SELECT coalesce(max(version), 0) AS v FROM schema_version')).rows[0]?.v ?? 0);
    if (found > latest) throw new StoreVersionError(found, latest, location);
    for (const step of [...migrations].sort((a, b) => a.version - b.version)) {
      if (step.version <= found) continue;
      await c.query(step.sql);
      await c.query('INSERT INTO schema_version (version, name) VALUES ($1, $2)', [step.version, step.name]);
    }
    return latest;
  });
}
