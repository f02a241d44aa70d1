/**
 * Interleaved A/B measurement: every round runs each contender for the same short time on the same inputs, in a
 * rotating order, and records ops/s; a ratio is the median over rounds of (ours / peer) within each round, so load
 * from other processes affects both sides of a ratio alike.
 */
import { performance } from 'node:perf_hooks';

const DURATION_MS = Number(process.env['BENCH_MS'] ?? 250);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 9);

/** ops/s of `fn` over `inputs` for about DURATION_MS (whole passes over the inputs). */
function opsPerSec<T>(inputs: readonly T[], fn: (x: T) => unknown): number {
  let sink = 0;
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < DURATION_MS) {
    for (let i = 0; i < inputs.length; i++) sink += fn(inputs[i] as T) ? 1 : 0;
    ops += inputs.length;
    now = performance.now();
  }
  if (sink === -1) console.log(sink);
  return ops / ((now - start) / 1000);
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

export interface Comparison {
  /** Median ops/s of each contender. */
  readonly opsPerSec: Record<string, number>;
  /** Median over rounds of ours / peer, per peer. */
  readonly ratios: Record<string, number>;
}

/** Run `contenders` (the first is "ours") interleaved over `inputs`; ratios are ours / each other contender. */
export function compare<T>(inputs: readonly T[], contenders: Record<string, (x: T) => unknown>): Comparison {
  const names = Object.keys(contenders);
  const ours = names[0] as string;
  // warm every contender first, so no round measures a cold JIT
  for (const n of names) opsPerSec(inputs, contenders[n] as (x: T) => unknown);
  const ops: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const ratios: Record<string, number[]> = Object.fromEntries(names.slice(1).map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = names.map((_, i) => names[(i + r) % names.length] as string);
    const round: Record<string, number> = {};
    for (const n of order) round[n] = opsPerSec(inputs, contenders[n] as (x: T) => unknown);
    for (const n of names) (ops[n] as number[]).push(round[n] as number);
    for (const n of names.slice(1)) (ratios[n] as number[]).push((round[ours] as number) / (round[n] as number));
  }
  return {
    opsPerSec: Object.fromEntries(names.map((n) => [n, Math.round(median(ops[n] as number[]))])),
    ratios: Object.fromEntries(names.slice(1).map((n) => [n, +median(ratios[n] as number[]).toFixed(2)])),
  };
}
