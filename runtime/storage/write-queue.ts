/**
 * The ordered write path between a runtime that keeps its working state in memory (synchronous reads) and a
 * storage port (asynchronous, durable). Every mutation the runtime makes is enqueued as one port call; calls run
 * one after another in the order they were enqueued, so the store sees mutations in the runtime's order (a
 * schedule's claim before its run's writes, an arm before its fire claim). `flush()` resolves once every call
 * enqueued so far has committed: the host awaits it before acknowledging a request.
 *
 * Fail-stop: once a call fails, the store no longer matches the runtime's state, so every later `flush()` rejects
 * with that first failure (the host answers 500 until it is restarted and reloads from the store).
 */
export class WriteQueue {
  #tail: Promise<unknown> = Promise.resolve();
  #failure: { readonly error: unknown } | undefined;
  #pending = 0;

  /** Run `op` after every call enqueued before it; resolves with its result (rejects with its error). */
  run<T>(op: () => Promise<T>): Promise<T> {
    this.#pending++;
    const result = this.#tail.then(op);
    this.#tail = result.then(
      () => { this.#pending--; },
      (error: unknown) => {
        this.#pending--;
        this.#failure ??= { error };
      },
    );
    return result;
  }

  /** Enqueue a write nobody awaits by itself (its failure surfaces at the next flush). */
  enqueue(op: () => Promise<unknown>): void {
    this.run(op).catch(() => undefined);
  }

  /** Calls enqueued and not yet settled. */
  get pending(): number {
    return this.#pending;
  }

  /** Resolves when every call enqueued so far has committed; rejects when any call has ever failed. */
  async flush(): Promise<void> {
    await this.#tail;
    if (this.#failure !== undefined) throw this.#failure.error;
  }
}
