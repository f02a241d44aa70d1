/**
 * Generator benchmarks (ratios measured in one run; not timed tests). Prints a table and writes
 * bench/results/generator.json. Run: npm run bench:generator
 *
 *  1. generated (standalone) validators vs Ajv compiled at runtime, same payloads (all valid examples)  target ≥ 1.0×
 *  2. validateRunEvent (envelope + O(1) dispatch) vs one runtime validator = envelope + oneOf over all payloads  target ≥ 5×
 *  3. cold import of generated/validators/validators.js vs compiling the corpus at start-up (fresh processes)
 *  4. wall time of `gen` (warm cache, cache off, after a one-schema edit), of `gen --check` with nothing changed (the input-hash fast path) and of `gen --check` without
 *     a hash record (the full emit and comparison), over the whole corpus (fresh processes, scratch copy, interleaved)
 *     goals: `gen --check` unchanged ≤ 0.5 s, full `gen` ≤ 3 s (on a quiet machine)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved } from '../../generator/resolve.ts';
import { ANNOTATION_KEYWORDS, createAjv } from '../../generator/ajv.ts';
import { validatorIndex } from '../../generated/validators/validators.js';
import { validateRunEvent } from '../../generated/run-events/index.ts';
import { runEventFixtures } from '../run-event-fixtures.ts';
import { median, round, writeResult, type BenchRow } from '../summary.ts';

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
const { payloadsFile, envelopeFile, typeIndex, events } = runEventFixtures(corpus);
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

// 4. gen and gen --check wall time (fresh processes on a scratch copy of the corpus; interleaved, medians)
const genRoot = join(scratch, 'repo');
mkdirSync(genRoot);
cpSync(join(ROOT, 'schemas'), join(genRoot, 'schemas'), { recursive: true });
const wall = (args: string[], expectCode: number, env: NodeJS.ProcessEnv = process.env): { ms: number; out: string } => {
  const t0 = performance.now();
  const res = spawnSync(TSX, [join(ROOT, 'generator/cli.ts'), ...args, '--root', genRoot], { cwd: ROOT, encoding: 'utf8', env });
  const ms = performance.now() - t0;
  if (res.status !== expectCode) throw new Error(`${args.join(' ')} exited ${res.status}: ${res.stderr}`);
  return { ms, out: res.stdout };
};
const genMs: number[] = [];
const genColdMs: number[] = [];
const genEditedMs: number[] = [];
const NO_CACHE = { ...process.env, WOPKIT_GEN_CACHE: '0' };
/** A one-schema edit (a description), as after merging a change: only that file's declarations miss, quicktype renders again. */
const editOne = (i: number) => {
  const p = join(genRoot, 'schemas/openwop/v1/memory-entry.schema.json');
  const schema = JSON.parse(readFileSync(p, 'utf8'));
  // unique per run, so that no earlier run's cache entries can serve it
  schema.description = `${schema.description} (bench edit ${process.pid}.${Date.now()}.${i})`;
  writeFileSync(p, `${JSON.stringify(schema, null, 2)}\n`);
};
const fastCheckMs: number[] = [];
const fullCheckMs: number[] = [];
const versionMs: number[] = [];
const record = join(genRoot, 'generated/.gen-hash');
wall(['gen'], 0); // fills the cache for this corpus
for (let i = 0; i < 3; i++) {
  // interleaved: cache off, warm cache, after a one-schema edit
  rmSync(join(genRoot, 'generated'), { recursive: true, force: true });
  genColdMs.push(wall(['gen'], 0, NO_CACHE).ms);
  rmSync(join(genRoot, 'generated'), { recursive: true, force: true });
  genMs.push(wall(['gen'], 0).ms);
  editOne(i);
  genEditedMs.push(wall(['gen'], 0).ms);
  const kept = readFileSync(record);
  for (let k = 0; k < 2; k++) {
    const fast = wall(['gen', '--check', '--format', 'json'], 0);
    if (JSON.parse(fast.out).fastPath !== true) throw new Error('gen --check did not take the fast path on an unchanged corpus');
    fastCheckMs.push(fast.ms);
    versionMs.push(wall(['--version'], 0).ms);
  }
  rmSync(record);
  const full = wall(['gen', '--check', '--format', 'json'], 0);
  if (JSON.parse(full.out).fastPath !== false) throw new Error('gen --check took the fast path without a record');
  fullCheckMs.push(full.ms);
  writeFileSync(record, kept);
}
rmSync(scratch, { recursive: true, force: true });

