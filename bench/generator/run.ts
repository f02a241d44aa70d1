/**
 * Generator benchmarks (ratios measured in one run; not timed tests). Prints a table and writes
 * bench/results/generator.json. Run: npm run bench:generator
 *
 *  1. generated (standalone) validators vs Ajv compiled at runtime, same payloads (all valid examples)  target ≥ 1.0×
 *  2. validateRunEvent (envelope + O(1) dispatch) vs one runtime validator = envelope + oneOf over all payloads  target ≥ 5×
 *  3. cold import of generated/validators/validators.js vs compiling the corpus at start-up (fresh processes)
 *  4. wall time of `gen` and `gen --check` over the whole corpus (fresh processes, scratch copy)  target ≤ 5 s each
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved } from '../../generator/resolve.ts';
import { ANNOTATION_KEYWORDS, createAjv } from '../../generator/ajv.ts';
import { validatorIndex } from '../../generated/validators/validators.js';
import { validateRunEvent } from '../../generated/run-events/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE = join(ROOT, 'node_modules/.bin/node');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const DURATION_MS = Number(process.env['BENCH_MS'] ?? 400);

/** ops/s of `fn` over `inputs`, after a warm-up. */
function opsPerSec(inputs: readonly unknown[], fn: (x: unknown) => unknown): number {
  let sink = 0;
  const warm = performance.now() + 200;
  while (performance.now() < warm) for (const x of inputs) sink += fn(x) ? 1 : 0;
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < DURATION_MS) {
    for (const x of inputs) sink += fn(x) ? 1 : 0;
    ops += inputs.length;
    now = performance.now();
  }
  if (sink === -1) console.log(sink);
  return ops / ((now - start) / 1000);
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Compare two functions fairly: alternate short rounds (A, B, A, B, …) and take the median ops/s of each. */
function compare(inputs: readonly unknown[], a: (x: unknown) => unknown, b: (x: unknown) => unknown, rounds = 7): [number, number] {
  const ra: number[] = [];
  const rb: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // alternate which side goes first, so neither profits from running second
    if (i % 2 === 0) {
      ra.push(opsPerSec(inputs, a));
      rb.push(opsPerSec(inputs, b));
    } else {
      rb.push(opsPerSec(inputs, b));
      ra.push(opsPerSec(inputs, a));
    }
  }
  return [median(ra), median(rb)];
}

const corpus = loadCorpus(ROOT);
const r = new Resolved(corpus);
const ajv = createAjv();
for (const f of corpus.schemas) ajv.addSchema(f.schema as object);
type V = (d: unknown) => boolean;
const index = validatorIndex as unknown as Record<string, { validator: V }>;

// 1. standalone vs runtime, on every valid example with its own validator
const byTarget = new Map([...r.entries.values()].map((e) => [`${e.file.family}/${e.target}`, e]));
const pairs = corpus.examples
  .filter((e) => e.kind === 'valid')
  .map((e) => {
    const entry = byTarget.get(`${e.family}/${e.target}`)!;
    return { instance: e.instance, standalone: index[entry.title]!.validator, runtime: ajv.getSchema(entry.ajvRef)! as V };
  });
const [standaloneOps, runtimeOps] = compare(
  pairs,
  (p) => (p as (typeof pairs)[number]).standalone((p as (typeof pairs)[number]).instance),
  (p) => (p as (typeof pairs)[number]).runtime((p as (typeof pairs)[number]).instance),
);

