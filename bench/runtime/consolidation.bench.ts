/**
 * Consolidation scaling benchmark: plan a pass over 1k, 10k and 100k synthetic long-term entries
 * (~20% near duplicates, ~5% exact duplicates, some fact supersession) and report time per entry.
 * Run: npx tsx bench/runtime/consolidation.bench.ts   → bench/results/consolidation.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { planConsolidation, type ConsolidationEntry } from '../../runtime/consolidation/plan.ts';
import { rng } from '../rng.ts';

const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);

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

const results: Record<string, unknown>[] = [];
for (const n of [1_000, 10_000, 100_000]) {
  const entries = corpus(n);
  planConsolidation(entries.slice(0, 500), { redact: (s) => s }); // warm-up
  const t0 = performance.now();
  const plan = planConsolidation(entries, { redact: (s) => s });
  const ms = performance.now() - t0;
  const t1 = performance.now();
  const second = planConsolidation(plan.output, { redact: (s) => s });
  const ms2 = performance.now() - t1;
  const cand = plan.stats.nearDuplicate.reduce((s, x) => s + x.candidatePairs, 0);
  const row = {
    entries: n,
    outputCount: plan.outputCount,
    merged: plan.stats.merged,
    superseded: plan.stats.superseded,
    iterations: plan.iterations,
    candidatePairs: cand,
    allPairs: (n * (n - 1)) / 2,
    ms: Math.round(ms),
    usPerEntry: Math.round((ms * 1000) / n),
    secondPassMs: Math.round(ms2),
    secondPassNoOp: second.inputCount === second.outputCount && second.rewrites.length === 0,
  };
  results.push(row);
  console.log(JSON.stringify(row));
}
const first = results[0] as { usPerEntry: number };
const last = results[results.length - 1] as { usPerEntry: number };
const summary = { node: process.version, growth100kVs1kPerEntry: +(last.usPerEntry / first.usPerEntry).toFixed(2), results };
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/consolidation.json', JSON.stringify(summary, null, 2) + '\n');
console.log('per-entry cost ratio 100k/1k:', summary.growth100kVs1kPerEntry);
