/**
 * Cold import of the built packages on plain Node 24: a fresh `node -e "await import('@wopkit/validators')"` (by
 * package name, as a client would) against a fresh `node -e ''`, N times each, interleaved so that machine noise hits
 * both alike. Reported: the median wall time of each and their difference (what the import costs a process), plus
 * the import time measured inside the process. Every subpath of wopkit is measured the same way, for comparison.
 * Needs dist/ (`npm run build`). Run: npm run bench:package → bench/results/package.json
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeResult, type BenchRow } from '../summary.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NODE = join(ROOT, 'node_modules/.bin/node');
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
if (!existsSync(join(ROOT, 'dist/entry/validators.js'))) throw new Error('dist/ is missing: run npm run build first');

const { name, exports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
// The validators package first (the table's row), then every code subpath of wopkit (self-reference into dist/).
const subpaths = ['@wopkit/validators', ...Object.keys(exports).filter((s) => s !== '.' && !s.includes('*') && !s.endsWith('.json')).map((s) => `${name}${s.slice(1)}`)];

/** One fresh process: wall ms, and (for an import) the import's own ms as the child measured it. */
function once(specifier: string | undefined): { wallMs: number; importMs?: number } {
  const code = specifier === undefined ? '' : `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(NODE, ['--input-type=module', '-e', code], { cwd: join(ROOT, 'dist'), encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`node -e import(${specifier}) failed: ${r.stderr}`);
  return specifier === undefined ? { wallMs } : { wallMs, importMs: Number(r.stdout) };
}

const quantile = (xs: readonly number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const round = (x: number): number => Math.round(x * 10) / 10;

const targets: (string | undefined)[] = [undefined, ...subpaths];
const samples = new Map<string | undefined, { wallMs: number; importMs?: number }[]>(targets.map((t) => [t, []]));
for (const t of targets) once(t); // warm the file-system cache
for (let i = 0; i < RUNS; i++) {
  const order = i % 2 === 0 ? targets : [...targets].reverse();
  for (const t of order) samples.get(t)!.push(once(t));
}

const baseline = quantile(samples.get(undefined)!.map((s) => s.wallMs), 0.5);
const rows = subpaths.map((specifier) => {
  const s = samples.get(specifier)!;
  const wall = quantile(s.map((x) => x.wallMs), 0.5);
  return {
    specifier,
    wallMsMedian: round(wall),
    overBaselineMsMedian: round(wall - baseline),
    wallMsP25: round(quantile(s.map((x) => x.wallMs), 0.25)),
    wallMsP75: round(quantile(s.map((x) => x.wallMs), 0.75)),
    inProcessImportMsMedian: round(quantile(s.map((x) => x.importMs!), 0.5)),
  };
});
/** The table row: the validators package against a bare process; no goal is set for it. */
function packageRow(r: (typeof rows)[number], base: number): BenchRow {
  return { row: `cold import of ${r.specifier} from the built package (fresh process)`, ratio: Math.round((base / r.wallMsMedian) * 100) / 100, peer: `a bare \`node -e ''\`: ${round(base)} ms`, goal: '— (reported; no goal set)', figure: `${r.wallMsMedian} ms (+${r.overBaselineMsMedian} ms; in-process import ${r.inProcessImportMsMedian} ms)` };
}
const results = {
  benchmark: 'package-cold-import',
  node: spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim(),
  runs: RUNS,
  method: "fresh `node --input-type=module -e \"await import('<specifier>')\"` in dist/ (the wopkit package: self-reference; @wopkit/validators through dist/node_modules, as installed), interleaved with `node -e ''`; medians",
  baselineWallMsMedian: round(baseline),
  summary: packageRow(rows[0]!, baseline),
  results: rows,
};
writeResult('package', results, `the packages built from this commit (dist/), ${RUNS} fresh processes per import`);
console.log(`node -e '' median ${round(baseline)} ms (${RUNS} runs)`);
for (const r of rows) console.log(`${r.specifier.padEnd(20)} ${String(r.wallMsMedian).padStart(6)} ms wall, +${r.overBaselineMsMedian} ms over node -e '' (in-process import ${r.inProcessImportMsMedian} ms)`);
