/**
 * The storage port: the one way the runtime reaches what it keeps. The store is the source of truth — no process
 * keeps a copy of it — so a request reads what it needs through the port when it needs it, decides, and commits
 * its writes as ONE transaction before it answers.
 *
 * - Reads (`reads`): the queries of `runtime/storage/reads/`, each one indexed statement on the keys the request
 *   names, over a read-only session. Every query that returns rows takes a required `limit`; lists are ordered by
 *   an immutable key so they can be resumed with a cursor.
 * - Writes (`commit`): a request's mutations as a list of operations (`ops/`, plain data), executed in order in
 *   one transaction — all of them or none. An operation may refuse (a bound reached, a claim already taken, a read
 *   that went stale): the transaction rolls back and `commit` rejects with that refusal; nothing of the request
 *   stays. `commit` resolves only after the transaction is durable (SQLite: WAL + synchronous=FULL; PostgreSQL:
 *   synchronous_commit=on), so the caller may answer as soon as it resolves.
 * - Sequences (event sequences, journal positions, arming order), claims and counts come from the database, in the
 *   transaction that needs them, so every host sharing a database can serve every request.
 *
 * Health: a back-end that cannot write (a full disk, a lost database) rejects with `StoreUnavailableError` (503,
 * retry later) and reports itself not writable until a write succeeds again; a back-end that finds its data
 * corrupt reports a fatal error once (`onFatal`), after which the process must stop.
 */
import { WopkitError } from '../shared/errors.ts';
import { StoreCorruptError } from './corrupt.ts';
import type { WriteOp } from './ops/index.ts';
import type { SqlSession } from './sql/session.ts';

export { StoreCorruptError };

/** A JSON value as stored and returned (no undefined, functions, or class instances). */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
/** A JSON object document. */
export type JsonDoc = { readonly [key: string]: Json };
/**
 * A document as an operation takes it: any plain object of JSON values (an interface of the domain included), kept as
 * its JSON text; it is read back as a `JsonDoc`, which the table's decoder turns into its type again.
 */
export type StoredDoc = object;

/** Which back-end a port is. */
export type StoreKind = 'memory' | 'sqlite' | 'postgres';

/** A request's writes: operations executed in order, in one transaction. */
export type WritePlan = readonly WriteOp[];

/** The health reason of a store that met corrupt data (it never takes writes again). */
export const CORRUPT_REASON = 'the store is corrupt';

/** What the store says of itself (GET /readyz). */
export interface StoreHealth {
  /** The last write succeeded (or none failed yet). */
  readonly writable: boolean;
  /** Why not, in one line (no internals). */
  readonly reason?: string;
}

export interface StoragePort {
  readonly kind: StoreKind;
  /** Where the data lives, for the start line (a path, a URL with its password masked, or `memory`). */
  readonly location: string;
  /** The read-only session the queries of `reads/` run on. */
  readonly reads: SqlSession;
  /** Execute a request's writes in one transaction; the result of each operation, in order. */
  commit(plan: WritePlan): Promise<readonly unknown[]>;
  health(): StoreHealth;
  /** Called once if the store finds its data corrupt: the process must stop (the host exits 2). */
  onFatal(listener: (err: StoreCorruptError) => void): void;
  /**
   * Call `listener` whenever a commit — of this process or, on PostgreSQL, of any host on the database — created
   * work that may be due before the next look at the agenda (wake.ts). Answers the function that unsubscribes.
   */
  onWake(listener: () => void): () => void;
  /** The settings every writing connection runs with (durability; on SQLite also its checkpoint settings), as the database reports them. */
  durability(): Promise<Readonly<Record<string, string>>>;
  /** Release the database (idempotent); the store's file lock too. Every call after close rejects. */
  close(): Promise<void>;
}

/** The store's schema is newer than this code knows: refuse to open rather than misread it. */
export class StoreVersionError extends WopkitError<'store_version_newer'> {
  constructor(readonly found: number, readonly supported: number, location: string) {
    super('store_version_newer', `the store at ${location} has schema version ${found}, newer than this wopkit supports (${supported}); upgrade wopkit or use another data directory`);
  }
}

/**
 * The store cannot write now (a full disk, a database that went away, a lock not granted in time): 503 with
 * `Retry-After`, nothing of the request written. Upstream OpenWOP's registered retriable code.
 */
export class StoreUnavailableError extends WopkitError<'store_unavailable'> {
  constructor(readonly reason: string, readonly retryAfterSeconds = 1) {
    super('store_unavailable', `the store cannot take writes now: ${reason}`, { error: 'runner_unavailable', message: 'the host cannot complete this request now; retry later', details: { retryAfterSeconds } });
  }
}

/** A host of an older wopkit still serves this database: upgrading it now would move its tables from under it. */
export class StoreUpgradeBlockedError extends WopkitError<'store_upgrade_blocked'> {
  constructor(readonly pid: number) {
    super('store_upgrade_blocked', `a host of wopkit 0.2 still holds this database's active-host lease (server process ${pid}): stop every 0.2 host on it, then start this one (it upgrades the database once, before serving)`);
  }
}

/** A call on a closed store. */
export class StoreClosedError extends WopkitError<'store_closed'> {
  constructor() {
    super('store_closed', 'the store is closed');
  }
}

/** One migration step, as data: applied in order, each in a transaction, recorded in `schema_version`. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** DDL to run. */
  readonly sql?: string;
  /** Data to move, after `sql` (a legacy store's rows into the new tables); `exec` runs SQL text as it is. */
  readonly run?: (s: SqlSession, exec: (sql: string) => Promise<void>) => Promise<void>;
}

/** Whether a stored JSON value is an object document (decoders narrow with it). */
export const isJsonDoc = (v: Json | undefined): v is JsonDoc => typeof v === 'object' && v !== null && !Array.isArray(v);
