/**
 * Waking the background work: a request that creates work which may fall due before the next look at the agenda
 * (a commitment armed, a predicate set, a schedule created, a question opened) tells every host's background work to
 * look now. On PostgreSQL the notice crosses hosts (NOTIFY in the request's transaction, delivered at its commit, to
 * every host's LISTEN connection); on SQLite and in memory one process holds the store and hears its own commits.
 */
import type { OpName } from './ops/index.ts';
import type { WritePlan } from './port.ts';

/** The operations whose commit wakes the background work. */
export const WAKING_OPS: ReadonlySet<OpName> = new Set<OpName>(['commitment.arm', 'predicate.set', 'schedule.put', 'question.open']);

/** Whether committing `plan` wakes the background work. */
export const wakes = (plan: WritePlan): boolean => plan.some((op) => WAKING_OPS.has(op.op));

/** The channel PostgreSQL hosts notify and listen on. */
export const WAKE_CHANNEL = 'wopkit_work';

/** The listeners of one store; `notify` calls each on a later turn (never inside the caller's commit). */
export class WakeListeners {
  readonly #listeners = new Set<() => void>();

  get size(): number {
    return this.#listeners.size;
  }

  add(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  notify(): void {
    if (this.#listeners.size === 0) return;
    setImmediate(() => {
      for (const l of this.#listeners) l();
    });
  }
}