// 2. dispatch vs oneOf over all payloads
const payloadsFile = corpus.schemas.find((s) => s.stem === 'run-event-payloads' && s.family === 'openwop')!;
const envelopeFile = corpus.schemas.find((s) => s.stem === 'run-event' && s.family === 'openwop')!;
const typeIndex = payloadsFile.schema['x-type-index'] as Record<string, string>;
const events: unknown[] = [];
let seq = 0;
for (const [type, ref] of Object.entries(typeIndex)) {
  const def = ref.split('/').pop();
  for (const ex of corpus.examples.filter((e) => e.kind === 'valid' && e.target === `run-event-payloads--${def}`))
    events.push({ eventId: `e-${seq}`, runId: 'run-1', type, payload: ex.instance, timestamp: '2026-01-01T00:00:00Z', sequence: seq++ });
}
const oneOfSchema = {
  $id: 'https://wopkit.dev/bench/run-event-oneof.json',
  allOf: [{ $ref: envelopeFile.id }],
  oneOf: Object.entries(typeIndex).map(([type, ref]) => ({
    type: 'object',
    properties: { type: { const: type }, payload: { $ref: `${payloadsFile.id}${ref}` } },
    required: ['type', 'payload'],
  })),
};
const oneOf = ajv.compile(oneOfSchema) as V;
for (const e of events) if (!oneOf(e) || !validateRunEvent(e).valid) throw new Error('bench events must all be valid');
const [dispatchOps, oneOfOps] = compare(events, (e) => validateRunEvent(e).valid, oneOf);

// 3. cold import vs compile at start-up, in fresh processes (median of 5)
const scratch = mkdtempSync(join(tmpdir(), 'wopkit-bench-'));
const importScript = join(scratch, 'import.mjs');
writeFileSync(
  importScript,
  `const t0 = performance.now(); const m = await import(${JSON.stringify(join(ROOT, 'generated/validators/validators.js'))}); ` +
    `const n = Object.keys(m.validatorIndex).length; console.log(JSON.stringify({ ms: performance.now() - t0, n }));`,
);
const compileScript = join(scratch, 'compile.mjs');
// The start-up alternative, in plain Node like the import: load Ajv + formats, read the schema files, compile every type.
writeFileSync(
  compileScript,
  `const t0 = performance.now();\n` +
    `const { readFileSync } = await import('node:fs');\n` +
    `const Ajv2020 = (await import(${JSON.stringify(join(ROOT, 'node_modules/ajv/dist/2020.js'))})).default;\n` +
    `const addFormats = (await import(${JSON.stringify(join(ROOT, 'node_modules/ajv-formats/dist/index.js'))})).default;\n` +
    `const t1 = performance.now();\n` +
    `const ajv = new Ajv2020({ strict: true, allErrors: true, discriminator: true }); addFormats(ajv);\n` +
    `for (const keyword of ${JSON.stringify(ANNOTATION_KEYWORDS)}) ajv.addKeyword({ keyword, schemaType: ['object', 'array', 'string'] });\n` +
    `for (const p of ${JSON.stringify(corpus.schemas.map((f) => join(ROOT, f.path)))}) ajv.addSchema(JSON.parse(readFileSync(p, 'utf8')));\n` +
    `const refs = ${JSON.stringify(r.types.map((t) => t.ajvRef))}; for (const ref of refs) ajv.getSchema(ref);\n` +
    `console.log(JSON.stringify({ ms: performance.now() - t0, compileMs: performance.now() - t1, n: refs.length }));\n`,
);
const runJson = (cmd: string, args: string[], cwd = ROOT): { ms: number; compileMs?: number; n: number } => {
  const res = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split('\n').pop() as string);
};
const importMs: number[] = [];
const compileMs: number[] = [];
const compileOnlyMs: number[] = [];
for (let i = 0; i < 5; i++) {
  importMs.push(runJson(NODE, [importScript]).ms);
  const c = runJson(NODE, [compileScript]);
  compileMs.push(c.ms);
  compileOnlyMs.push(c.compileMs ?? c.ms);
}

