/**
 * SR-1 redaction: the Aho-Corasick chokepoint vs the naive per-secret split/join, side by side in one run, at
 * 10, 1k and 10k registered secrets over the same 64 KiB content (with a few real secrets planted).
 * Run: npm run bench:redaction   → bench/results/redaction.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { naiveRedact, redact } from '../../runtime/redaction/chokepoint.ts';
import { RunSecretRegistry } from '../../runtime/redaction/secret-registry.ts';

const secretOf = (i: number) => `sk-${i.toString(36).padStart(6, '0')}-${((i * 2654435761) >>> 0).toString(16)}`;

function content(bytes: number, secrets: number): string {
  const words = ['memory', 'entry', 'customer', 'prefers', 'email', 'refund', 'policy', 'days', 'note', 'agent'];
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const w = i % 97 === 0 ? secretOf((i * 31) % secrets) : words[i % words.length]!;
    parts.push(w);
    n += w.length + 1;
  }
  return parts.join(' ');
}

function time(fn: () => void, minMs = 300): number {
  for (let i = 0; i < 5; i++) fn(); // warm up the JIT
  let iters = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    fn();
    iters++;
  }
  return (performance.now() - start) / iters;
}

const results: Record<string, unknown>[] = [];
for (const count of [10, 1_000, 10_000]) {
  const reg = new RunSecretRegistry('tenant');
  for (let i = 0; i < count; i++) reg.register(`byok-${i}`, secretOf(i), 'run');
  const text = content(64 * 1024, count);
  if (redact(text, reg) !== naiveRedact(text, reg)) throw new Error('implementations disagree');
  const chokepoint = time(() => redact(text, reg));
  const naive = time(() => naiveRedact(text, reg), count >= 10_000 ? 1000 : 300);
  results.push({ secrets: count, contentBytes: text.length, chokepointMs: +chokepoint.toFixed(3), naiveMs: +naive.toFixed(3), speedup: +(naive / chokepoint).toFixed(1) });
}
// Linearity in content size at 10k secrets.
const reg = new RunSecretRegistry('tenant');
for (let i = 0; i < 10_000; i++) reg.register(`byok-${i}`, secretOf(i), 'run');
const linearity = [16, 64, 256].map((kib) => {
  const text = content(kib * 1024, 10_000);
  return { contentKiB: kib, chokepointMs: +time(() => redact(text, reg)).toFixed(3) };
});

console.table(results);
console.table(linearity);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/redaction.json', `${JSON.stringify({ benchmark: 'sr1-redaction', node: process.version, results, linearity }, null, 2)}\n`);
