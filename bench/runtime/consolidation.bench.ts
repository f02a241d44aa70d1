/**
 * Consolidation: the fast plan (runtime/consolidation/plan.ts) against the reference implementation it replaced
 * (runtime/consolidation/reference.ts), side by side in one run over 1k, 10k and 100k synthetic long-term entries
 * (~20% near duplicates, ~5% exact duplicates, some fact supersession). Interleaved rounds, alternating which side
 * goes first; the ratio is the median of the per-round ratios. At 100k the reference runs once, between two fast runs.
 * Every size also checks that both plans are identical (clusters, plan and statistics) and that a second pass over
 * the output is a no-op.
 * Run: npm run bench:consolidation   → bench/results/consolidation.json
 * (BENCH_SKIP_REFERENCE_100K=1 skips the slow reference run at 100k.)
 */
import { isDeepStrictEqual } from 'node:util';
import { planConsolidation, type ConsolidationEntry, type ConsolidationPlan } from '../../runtime/consolidation/plan.ts';
import { referencePlanConsolidation } from '../../runtime/consolidation/reference.ts';
import { rng } from '../rng.ts';
import { median, round, writeResult } from '../summary.ts';

const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
const GOAL_RATIO = 6;
const GOAL_MS = 2000;

function corpus(n: number): ConsolidationEntry[] {
  const r = rng(n);
  const out: ConsolidationEntry[] = [];
  for (let i = 0; i < n; i++) {
    const base = 0 | (r() * 0.8 * n);
    const len = 8 + (0 | (r() * 10));
    const br = rng(base + 1);
    const words = Array.from({ length: len }, () => VOCAB[0 | (br() * VOCAB.length)]!);
    const kind = r();
    if (kind < 0.2) words[0 | (r() * len)] = 'edited'; // near duplicate of the base text
    const tags = kind > 0.97 ? [`fact:k${0 | (r() * (n / 50))}`] : [];
    out.push({ id: `m${i}`, content: words.join(' '), tags, createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString() });
  }
  return out;
}

const options = { redact: (s: string) => s };
const timed = (plan: typeof planConsolidation, entries: readonly ConsolidationEntry[]): { ms: number; plan: ConsolidationPlan } => {
  const t0 = performance.now();
  const result = plan(entries, options);
  return { ms: performance.now() - t0, plan: result };
};

const sizes = [
  { n: 1_000, rounds: 9 },
  { n: 10_000, rounds: 5 },
  { n: 100_000, rounds: 1 },
];
const results = [];
planConsolidation(corpus(500), options); // warm-up
referencePlanConsolidation(corpus(500), options);
for (const { n, rounds } of sizes) {
  const entries = corpus(n);
  const fastMs: number[] = [];
  const referenceMs: number[] = [];
  const ratios: number[] = [];
  let fast: ConsolidationPlan | undefined;
  let reference: ConsolidationPlan | undefined;
  if (n === 100_000) {
    const a = timed(planConsolidation, entries);
    fast = a.plan;
    if (process.env['BENCH_SKIP_REFERENCE_100K'] !== '1') {
      const r = timed(referencePlanConsolidation, entries);
      reference = r.plan;
      referenceMs.push(r.ms);
    }
    const b = timed(planConsolidation, entries);
    fastMs.push(a.ms, b.ms);
    if (reference !== undefined) ratios.push(referenceMs[0]! / median(fastMs));
  } else {
    for (let round = 0; round < rounds; round++) {
      const first = round % 2 === 0 ? planConsolidation : referencePlanConsolidation;
      const second = first === planConsolidation ? referencePlanConsolidation : planConsolidation;
      const x = timed(first, entries);
      const y = timed(second, entries);
      const [f, r] = first === planConsolidation ? [x, y] : [y, x];
      fastMs.push(f.ms);
      referenceMs.push(r.ms);
      ratios.push(r.ms / f.ms);
      fast = f.plan;
      reference = r.plan;
    }
  }
  if (reference !== undefined && !isDeepStrictEqual(fast, reference)) throw new Error(`fast and reference plans differ at ${n} entries`);
  const plan = fast!;
  const t1 = performance.now();
  const second = planConsolidation(plan.output, options);
  const secondPassMs = performance.now() - t1;
  const row = {
    entries: n,
    outputCount: plan.outputCount,
    merged: plan.stats.merged,
    superseded: plan.stats.superseded,
    iterations: plan.iterations,
    candidatePairs: plan.stats.nearDuplicate.reduce((s, x) => s + x.candidatePairs, 0),
    allPairs: (n * (n - 1)) / 2,
    fastMs: Math.round(median(fastMs)),
    referenceMs: referenceMs.length ? Math.round(median(referenceMs)) : null,
    ratio: ratios.length ? round(median(ratios)) : null,
    rounds: ratios.length,
    identical: reference !== undefined ? true : null,
    usPerEntry: Math.round((median(fastMs) * 1000) / n),
    secondPassMs: Math.round(secondPassMs),
    secondPassNoOp: second.inputCount === second.outputCount && second.rewrites.length === 0,
  };
  results.push(row);
  console.log(JSON.stringify(row));
}
const at100k = results[results.length - 1]!;
// The row is the largest size with a reference run (100k unless BENCH_SKIP_REFERENCE_100K=1).
const measured = results.filter((r) => r.ratio !== null).at(-1)!;
const ratio = measured.ratio!;
const path = writeResult('consolidation', {
  benchmark: 'consolidation',
  node: process.version,
  summary: {
    row: `consolidation near-duplicate pass, ${measured.entries / 1000}k entries`,
    ratio,
    peer: `the previous implementation (runtime/consolidation/reference.ts), identical plans: ${(measured.referenceMs! / 1000).toFixed(1)} s`,
    goal: `≥ ${GOAL_RATIO}× (≤ ${GOAL_MS / 1000} s on a quiet machine)`,
    figure: `${(measured.fastMs / 1000).toFixed(2)} s`,
  },
  growth100kVs1kPerEntry: round(at100k.usPerEntry / results[0]!.usPerEntry),
  results,
}, `seeded near-duplicate corpora of ${sizes.map((x) => x.n.toLocaleString('en')).join(', ')} entries (a ${VOCAB.length}-word vocabulary); the reference implementation run on the same entries`);
console.log(`${measured.entries}: ${measured.fastMs} ms, ${ratio}× the reference → ${path}`);
