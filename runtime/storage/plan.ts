/**
 * A request's writes, gathered while the request decides them and committed once, in one transaction, before it
 * answers. Each `add` names one operation of the write vocabulary (ops/) and returns a handle whose value — what the
 * store stored, the sequence it allocated — is there once the plan has committed.
 */
import type { OpArgs, OpName, OpResult, WriteOp } from './ops/index.ts';
import type { StoragePort } from './port.ts';

/** The result of one planned operation, readable after the plan committed. */
export class Pending<T> {
  #result: { readonly value: T } | undefined;

  /** @internal set by `Plan.commit`. */
  resolve(value: T): void {
    this.#result = { value };
  }

  get value(): T {
    if (this.#result === undefined) throw new Error('the plan this result belongs to has not committed');
    return this.#result.value;
  }
}

export class Plan {
  readonly #ops: WriteOp[] = [];
  readonly #pending: Pending<unknown>[] = [];
  readonly #done: (() => void)[] = [];
  readonly #before: (() => void)[] = [];
  readonly #failed: (() => void)[] = [];
  #committed = false;

  /** Plan one operation; its result once the plan committed. */
  add<N extends OpName>(op: N, args: OpArgs<N>): Pending<OpResult<N>> {
    if (this.#committed) throw new Error('this plan has committed; start another');
    const pending = new Pending<OpResult<N>>();
    this.#ops.push({ op, args } as WriteOp);
    this.#pending.push(pending as Pending<unknown>);
    return pending;
  }

  /** Something to do right before the plan is sent (last operations that depend on everything planned so far). */
  beforeCommit(f: () => void): void {
    this.#before.push(f);
  }

  /** Something to do once the plan committed (not when it was refused). */
  afterCommit(f: () => void): void {
    this.#done.push(f);
  }

  /** Something to do when the commit failed (refused, stale, or the store could not write): nothing was written. */
  afterFailure(f: () => void): void {
    this.#failed.push(f);
  }

  get size(): number {
    return this.#ops.length;
  }

  get ops(): readonly WriteOp[] {
    return this.#ops;
  }

  /** Commit every planned operation in one transaction (nothing when there is none). */
  async commit(port: StoragePort): Promise<void> {
    if (this.#committed) throw new Error('this plan has committed already');
    for (const f of this.#before.splice(0)) f();
    this.#committed = true;
    if (this.#ops.length === 0) return;
    let results: readonly unknown[];
    try {
      results = await port.commit(this.#ops);
    } catch (err) {
      for (const f of this.#failed) f();
      throw err;
    }
    this.#pending.forEach((p, i) => p.resolve(results[i]));
    for (const f of this.#done) f();
  }
}
