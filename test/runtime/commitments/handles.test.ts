/**
 * The engine leaves the handle entries of fired time commitments behind and rebuilds its id → handle index once the
 * stale entries outnumber the live ones (issue 15). Across such a rebuild, arming, cancelling and firing must behave
 * as if every entry had been removed the moment its commitment fired.
 */
import { describe, expect, it } from 'vitest';
import { CommitmentEngine } from '../../../runtime/commitments/engine.ts';
import type { InferredCommitment } from '../../../runtime/commitments/inference.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';

const timeCommitment = (i: number, at: number): InferredCommitment => ({ commitmentId: `c${i}`, memoryRef: 'mem://acme/a', condition: { kind: 'time', at }, enqueueRun: false });

describe('time commitment handles across the stale-entry rebuild', () => {
  it('fired ids stay fired, armed ids stay armed and cancellable, handles reused by other commitments are not confused', async () => {
    const clock = new ManualClock(0);
    const fired: string[] = [];
    const engine = new CommitmentEngine({ clock, tenantOf: () => 'acme', emit: (_t, p) => void fired.push(p.commitmentId) });
    const N = 5_000;
    const LIVE = 200;
    for (let i = 0; i < N; i++) expect(engine.arm(timeCommitment(i, i < N - LIVE ? 10 : 1_000))).toBeDefined();
    clock.set(10);
    expect((await engine.tick()).length).toBe(N - LIVE); // enough stale entries for a rebuild
    expect(engine.armedCount).toBe(LIVE);
    // a fired commitment: cancelling it finds nothing, arming it again is a no-op (its instance is in the ledger)
    expect(engine.cancel('c0')).toBe(false);
    expect(engine.arm(timeCommitment(0, 10))).toBeUndefined();
    // a smaller batch fires after the rebuild (its entries stay behind), then new commitments reuse its heap
    // slots: the fired ids must not take them for theirs
    for (let i = N; i < N + 50; i++) engine.arm(timeCommitment(i, 20));
    clock.set(20);
    expect((await engine.tick()).length).toBe(50);
    for (let i = N + 50; i < N + 100; i++) expect(engine.arm(timeCommitment(i, 2_000))).toBeDefined();
    for (let i = N; i < N + 50; i++) expect(engine.cancel(`c${i}`)).toBe(false);
    expect(engine.arm(timeCommitment(N + 50, 2_000))).toBeUndefined(); // already armed
    // a fired id armed for another instant is a new instance: armed, cancellable once
    expect(engine.arm(timeCommitment(2, 3_000))).toBeDefined();
    expect(engine.cancel('c2')).toBe(true);
    expect(engine.cancel('c2')).toBe(false);
    // the live ones before the rebuild are still cancellable exactly once
    expect(engine.cancel(`c${N - 1}`)).toBe(true);
    expect(engine.cancel(`c${N - 1}`)).toBe(false);
    expect(engine.armedCount).toBe(LIVE - 1 + 50);
    fired.length = 0;
    clock.set(5_000);
    const last = await engine.tick();
    expect(last.length).toBe(LIVE - 1 + 50);
    expect(new Set(fired).size).toBe(fired.length);
    expect(fired).not.toContain(`c${N - 1}`);
    expect(fired).not.toContain('c2');
    expect(engine.armedCount).toBe(0);
  });
});