// 4b. where gen's time goes: each stage and each emitter, once, in this process, one after another, with the disk cache
// off (first run: cold, as in a fresh `gen` of a corpus never generated before)
process.env['WOPKIT_GEN_CACHE'] = '0';
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
  genWall: {
    genMsMedian: Math.round(median(genMs)),
    genCacheOffMsMedian: Math.round(median(genColdMs)),
    genAfterOneSchemaEditMsMedian: Math.round(median(genEditedMs)),
    genCheckFastMsMedian: Math.round(median(fastCheckMs)),
    genCheckFullMsMedian: Math.round(median(fullCheckMs)),
    processStartMsMedian: Math.round(median(versionMs)),
    inProcessBreakdownMs: breakdown,
  },
};
const GEN_LIMIT_MS = 3000;
const CHECK_LIMIT_MS = 500;
const { genMsMedian, genCheckFastMsMedian, genCheckFullMsMedian, processStartMsMedian } = results.genWall;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const summary: BenchRow[] = [
  {
    row: 'gen --check with nothing changed (fresh process)',
    ratio: round(CHECK_LIMIT_MS / genCheckFastMsMedian),
    peer: `the ${CHECK_LIMIT_MS / 1000} s limit (the full emit and comparison, without a hash record: ${seconds(genCheckFullMsMedian)})`,
    goal: `≥ 1× (≤ ${CHECK_LIMIT_MS / 1000} s on a quiet machine)`,
    figure: `${seconds(genCheckFastMsMedian)} (process start alone ${seconds(processStartMsMedian)})`,
  },
  {
    row: 'full gen (fresh process, warm cache)',
    ratio: round(GEN_LIMIT_MS / genMsMedian),
    peer: `the ${GEN_LIMIT_MS / 1000} s limit`,
    goal: `≥ 1× (≤ ${GEN_LIMIT_MS / 1000} s on a quiet machine)`,
    figure: `${seconds(genMsMedian)} (load average ${loadavg()[0]?.toFixed(1)})`,
  },
  {
    row: 'full gen (fresh process, cache off)',
    ratio: round(GEN_LIMIT_MS / results.genWall.genCacheOffMsMedian),
    peer: `the ${GEN_LIMIT_MS / 1000} s limit`,
    goal: `≥ 1× (≤ ${GEN_LIMIT_MS / 1000} s on a quiet machine)`,
    figure: seconds(results.genWall.genCacheOffMsMedian),
  },
  {
    row: 'full gen after a one-schema edit (fresh process)',
    ratio: round(GEN_LIMIT_MS / results.genWall.genAfterOneSchemaEditMsMedian),
    peer: `the ${GEN_LIMIT_MS / 1000} s limit`,
    goal: `≥ 1× (≤ ${GEN_LIMIT_MS / 1000} s on a quiet machine)`,
    figure: seconds(results.genWall.genAfterOneSchemaEditMsMedian),
  },
];

const rows: [string, string, string, string][] = [
  ['standalone vs runtime Ajv (ops/s)', `${results.standaloneVsRuntime.standaloneOpsPerSec} vs ${results.standaloneVsRuntime.runtimeOpsPerSec}`, `${results.standaloneVsRuntime.ratio}×`, '≥ 1.0×'],
  ['validateRunEvent vs oneOf (ops/s)', `${results.dispatchVsOneOf.dispatchOpsPerSec} vs ${results.dispatchVsOneOf.oneOfOpsPerSec}`, `${results.dispatchVsOneOf.ratio}×`, '≥ 5×'],
  ['cold import vs compile at start-up (ms)', `${results.coldStart.importMsMedian} vs ${results.coldStart.compileAtStartupMsMedian} (compile alone ${results.coldStart.compileOnlyMsMedian})`, `${results.coldStart.ratio}×`, 'import faster'],
  ['gen wall time (ms, fresh process, warm cache)', `${results.genWall.genMsMedian}`, '', `≤ ${GEN_LIMIT_MS}`],
  ['gen wall time (ms, fresh process, cache off)', `${results.genWall.genCacheOffMsMedian}`, '', `≤ ${GEN_LIMIT_MS}`],
  ['gen wall time (ms, after a one-schema edit)', `${results.genWall.genAfterOneSchemaEditMsMedian}`, '', `≤ ${GEN_LIMIT_MS}`],
  ['gen --check unchanged (ms, fresh process)', `${results.genWall.genCheckFastMsMedian} (process start ${results.genWall.processStartMsMedian})`, '', `≤ ${CHECK_LIMIT_MS}`],
  ['gen --check full path (ms, fresh process)', `${results.genWall.genCheckFullMsMedian}`, '', ''],
  ['  of which (in process, ms)', Object.entries(breakdown).map(([k, v]) => `${k} ${v}`).join(', '), '', ''],
];
const w = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i]!.length), ['benchmark', 'measured', 'ratio', 'target'][i]!.length));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(w[i]!)).join(' | ');
console.log(line(['benchmark', 'measured', 'ratio', 'target']));
console.log(w.map((n) => '-'.repeat(n)).join('-|-'));
for (const row of rows) console.log(line(row));
const path = writeResult('generator', { benchmark: 'generator', ...results, summary });
console.log(`\nwritten ${path}`);
