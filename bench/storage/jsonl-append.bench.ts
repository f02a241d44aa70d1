/**
 * JSONL append cost against the size of the log: with 1k, 10k and 50k records already in the file, time appends
 * through the raw FramedJsonlLog and through the JsonlTranscriptStore (which also keeps the per-participant index),
 * durable (fdatasync per append, the default) and not (durable: false, the unsafe test/benchmark opt-out).
 * Per-record time is the median over batches taken in turn across the sizes; flat means the 50k/1k ratio stays ≤ 1.3 for every series.
 * Run: npm run bench:jsonl   → bench/results/jsonl-append.json (exit code 1 when a series is not flat)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FramedJsonlLog, frame } from '../../runtime/inquirium/storage/framed-jsonl.ts';
import { isTranscriptLine, JsonlTranscriptStore, type TranscriptFact } from '../../runtime/inquirium/storage/transcript.ts';
import { rng } from '../rng.ts';
import { writeResult, type BenchRow } from '../summary.ts';

const SIZES = [1_000, 10_000, 50_000] as const;
const FLAT = 1.3;
const BATCHES = 7;
const PER_BATCH = { durable: 60, fast: 400 } as const;

const random = rng(66);
const fact = (n: number): TranscriptFact => ({
  kind: 'turn',
  id: `turn:${n}`,
  participant: `participant:${n % 50}`,
  session: `session:${n % 400}`,
  classification: 'personal',
  recordedAt: new Date(1_780_000_000_000 + n * 1000).toISOString(),
  body: { schema: 'inquirium.inquiry-turn.v1', 'turn/id': `turn:${n}`, text: 'x'.repeat(120 + Math.floor(random() * 200)) },
});

interface Appender {
  append(n: number): void;
  close(): void;
}
const layers: Record<'log' | 'transcript', (path: string, durable: boolean) => Appender> = {
  log: (path, durable) => {
    const log = new FramedJsonlLog(path, isTranscriptLine, { durable });
    return { append: (n) => void log.append(fact(n)), close: () => log.close() };
  },
  transcript: (path, durable) => {
    const store = new JsonlTranscriptStore(path, { durable });
    return { append: (n) => store.append(fact(n)), close: () => store.close() };
  },
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * One series (layer × durability): a log per size, opened side by side; after a warm-up, batches go round the
 * sizes in turn, so a disturbance of the machine (fsync latency, another process) hits every size alike.
 */
function measureSeries(layer: keyof typeof layers, durable: boolean) {
  const perBatch = durable ? PER_BATCH.durable : PER_BATCH.fast;
  const logs = SIZES.map((size) => {
    const dir = mkdtempSync(join(tmpdir(), 'wopkit-bench-jsonl-'));
    const path = join(dir, 'log.jsonl');
    writeFileSync(path, Array.from({ length: size }, (_, n) => frame(fact(n))).join(''));
    const t0 = performance.now();
    const appender = layers[layer](path, durable);
    return { size, dir, appender, openMs: Math.round(performance.now() - t0), next: size, batches: [] as number[] };
  });
  for (const l of logs) for (let i = 0; i < perBatch; i++) l.appender.append(l.next++); // warm-up
  for (let b = 0; b < BATCHES; b++) {
    for (const l of logs) {
      const start = performance.now();
      for (let i = 0; i < perBatch; i++) l.appender.append(l.next++);
      l.batches.push(((performance.now() - start) * 1000) / perBatch);
    }
  }
  return logs.map((l) => {
    l.appender.close();
    rmSync(l.dir, { recursive: true, force: true });
    return { layer, durable, recordsBefore: l.size, appends: l.next - l.size, usPerAppend: Math.round(median(l.batches) * 10) / 10, openMs: l.openMs };
  });
}

const results: ReturnType<typeof measureSeries> = [];
for (const layer of ['log', 'transcript'] as const) {
  for (const durable of [false, true]) {
    for (const row of measureSeries(layer, durable)) {
      results.push(row);
      console.log(JSON.stringify(row));
    }
  }
}
const series = (['log', 'transcript'] as const).flatMap((layer) =>
  [false, true].map((durable) => {
    const at = (size: number) => results.find((r) => r.layer === layer && r.durable === durable && r.recordsBefore === size)!.usPerAppend;
    const ratio = Math.round((at(50_000) / at(1_000)) * 100) / 100;
    return { layer, durable, ratio50kTo1k: ratio, flat: ratio <= FLAT, usAt50k: at(50_000) };
  }),
);
for (const s of series) console.log(`${s.layer} ${s.durable ? 'durable' : 'durable:false'}: 50k/1k = ${s.ratio50kTo1k} ${s.flat ? 'flat' : `NOT FLAT (> ${FLAT})`}`);
/** One row per layer and durability: the append cost at 50k records as a ratio of the cost at 1k (flat: O(1) appends). */
const summary: BenchRow[] = series.map((s) => ({
  row: `JSONL ${s.layer} append, ${s.durable ? 'fsync on' : 'fsync off'}: cost at 50k records / at 1k`,
  ratio: s.ratio50kTo1k,
  peer: 'appends to the same store holding 1k records',
  goal: `≤ ${FLAT}× (a cost ratio: append time flat from 1k to 50k records)`,
  figure: `${s.usAt50k} µs per append at 50k`,
}));
writeResult('jsonl-append', { summary, node: process.version, flatLimit: FLAT, batches: BATCHES, perBatch: PER_BATCH, results, series }, `logs and transcripts already holding ${SIZES.join(', ')} seeded records on the local disk; ${BATCHES} batches of ${PER_BATCH.durable} (durable) and ${PER_BATCH.fast} (fsync off) appends per size, taken in turn`);
if (!series.every((s) => s.flat)) process.exitCode = 1;
