/**
 * Group commit on SQLite: every plan that arrived since the last commit runs in ONE transaction (one sync to disk
 * for all of them), each inside a savepoint of its own, so a plan that is refused (a bound, a stale read) rolls back
 * alone and leaves the others to commit. A failure of the transaction itself (the disk is full, the data is
 * corrupt) fails every plan of the group; nothing of it stays.
 */
import { runOp, type WriteOp } from '../ops/index.ts';
import { isCorrupt, isUnwritable, type SqliteSession } from './session.ts';

/** What became of one plan of a group. */
export type Settled = { readonly results: readonly unknown[] } | { readonly error: unknown };

/** An error that ends the whole group, not just its plan: the disk or the file failed. */
const endsGroup = (err: unknown): boolean => isCorrupt(err) || isUnwritable(err);

export async function commitGroup(s: SqliteSession, plans: readonly (readonly WriteOp[])[]): Promise<Settled[]> {
  // Transaction control through the statement cache (prepared once, not parsed per plan). A group of one plan needs no
  // savepoint: its refusal rolls the whole transaction back, which is the same thing.
  const alone = plans.length === 1;
  const rollback = () => {
    try {
      s.exec('ROLLBACK');
    } catch {
      // the transaction is already gone (SQLite rolls back by itself on some I/O errors)
    }
  };
  await s.run('BEGIN IMMEDIATE');
  const settled: Settled[] = [];
  try {
    for (const plan of plans) {
      if (!alone) await s.run('SAVEPOINT plan');
      try {
        const results: unknown[] = [];
        for (const op of plan) results.push(await runOp(s, op));
        if (!alone) await s.run('RELEASE plan');
        settled.push({ results });
      } catch (err) {
        if (endsGroup(err)) throw err;
        if (alone) {
          // A lone plan's own refusal is its outcome, not the group's failure.
          rollback();
          return [{ error: err }];
        }
        await s.run('ROLLBACK TO plan');
        await s.run('RELEASE plan');
        settled.push({ error: err });
      }
    }
    await s.run('COMMIT');
  } catch (err) {
    rollback();
    throw err;
  }
  return settled;
}

/** Largest group committed at once (plans waiting beyond it go in the next transaction). */
export const MAX_GROUP = 1024;

/**
 * Plans waiting for the writer, committed a group at a time in arrival order: while one group commits, the plans
 * that arrive form the next. `settle` hears each plan's outcome; `failGroup` a group whose transaction failed.
 */
export class GroupQueue {
  readonly #s: SqliteSession;
  readonly #waiting: { readonly plan: readonly WriteOp[]; readonly done: (s: Settled) => void }[] = [];
  readonly #onGroupError: (err: unknown) => Settled;
  #draining = false;
  #scheduled = false;

  constructor(s: SqliteSession, onGroupError: (err: unknown) => Settled) {
    this.#s = s;
    this.#onGroupError = onGroupError;
  }

  enqueue(plan: readonly WriteOp[]): Promise<Settled> {
    return new Promise((done) => {
      this.#waiting.push({ plan, done });
      if (!this.#draining) this.#schedule();
    });
  }

  /**
   * Drain on the next turn of the event loop, after every write already waiting to be delivered has arrived: that
   * is what lets concurrent requests share a group (and one sync to disk).
   */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#waiting.length > 0) {
        const group = this.#waiting.splice(0, MAX_GROUP);
        let settled: Settled[];
        try {
          settled = await commitGroup(this.#s, group.map((g) => g.plan));
        } catch (err) {
          const failed = this.#onGroupError(err);
          settled = group.map(() => failed);
        }
        group.forEach((g, i) => g.done(settled[i]!));
      }
    } finally {
      this.#draining = false;
    }
  }
}
