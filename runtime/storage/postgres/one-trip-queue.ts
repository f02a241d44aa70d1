/**
 * Plans waiting for the one-trip function (one-trip.ts), sent a call at a time: while one call is at the server, the
 * plans that arrive wait and go together in the next call — one transaction and one sync to disk for all of them, as
 * SQLite's group commit does (one call in flight measured best: larger groups). A plan alone is sent at once. Within a call the plans are
 * ordered by tenant, so two calls at the server take the rows they share (a tenant's counts, its background run) in
 * the same order and cannot deadlock on each other.
 */
import type { OneTripPlan } from './one-trip.ts';

/** The answer for a plan that must go statement by statement (the function handed it back, or cannot be used). */
export const HANDED_BACK = Symbol('handed back');

/** One plan's answer: the results of its operations, or HANDED_BACK. */
export type OneTripAnswer = readonly unknown[] | typeof HANDED_BACK;

/**
 * Most plans in one call. Each runs in a subtransaction; past 64 of them in one transaction, PostgreSQL's snapshots
 * of every session overflow their cache of subtransactions and visibility checks slow down server-wide.
 */
export const MAX_CALL_PLANS = 32;

/** Most characters of plans in one call (a plan larger than this still goes, alone). */
export const MAX_CALL_CHARS = 4 * 1024 * 1024;

interface Waiting {
  readonly plan: OneTripPlan;
  readonly done: (answer: OneTripAnswer) => void;
  readonly fail: (err: unknown) => void;
}

export class OneTripQueue {
  readonly #send: (plans: readonly OneTripPlan[]) => Promise<readonly OneTripAnswer[]>;
  readonly #waiting: Waiting[] = [];
  #calling = false;

  /** `send` makes one call with the plans, in that order, and answers for each. */
  constructor(send: (plans: readonly OneTripPlan[]) => Promise<readonly OneTripAnswer[]>) {
    this.#send = send;
  }

  commit(plan: OneTripPlan): Promise<OneTripAnswer> {
    return new Promise((done, fail) => {
      this.#waiting.push({ plan, done, fail });
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#calling || this.#waiting.length === 0) return;
    const call = this.#take().sort((a, b) => (a.plan.order < b.plan.order ? -1 : a.plan.order > b.plan.order ? 1 : 0));
    this.#calling = true;
    this.#send(call.map((w) => w.plan))
      .then(
        (answers) => call.forEach((w, i) => w.done(answers[i]!)),
        (err: unknown) => call.forEach((w) => w.fail(err)),
      )
      .finally(() => {
        this.#calling = false;
        this.#pump();
      });
  }

  /** The next call's plans, oldest first, within the bounds of one call. */
  #take(): Waiting[] {
    let chars = 0;
    let n = 0;
    while (n < this.#waiting.length && n < MAX_CALL_PLANS) {
      chars += this.#waiting[n]!.plan.steps.length;
      if (n > 0 && chars > MAX_CALL_CHARS) break;
      n++;
    }
    return this.#waiting.splice(0, n);
  }
}
