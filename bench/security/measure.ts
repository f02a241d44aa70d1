/** Measuring helpers of the security benchmarks: median timings of interleaved peers, heap after GC, the JSON file. */
import { cpus, loadavg } from 'node:os';
import { writeResult, type BenchRow } from '../summary.ts';

/**
 * Median milliseconds per call of `op` over `rounds` batches of `batch` calls, each peer's batches interleaved. Each
 * batch starts after a full collection when the process can run one (--expose-gc), so no batch pays for the garbage
 * the one before it left.
 */
export async function interleavedMedians<K extends string>(peers: Record<K, () => unknown>, { rounds = 9, batch = 200 } = {}): Promise<Record<K, number>> {
  const names = Object.keys(peers) as K[];
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (const n of names) for (let i = 0; i < batch; i++) await peers[n](); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const n of r % 2 === 0 ? names : [...names].reverse()) {
      (globalThis as { gc?: () => void }).gc?.();
      const t = performance.now();
      for (let i = 0; i < batch; i++) await peers[n]();
      samples[n].push((performance.now() - t) / batch);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(samples[n])])) as Record<K, number>;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Heap used after full collections (the benchmark runs with --expose-gc), and the resident set, in MiB. */
export function memoryAfterGc(): { heapMiB: number; rssMiB: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc (npm run bench:security does)');
  for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return { heapMiB: round(m.heapUsed / 2 ** 20), rssMiB: round(m.rss / 2 ** 20) };
}

export const round = (x: number, digits = 3): number => Number(x.toFixed(digits));

/** A ratio check: the row the JSON carries, and whether it holds. */
export function ratio(name: string, value: number, bound: number, peer: string): { name: string; value: number; bound: number; peer: string; pass: boolean } {
  return { name, value: round(value), bound, peer, pass: value <= bound };
}

/** A check as a row of the benchmark table (bench/README.md): a cost ratio, so the goal is an upper bound. */
export const checkRow = (c: ReturnType<typeof ratio>): BenchRow => ({ row: c.name, ratio: c.value, peer: c.peer, goal: `≤ ${c.bound}× (a cost ratio: at most ${c.bound}× the peer's)` });

/**
 * Write bench/results/<name>.json with its run record (the commit, `input` in words, Node, cores, load), its summary
 * (one row per check) and the machine's load when it ended (ratios are measured interleaved, but a loaded machine
 * widens them), and print each check; exit 1 when one fails.
 */
export function report(name: string, body: Record<string, unknown> & { checks: readonly ReturnType<typeof ratio>[] }, input: string): void {
  const machine = { cores: cpus().length, loadAverage: loadavg().map((l) => round(l, 2)) };
  writeResult(name, { node: process.version, machine, ...body, summary: body.checks.map(checkRow) }, input);
  for (const c of body.checks) console.log(`${c.pass ? 'ok  ' : 'FAIL'} ${c.name}: ${c.value} (bound ${c.bound}, against ${c.peer})`);
  if (body.checks.some((c) => !c.pass)) process.exitCode = 1;
}
