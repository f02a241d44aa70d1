/**
 * Commitment scheduler: the CommitmentEngine against its own TimerHeap, side by side in one run. Each run arms N
 * time commitments (seeded random due times over a day), cancels every tenth, then drains in 100 clock steps; the
 * heap does the same with bare numbers, the engine with its ledger and the content-free emit. The engine's inputs
 * (the inferred commitments a caller hands in) are built before the clock starts, as the heap's due times are, so
 * the ratio measures the engine and not the caller. Rounds alternate which goes first; the ratio is the median of
 * the per-round ratios (heap time / engine time: 1 would be the heap's own speed).
 * Run: npm run bench:scheduler   → bench/results/scheduler.json
 */
import { TimerHeap } from '../../runtime/shared/timer-heap.ts';
import { CommitmentEngine } from '../../runtime/commitments/engine.ts';
import type { InferredCommitment } from '../../runtime/commitments/inference.ts';
import { ManualClock } from '../../runtime/shared/clock.ts';
import { rng } from '../rng.ts';
import { median, round, writeResult } from '../summary.ts';

const HORIZON = 86_400_000;
const STEPS = 100;
/** The goal: the engine within 3× of its heap. */
const GOAL = 1 / 3;

interface Phases {
  readonly armMs: number;
  readonly cancelMs: number;
  readonly drainMs: number;
  readonly fired: number;
}
const total = (p: Phases): number => p.armMs + p.cancelMs + p.drainMs;

function dueTimes(n: number): Float64Array {
  const r = rng(n + 7);
  return Float64Array.from({ length: n }, () => 0 | (r() * HORIZON));
}

function heapRun(due: Float64Array): Phases {
  const n = due.length;
  const h = new TimerHeap<number>();
  const handles = new Int32Array(n);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) handles[i] = h.schedule(due[i]!, i);
  const tArm = performance.now();
  for (let i = 0; i < n; i += 10) h.cancel(handles[i]!);
  const tCancel = performance.now();
  let fired = 0;
  for (let step = 1; step <= STEPS; step++) fired += h.popDue((HORIZON / STEPS) * step).length;
  return { armMs: tArm - t0, cancelMs: tCancel - tArm, drainMs: performance.now() - tCancel, fired };
}

async function engineRun(due: Float64Array): Promise<Phases> {
  const n = due.length;
  const inputs: InferredCommitment[] = Array.from({ length: n }, (_, i) => ({ commitmentId: `cmt_${i}`, memoryRef: 'mem://acme/a', memoryId: `m${i}`, condition: { kind: 'time', at: due[i]! }, enqueueRun: false }));
  const clock = new ManualClock(0);
  let fired = 0;
  const engine = new CommitmentEngine({ clock, tenantOf: () => 'acme', emit: () => void fired++ });
  const t0 = performance.now();
  for (let i = 0; i < n; i++) engine.arm(inputs[i]!);
  const tArm = performance.now();
  for (let i = 0; i < n; i += 10) engine.cancel(inputs[i]!.commitmentId);
  const tCancel = performance.now();
  for (let step = 1; step <= STEPS; step++) {
    clock.set((HORIZON / STEPS) * step);
    await engine.tick();
  }
  return { armMs: tArm - t0, cancelMs: tCancel - tArm, drainMs: performance.now() - tCancel, fired };
}

const rounded = (p: Phases) => ({ armMs: Math.round(p.armMs), cancelMs: Math.round(p.cancelMs), drainMs: Math.round(p.drainMs), fired: p.fired });

const results = [];
for (const [n, rounds] of [[100_000, 5], [1_000_000, 3]] as const) {
  const due = dueTimes(n);
  await engineRun(due); // warm-up
  heapRun(due);
  const heaps: Phases[] = [];
  const engines: Phases[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      heaps.push(heapRun(due));
      engines.push(await engineRun(due));
    } else {
      engines.push(await engineRun(due));
      heaps.push(heapRun(due));
    }
    if (engines[r]!.fired !== heaps[r]!.fired) throw new Error(`the engine fired ${engines[r]!.fired}, the heap popped ${heaps[r]!.fired}`);
  }
  const ratios = heaps.map((h, r) => total(h) / total(engines[r]!));
  const row = { armed: n, rounds, ratio: round(median(ratios), 3), heap: heaps.map(rounded), engine: engines.map(rounded), ratios: ratios.map((x) => round(x, 3)) };
  results.push(row);
  console.log(JSON.stringify(row));
}
const big = results.at(-1)!;
const engineMs = median(big.engine.map((p) => p.armMs + p.cancelMs + p.drainMs));
const heapMs = median(big.heap.map((p) => p.armMs + p.cancelMs + p.drainMs));
const path = writeResult('scheduler', {
  benchmark: 'commitment-scheduler',
  node: process.version,
  summary: {
    row: 'commitment engine vs its own heap, 1M time commitments (arm, cancel 10%, drain)',
    ratio: big.ratio,
    peer: `its TimerHeap on bare numbers: ${Math.round(heapMs)} ms`,
    goal: `≥ ${round(GOAL, 2)}× (the engine within 3× of its heap)`,
    figure: `${Math.round(engineMs)} ms (${round(1 / big.ratio, 1)}× the heap, median of the rounds)`,
  },
  results,
});
console.log(`scheduler → ${path}`);
