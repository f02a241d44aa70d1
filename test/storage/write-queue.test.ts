/** The ordered write queue between the runtime and the port: order, flush, group commit, fail-stop. */
import { describe, expect, it } from 'vitest';
import { WriteQueue } from '../../runtime/storage/write-queue.ts';

const later = <T>(v: T, ms = 0) => new Promise<T>((r) => setTimeout(() => r(v), ms));

describe('WriteQueue', () => {
  it('runs calls one after another in enqueue order, and flush waits for all of them', async () => {
    const q = new WriteQueue();
    const log: number[] = [];
    for (const [i, ms] of [[1, 15], [2, 0], [3, 5]] as const) q.enqueue(async () => { await later(null, ms); log.push(i); });
    await q.flush();
    expect(log).toEqual([1, 2, 3]);
    expect(await q.run(async () => 'value')).toBe('value');
  });

  it('groups the calls waiting at a drain into one batch, and settles them only after the batch', async () => {
    const batches: string[][] = [];
    let current: string[] | undefined;
    const q = new WriteQueue(async (f) => {
      current = [];
      const out = await f();
      batches.push(current);
      current = undefined;
      return out;
    });
    const op = (name: string) => async () => { current!.push(name); return name; };
    const settled: string[] = [];
    const a = q.run(op('a')).then((v) => { settled.push(`${v}@${batches.length}`); });
    q.enqueue(op('b'));
    q.enqueue(op('c'));
    await q.flush();
    await a;
    q.enqueue(op('d'));
    await q.flush();
    expect(batches).toEqual([['a', 'b', 'c'], ['d']]);
    expect(settled).toEqual(['a@1']);
  });

  it('fail-stop: a failed call fails its batch, and every later flush rejects with the first failure', async () => {
    const q = new WriteQueue(async (f) => f());
    const ok = q.run(async () => 1);
    q.enqueue(async () => { throw new Error('disk full'); });
    await expect(ok).rejects.toThrow('disk full');
    await expect(q.flush()).rejects.toThrow('disk full');
    q.enqueue(async () => 2);
    await expect(q.flush()).rejects.toThrow('disk full');
  });
  it('fail-stop: a write enqueued after a failure never reaches the store', async () => {
    const q = new WriteQueue(async (f) => f());
    q.enqueue(async () => { throw new Error('disk full'); });
    await expect(q.flush()).rejects.toThrow('disk full');
    let ran = false;
    await expect(q.run(async () => { ran = true; })).rejects.toThrow('disk full');
    expect(ran).toBe(false);
  });
});
