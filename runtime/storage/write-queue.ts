/**
 * The ordered write path between a runtime that keeps its working state in memory (synchronous reads) and a
 * storage port (asynchronous, durable). Every mutation the runtime makes is enqueued as one port call; calls run
 * one after another in the order they were enqueued, so the store sees mutations in the runtime's order (a
 * schedule's claim before its run's writes, an arm before its fire claim). `flush()` resolves once every call
 * enqueued so far has committed: the host awaits it before acknowledging a request.
 *
 * Group commit: when the port offers `batch`, the calls waiting when the queue drains (typically one request's
 * entry, event, journal record and watermark) run in one batch — one transaction, one sync to disk — and each
 * call's promise settles only after that batch committed. A failing call fails its whole batch.
 *
 * Fail-stop: once a call fails, the store no longer matches the runtime's state, so every later `flush()` rejects
 * with that first failure (the host answers 500 until it is restarted and reloads from the store).
 */
import type { StoragePort } from './port.ts';

interface Pending {
  readonly op: () => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export class WriteQueue {
  readonly #batch: StoragePort['batch'];
  #waiting: Pending[] = [];
  #draining: Promise<void> | undefined;
  #failure: { readonly error: unknown } | undefined;

  /** `batch`: the port's group commit, when it has one (each call then runs in its own transaction). */
  constructor(batch?: StoragePort['batch']) {
    this.#batch = batch;
  }

  /** Run `op` after every call enqueued before it; resolves with its result once committed (rejects with its error). */
  run<T>(op: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({ op, resolve: resolve as (value: unknown) => void, reject });
      this.#draining ??= this.#drain().finally(() => {
        this.#draining = undefined;
      });
    });
  }

  /** Enqueue a write nobody awaits by itself (its failure surfaces at the next flush). */
  enqueue(op: () => Promise<unknown>): void {
    this.run(op).catch(() => undefined);
  }

  /** Calls enqueued and not yet settled. */
  get pending(): number {
    return this.#waiting.length;
  }

  async #drain(): Promise<void> {
    // Let the caller finish its synchronous work first: everything it enqueues joins this batch.
    await Promise.resolve();
    while (this.#waiting.length > 0) {
      const group = this.#waiting;
      this.#waiting = [];
      // Fail-stop: after a failed write nothing more reaches the store (a later write would commit on top of the
      // rolled-back batch and leave a gap that a restart would load as state the runtime never had).
      if (this.#failure !== undefined) {
        for (const p of group) p.reject(this.#failure.error);
        continue;
      }
      if (this.#batch !== undefined) await this.#runBatch(this.#batch, group);
      else for (const p of group) await this.#settle([p], () => p.op().then((v) => [v]));
    }
  }

  #runBatch(batch: NonNullable<StoragePort['batch']>, group: readonly Pending[]): Promise<void> {
    return this.#settle(group, () => batch(async () => {
      const out: unknown[] = [];
      for (const p of group) out.push(await p.op());
      return out;
    }));
  }

  async #settle(group: readonly Pending[], run: () => Promise<unknown[]>): Promise<void> {
    try {
      const values = await run();
      group.forEach((p, i) => p.resolve(values[i]));
    } catch (error) {
      this.#failure ??= { error };
      for (const p of group) p.reject(error);
    }
  }

  /** Resolves when every call enqueued so far has committed; rejects when any call has ever failed. */
  async flush(): Promise<void> {
    while (this.#draining !== undefined) await this.#draining;
    if (this.#failure !== undefined) throw this.#failure.error;
  }
}
