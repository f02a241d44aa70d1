/**
 * Injected time and ids. Every runtime module takes a `Clock` and an `IdSource` instead of reading
 * `Date.now()` or `crypto.randomUUID()` directly, so TTL, commitments and snapshots are testable without sleeping.
 */
import { randomUUID } from 'node:crypto';

/** A source of the current time in epoch milliseconds. */
export interface Clock {
  now(): number;
}

/** A source of fresh ids; `prefix` names what the id is for (e.g. `mem`, `evt`, `cmt`). */
export interface IdSource {
  next(prefix: string): string;
}

/** The production clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** The production id source: `<prefix>_<uuid>`. */
export const randomIds: IdSource = { next: (prefix) => `${prefix}_${randomUUID()}` };

/** A clock that only moves when told to: for tests and deterministic demos. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  /** Move forward by `ms` (negative values are refused: time never goes back). */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`ManualClock.advance: ms must be >= 0, got ${ms}`);
    this.#now += ms;
  }
  /** Jump to an absolute instant that is not earlier than now. */
  set(epochMs: number): void {
    if (!(epochMs >= this.#now)) throw new RangeError('ManualClock.set: time never goes back');
    this.#now = epochMs;
  }
}

/** Deterministic ids `<prefix>_<n>` counting from 1 per source. */
export class SequentialIds implements IdSource {
  #n = 0;
  next(prefix: string): string {
    this.#n += 1;
    return `${prefix}_${this.#n}`;
  }
}

/** ISO-8601 UTC with milliseconds, as the wire carries dates. */
export const toIso = (epochMs: number): string => new Date(epochMs).toISOString();
