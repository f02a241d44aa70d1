/**
 * Commitment scheduler benchmark: arm N time commitments (random due times), cancel 10%, then drain in 100
 * clock steps; both the raw TimerHeap and the full CommitmentEngine (ledger + content-free emit).
 * Run: npx tsx bench/runtime/scheduler.bench.ts   → bench/results/scheduler.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { TimerHeap } from '../../runtime/shared/timer-heap.ts';
import { CommitmentEngine } from '../../runtime/commitments/engine.ts';
import { ManualClock } from '../../runtime/shared/clock.ts';
import { rng } from '../rng.ts';

const HORIZON = 86_400_000;

function heapBench(n: number) {
  const r = rng(n);
  const h = new TimerHeap<number>();
  const t0 = performance.now();
  const handles = new Int32Array(n);
  for (let i = 0; i < n; i++) handles[i] = h.schedule(0 | (r() * HORIZON), i);
  const tArm = performance.now();
  for (let i = 0; i < n; i += 10) h.cancel(handles[i]!);
  const tCancel = performance.now();
  let popped = 0;
  for (let step = 1; step <= 100; step++) popped += h.popDue((HORIZON / 100) * step).length;
  const tDrain = performance.now();
  return { armMs: Math.round(tArm - t0), cancelMs: Math.round(tCancel - tArm), drainMs: Math.round(tDrain - tCancel), popped };
}

async function engineBench(n: number) {
  const r = rng(n + 7);
  const clock = new ManualClock(0);
  let emitted = 0;
  const engine = new CommitmentEngine({ clock, tenantOf: () => 'acme', emit: () => void emitted++ });
  const ids: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const c = engine.arm({ commitmentId: `cmt_${i}`, memoryRef: 'mem://acme/a', memoryId: `m${i}`, condition: { kind: 'time', at: 0 | (r() * HORIZON) }, enqueueRun: false });
    if (c) ids.push(c.commitmentId);
  }
  const tArm = performance.now();
  for (let i = 0; i < n; i += 10) engine.cancel(ids[i]!);
  const tCancel = performance.now();
  for (let step = 1; step <= 100; step++) {
    clock.set((HORIZON / 100) * step);
    await engine.tick();
  }
  const tDrain = performance.now();
  return { armMs: Math.round(tArm - t0), cancelMs: Math.round(tCancel - tArm), drainMs: Math.round(tDrain - tCancel), fired: emitted };
}

const results: Record<string, unknown>[] = [];
for (const n of [100_000, 1_000_000]) {
  const heap = heapBench(n);
  const engine = await engineBench(n);
  const row = { armed: n, heap, engine, heapNsPerOp: Math.round(((heap.armMs + heap.drainMs) * 1e6) / (2 * n)) };
  results.push(row);
  console.log(JSON.stringify(row));
}
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/scheduler.json', JSON.stringify({ node: process.version, results }, null, 2) + '\n');
