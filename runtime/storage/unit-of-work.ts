/**
 * The unit of work: the only way to the store. A request (or one piece of background work) opens one with
 * `unitOfWork(port, tx => …)`; everything it does goes through the `tx` it is handed:
 *
 * - `tx.read`: the store's typed queries (reads/), each an indexed statement with a bound on its rows;
 * - `tx.add(op, args)`: one typed write operation (ops/), planned — nothing is written until the unit commits;
 * - `tx.afterCommit` / `tx.afterFailure` / `tx.beforeCommit`: what to do around the commit.
 *
 * The helper owns the rest: it commits the planned writes once, in one transaction, when the work returns, and answers
 * only after that commit is durable; when the work or the commit fails nothing is written; when the commit is refused
 * because a decision rested on a read another request changed (`stale_read`), it runs the whole work again from its
 * reads, with a fresh `tx` (at most `retries` times). Domain code takes a `tx` and never commits; the SQL session stays
 * inside `runtime/storage/`. (The shape of Kysely's `db.transaction().execute(trx => …)`.)
 */
import type { OpArgs, OpName, OpResult } from './ops/index.ts';
import { Pending, Plan } from './plan.ts';
import type { StoragePort } from './port.ts';
import { readsOf, type Reads } from './reads/index.ts';
import { isStale } from './refusal.ts';

export type { Pending } from './plan.ts';
export type { Reads } from './reads/index.ts';

/** What a unit of work hands the code that runs in it. */
export interface Tx {
  /** The store's queries. */
  readonly read: Reads;
  /** Plan one write operation; its result once the unit committed. */
  add<N extends OpName>(op: N, args: OpArgs<N>): Pending<OpResult<N>>;
  /** Something to do right before the writes are sent (last operations that depend on everything planned so far). */
  beforeCommit(f: () => void): void;
  /** Something to do once the unit committed (not when it was refused or failed). */
  afterCommit(f: () => void): void;
  /** Something to do when the commit failed (refused, stale, or the store could not write): nothing was written. */
  afterFailure(f: () => void): void;
  /** Writes planned so far. */
  readonly size: number;
}

class UnitTx implements Tx {
  readonly #plan = new Plan();
  constructor(readonly read: Reads) {}

  add<N extends OpName>(op: N, args: OpArgs<N>): Pending<OpResult<N>> {
    return this.#plan.add(op, args);
  }
  beforeCommit(f: () => void): void {
    this.#plan.beforeCommit(f);
  }
  afterCommit(f: () => void): void {
    this.#plan.afterCommit(f);
  }
  afterFailure(f: () => void): void {
    this.#plan.afterFailure(f);
  }
  get size(): number {
    return this.#plan.size;
  }
  /** @internal the helper's: commit what was planned. */
  commit(port: StoragePort): Promise<void> {
    return this.#plan.commit(port);
  }
}

export interface UnitOfWorkOptions {
  /** Times the work runs in all when its commit keeps meeting a stale read (default 8). */
  readonly retries?: number;
  /**
   * Commit what was planned even when the work throws, then rethrow (default false). For work that must keep what
   * it recorded before it stopped — a supervisor step that halts at its interrupt keeps the events up to it.
   */
  readonly commitOnThrow?: boolean;
}

const DEFAULT_RETRIES = 8;

/**
 * Run `work` as one unit of work on `port`: its reads through `tx.read`, its writes committed once, in one
 * transaction, after it returns. Answers what `work` answered, once the commit is durable.
 */
export async function unitOfWork<T>(port: StoragePort, work: (tx: Tx) => Promise<T> | T, options: UnitOfWorkOptions = {}): Promise<T> {
  const retries = options.retries ?? DEFAULT_RETRIES;
  const read = readsOf(port);
  for (let attempt = 1; ; attempt++) {
    const tx = new UnitTx(read);
    try {
      let out: T;
      try {
        out = await work(tx);
      } catch (err) {
        if (options.commitOnThrow === true) await tx.commit(port);
        throw err;
      }
      await tx.commit(port);
      return out;
    } catch (err) {
      if (!isStale(err) || attempt >= retries) throw err;
    }
  }
}

/** A function that runs work as a unit of work on one store (what background work is given instead of the port). */
export type Units = <T>(work: (tx: Tx) => Promise<T> | T, options?: UnitOfWorkOptions) => Promise<T>;

/** The unit-of-work opener of `port`. */
export const unitsOf = (port: StoragePort): Units => (work, options) => unitOfWork(port, work, options);

/**
 * A unit of work nobody commits: for tests and benchmarks that inspect what domain code plans (or commit it
 * themselves with `commitDetached`). Not exported from the storage layer's public entry: runtime code cannot reach it.
 */
export function detachedTx(port: StoragePort): Tx {
  return new UnitTx(readsOf(port));
}

/** Commit what a detached unit planned (tests only). */
export function commitDetached(tx: Tx, port: StoragePort): Promise<void> {
  if (!(tx instanceof UnitTx)) throw new TypeError('not a unit of work made by detachedTx');
  return tx.commit(port);
}