// 4. gen and gen --check wall time (fresh processes on a scratch copy of the corpus; median of 3)
const genRoot = join(scratch, 'repo');
mkdirSync(genRoot);
cpSync(join(ROOT, 'schemas'), join(genRoot, 'schemas'), { recursive: true });
const wall = (args: string[], expectCode: number): number => {
  const t0 = performance.now();
  const res = spawnSync(TSX, [join(ROOT, 'generator/cli.ts'), ...args, '--root', genRoot], { cwd: ROOT, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (res.status !== expectCode) throw new Error(`gen ${args.join(' ')} exited ${res.status}: ${res.stderr}`);
  return ms;
};
const genMs: number[] = [];
const checkMs: number[] = [];
for (let i = 0; i < 3; i++) {
  rmSync(join(genRoot, 'generated'), { recursive: true, force: true });
  genMs.push(wall(['gen'], 0));
  checkMs.push(wall(['gen', '--check'], 0));
}
rmSync(scratch, { recursive: true, force: true });

// 4b. where gen's time goes: each stage and each emitter, once, in this process (first run: cold caches, as in a fresh `gen`)
const { EMITTERS } = await import('../../generator/emitters.ts');
const { declareTypes } = await import('../../generator/emit/ts-declarations.ts');
const timed = async <T>(name: string, fn: () => T | Promise<T>): Promise<T> => {
  const t = performance.now();
  const value = await fn();
  breakdown[name] = Math.round(performance.now() - t);
  return value;
};
const breakdown: Record<string, number> = {};
const genCorpus = await timed('load', () => loadCorpus(ROOT));
const genResolved = await timed('resolve', () => new Resolved(genCorpus));
const declarations = await timed('ts-declarations', () => declareTypes(genResolved));
for (const e of EMITTERS) await timed(e.name, () => e.emit(genResolved, declarations));

const results = {
  machine: { cpus: cpus().length, node: process.version },
  corpus: { schemas: corpus.schemas.length, types: r.types.length, examples: corpus.examples.length, validPayloads: pairs.length, events: events.length },
  standaloneVsRuntime: { standaloneOpsPerSec: Math.round(standaloneOps), runtimeOpsPerSec: Math.round(runtimeOps), ratio: +(standaloneOps / runtimeOps).toFixed(2), target: 1.0 },
  dispatchVsOneOf: { dispatchOpsPerSec: Math.round(dispatchOps), oneOfOpsPerSec: Math.round(oneOfOps), ratio: +(dispatchOps / oneOfOps).toFixed(2), target: 5.0 },
  coldStart: {
    importMsMedian: +median(importMs).toFixed(1),
    compileAtStartupMsMedian: +median(compileMs).toFixed(1),
    compileOnlyMsMedian: +median(compileOnlyMs).toFixed(1),
    ratio: +(median(compileMs) / median(importMs)).toFixed(2),
  },
  genWall: { genMsMedian: Math.round(median(genMs)), genCheckMsMedian: Math.round(median(checkMs)), targetMs: 5000, inProcessBreakdownMs: breakdown },
};

const rows: [string, string, string, string][] = [
  ['standalone vs runtime Ajv (ops/s)', `${results.standaloneVsRuntime.standaloneOpsPerSec} vs ${results.standaloneVsRuntime.runtimeOpsPerSec}`, `${results.standaloneVsRuntime.ratio}×`, '≥ 1.0×'],
  ['validateRunEvent vs oneOf (ops/s)', `${results.dispatchVsOneOf.dispatchOpsPerSec} vs ${results.dispatchVsOneOf.oneOfOpsPerSec}`, `${results.dispatchVsOneOf.ratio}×`, '≥ 5×'],
  ['cold import vs compile at start-up (ms)', `${results.coldStart.importMsMedian} vs ${results.coldStart.compileAtStartupMsMedian} (compile alone ${results.coldStart.compileOnlyMsMedian})`, `${results.coldStart.ratio}×`, 'import faster'],
  ['gen wall time (ms, fresh process)', `${results.genWall.genMsMedian}`, '', '≤ 5000'],
  ['gen --check wall time (ms, fresh process)', `${results.genWall.genCheckMsMedian}`, '', '≤ 5000'],
  ['  of which (in process, ms)', Object.entries(breakdown).map(([k, v]) => `${k} ${v}`).join(', '), '', ''],
];
const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i]!.length), ['benchmark', 'measured', 'ratio', 'target'][i]!.length));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(w[i]!)).join(' | ');
console.log(line(['benchmark', 'measured', 'ratio', 'target']));
console.log(w.map((n) => '-'.repeat(n)).join('-|-'));
for (const row of rows) console.log(line(row));
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/generator.json'), JSON.stringify(results, null, 2) + '\n');
console.log('\nwritten bench/results/generator.json');
