/**
 * `npm run figures [-- --check] [--only bench] [--tests <vitest-json>…]`: every number in the README, written by this
 * one script (issue 26: figures that cannot go stale). A figure sits between markers,
 * `<!-- figure:NAME -->VALUE<!-- /figure -->`, and the benchmark table between `<!-- bench-report:start -->` and
 * `<!-- bench-report:end -->`; nothing else in the README prose may carry a measured number (test/figures/readme.test.ts
 * checks that every digit outside code is a figure or one of the identifiers it names).
 *
 * Each figure is computed here, never copied: package sizes and file counts from `npm pack --dry-run --json` in each
 * assembled package (needs `npm run build`), the validators-only install from an `npm install` of the packed tarball,
 * test counts from `vitest list` (or from the JSON reports of a run that just happened: `--tests`), the page count from
 * the built site (needs `npm run site:build`), corpus counts from the loader, the benchmark rows from
 * bench/results/*.json (each with the commit and input it measured).
 *
 * Without --check it writes the README (and bench/results/README.md); with --check it writes nothing and exits 1 naming
 * every figure the README states differently (CI runs it after the main job and the tests). `--only bench` handles the
 * benchmark parts only (npm run bench:report).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCorpus } from '../generator/load.ts';
import { collect, inputs, misses, table, type Collected } from '../bench/report.ts';
import { RESULTS_DIR } from '../bench/summary.ts';
import { PACKAGES, VALIDATORS_PACKAGE, sizeFigureOf } from './package-layout.ts';
import { packageDir, shipDocuments, shippedDocuments } from './build.ts';
import { packOne } from './pack.ts';
import { installed } from './consumer-test.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const README = join(ROOT, 'README.md');

// ── markers ─────────────────────────────────────────────────────────────────────────────────────────────────────────

const FIGURE = /<!-- figure:([a-z][a-z0-9.-]*) -->([\s\S]*?)<!-- \/figure -->/g;
export const BLOCKS = ['bench-report', 'bench-inputs', 'bench-misses'] as const;
export type Block = (typeof BLOCKS)[number];
const blockMarkers = (b: Block) => [`<!-- ${b}:start -->`, `<!-- ${b}:end -->`] as const;

/** Every inline figure of a text: its name and the value written there. */
export function figuresIn(text: string): { name: string; value: string }[] {
  return [...text.matchAll(FIGURE)].map((m) => ({ name: m[1]!, value: m[2]! }));
}

/** The text of a block, or undefined when its markers are missing. */
export function blockIn(text: string, b: Block): string | undefined {
  const [start, end] = blockMarkers(b);
  const [at, to] = [text.indexOf(start), text.indexOf(end)];
  return at >= 0 && to > at ? text.slice(at + start.length, to).replace(/^\n/, '').replace(/\n$/, '') : undefined;
}

/** `text` with every figure and block it has replaced by the computed value (a name with no value is an error). */
export function render(text: string, values: ReadonlyMap<string, string>, blocks: Partial<Record<Block, string>>): string {
  let out = text.replace(FIGURE, (_m, name: string, old: string) => `<!-- figure:${name} -->${values.has(name) ? values.get(name)! : old}<!-- /figure -->`);
  for (const b of BLOCKS) {
    const value = blocks[b];
    if (value === undefined) continue;
    const [start, end] = blockMarkers(b);
    const [at, to] = [out.indexOf(start), out.indexOf(end)];
    if (at < 0 || to < at) throw new Error(`README.md has no ${start} … ${end} markers`);
    out = `${out.slice(0, at + start.length)}\n${value}\n${out.slice(to)}`;
  }
  return out;
}

export interface Difference {
  readonly figure: string;
  readonly readme: string;
  readonly measured: string;
}

/** Every figure and block the README states differently from the computed values (missing markers included). */
export function differences(text: string, values: ReadonlyMap<string, string>, blocks: Partial<Record<Block, string>>): Difference[] {
  const out: Difference[] = [];
  const written = new Map(figuresIn(text).map((f) => [f.name, f.value]));
  for (const [name, measured] of values) {
    const readme = written.get(name);
    if (readme !== measured) out.push({ figure: name, readme: readme ?? '(no marker in README.md)', measured });
  }
  for (const name of written.keys()) if (!values.has(name)) out.push({ figure: name, readme: written.get(name)!, measured: '(no such figure: scripts/figures.ts computes none by this name)' });
  for (const b of BLOCKS) {
    const measured = blocks[b];
    if (measured === undefined) continue;
    const readme = blockIn(text, b);
    if (readme !== measured) out.push({ figure: b, readme: readme ?? '(no markers in README.md)', measured });
  }
  return out;
}

// ── the figures ─────────────────────────────────────────────────────────────────────────────────────────────────────

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const MB = (bytes: number) => `${(bytes / 1e6).toFixed(2)} MB`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Test counts of one project: from a vitest JSON report if given, else `vitest list` (collects every file). */
function testCount(project: 'main' | 'soak', reports: readonly string[]): { tests: number; files: number } {
  for (const r of reports) {
    const data = JSON.parse(readFileSync(r, 'utf8')) as { numTotalTests: number; testResults: { name: string }[] };
    const files = data.testResults.map((t) => t.name);
    // a report of one project: its files are all in one set
    if (files.length && files.every((f) => isSoak(f) === (project === 'soak'))) return { tests: data.numTotalTests, files: files.length };
  }
  const out = execFileSync(join(ROOT, 'node_modules/.bin/vitest'), ['list', '--staticParse=false', '--json', '--project', project], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  const listed = JSON.parse(out) as { file: string }[];
  return { tests: listed.length, files: new Set(listed.map((t) => t.file)).size };
}

/** Whether a test file (absolute or relative) is in the soak set. */
function isSoak(file: string): boolean {
  const rel = file.startsWith(ROOT) ? file.slice(ROOT.length + 1) : file;
  return SOAK.some((re) => re.test(rel));
}
let SOAK: RegExp[] = [];

/** HTML pages of the built site. */
function sitePages(): number {
  const dist = join(ROOT, 'site/dist');
  if (!existsSync(join(dist, 'index.html'))) throw new Error('site/dist is not built: run npm run site:build (npm run main builds it)');
  const walk = (d: string): number => readdirSync(d).reduce((n, e) => (statSync(join(d, e)).isDirectory() ? n + walk(join(d, e)) : n + (e.endsWith('.html') ? 1 : 0)), 0);
  return walk(dist);
}

/** The validators-only install: the packed tarball installed alone into an empty project. */
function validatorsInstall(): { bytes: number; packages: number } {
  const work = mkdtempSync(join(tmpdir(), 'wopkit-figures-'));
  try {
    const p = PACKAGES.find((x) => x.name === VALIDATORS_PACKAGE)!;
    const packed = packOne(p, work);
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'figures', version: '0.0.0', private: true }));
    execFileSync('npm', ['install', '--prefer-offline', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed.filename)], { cwd: work, stdio: 'ignore' });
    const i = installed(join(work, 'node_modules'));
    return { bytes: i.bytes, packages: i.packages.length };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export interface Computed {
  readonly values: Map<string, string>;
  readonly blocks: Partial<Record<Block, string>>;
  readonly collected: Collected;
}

/** The packed size of every assembled package (needs `npm run build`), as the README states it. */
function packageFigures(values: Map<string, string>): void {
  for (const p of PACKAGES) {
    if (!existsSync(join(ROOT, 'dist', p.dir, 'package.json'))) throw new Error('dist/ is not built: run npm run build (npm run main builds it)');
    const packed = packOne(p);
    values.set(sizeFigureOf(p), `${kB(packed.size)} packed, ${MB(packed.unpackedSize)} unpacked, ${plural(packed.entryCount, 'file')}`);
  }
}

/** The documents under dist/ (package/file) that differ from what the package would ship from the repository now. */
const staleShippedDocuments = (): string[] =>
  PACKAGES.filter((p) => existsSync(join(packageDir(p), 'package.json'))).flatMap((p) =>
    Object.entries(shippedDocuments(p)).filter(([name, text]) => !existsSync(join(packageDir(p), name)) || readFileSync(join(packageDir(p), name), 'utf8') !== text).map(([name]) => `${p.name} ${name}`));

/** Compute the figures (`only: 'bench'`: the benchmark parts). */
export async function compute(o: { only?: 'bench'; testReports?: readonly string[] } = {}): Promise<Computed> {
  const collected = collect(RESULTS_DIR);
  if (collected.problems.length) throw new Error(`bench results: ${collected.problems.join('; ')}`);
  const values = new Map<string, string>();
  const records = Object.values(collected.records).filter((r) => r !== undefined);
  const loads = records.map((r) => r.loadAverage1m);
  values.set('bench.machine', `${[...new Set(records.map((r) => plural(r.cpus, 'core')))].join(' / ') || 'not recorded'}, Node ${[...new Set(records.map((r) => r.node.replace(/^v/, '').split('.').slice(0, 2).join('.')))].join(' / ') || 'not recorded'}`);
  values.set('bench.load', loads.length ? `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}` : 'not recorded');
  const validatorsRow = collected.rows.find((r) => r.source === 'package.json');
  values.set('import.validators', validatorsRow?.figure ?? 'not measured (npm run bench:package)');
  const blocks = { 'bench-report': table(collected), 'bench-inputs': inputs(collected), 'bench-misses': misses(collected) };
  if (o.only === 'bench') return { values, blocks, collected };

  const corpus = loadCorpus(ROOT);
  const files = (family: string) => corpus.schemas.filter((s) => s.family === family).length;
  values.set('corpus.openwop', String(files('openwop')));
  values.set('corpus.inquirium', String(files('inquirium')));
  values.set('corpus.examples', String(corpus.examples.length));
  const tops = JSON.parse(readFileSync(join(ROOT, 'generated/other-languages/top-level-types.json'), 'utf8')) as { target: string }[];
  const targets = new Set(tops.map((t) => t.target));
  values.set('other-languages.types', String(tops.length));
  values.set('other-languages.examples', String(corpus.examples.filter((e) => e.kind === 'valid' && targets.has(e.target)).length));

  const { SCENARIOS } = await import('../conformance/scenarios/index.ts');
  const { MUTATION_NAMES } = await import('../runtime/host/mutants.ts');
  values.set('conformance.scenarios', String(SCENARIOS.length));
  values.set('conformance.mutants', String(MUTATION_NAMES.length));

  packageFigures(values);
  const install = validatorsInstall();
  values.set('install.validators', `${MB(install.bytes)} in ${plural(install.packages, 'package')}`);

  SOAK = (await import('../test/soak.ts')).SOAK_FILES.map((g) => new RegExp(`^${g.replaceAll('.', '\\.').replaceAll('**/', '(.*/)?').replaceAll('*', '[^/]*')}$`));
  for (const project of ['main', 'soak'] as const) {
    const c = testCount(project, o.testReports ?? []);
    values.set(`tests.${project}`, `${plural(c.tests, 'test')} in ${plural(c.files, 'file')}`);
  }
  values.set('site.pages', String(sitePages()));
  return { values, blocks, collected };
}

const BENCH_README = (c: Computed) =>
  `# Benchmark results\n\nWritten by \`npm run bench:report\` (scripts/figures.ts) from the JSON files in this folder (format: bench/README.md).\n\n${c.blocks['bench-report']}\n\nWhat each file measured:\n\n${c.blocks['bench-inputs']}\n`;

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const only = args.includes('--only') ? (args[args.indexOf('--only') + 1] as 'bench') : undefined;
  const at = args.indexOf('--tests');
  const testReports = at >= 0 ? args.slice(at + 1).filter((a) => !a.startsWith('--')) : [];
  try {
    const computed = await compute({ ...(only ? { only } : {}), testReports });
    const readme = readFileSync(README, 'utf8');
    // --only bench computes the benchmark figures alone: the README's other figures are not its business then.
    const diffs = differences(readme, computed.values, computed.blocks).filter((d) => only === undefined || computed.values.has(d.figure) || (BLOCKS as readonly string[]).includes(d.figure));
    const benchReadme = join(RESULTS_DIR, 'README.md');
    if (check) {
      if (existsSync(benchReadme) && readFileSync(benchReadme, 'utf8') !== BENCH_README(computed)) diffs.push({ figure: 'bench/results/README.md', readme: '(differs)', measured: 'run npm run bench:report' });
      // A package size is measured on dist/: one built before README.md last changed ships another README.
      if (only === undefined) for (const name of staleShippedDocuments()) diffs.push({ figure: `${name} in dist/`, readme: '(not the repository\'s text now)', measured: 'run npm run figures (or npm run build): the package sizes were measured on what it ships' });
      for (const d of diffs) console.error(`figures: ${d.figure}: the README says ${JSON.stringify(d.readme.length > 120 ? `${d.readme.slice(0, 120)}…` : d.readme)}, measured ${JSON.stringify(d.measured.length > 120 ? `${d.measured.slice(0, 120)}…` : d.measured)}`);
      console.log(diffs.length ? `figures: ${diffs.length} figure(s) in README.md differ from what was measured; run npm run figures` : `figures: README.md states every figure as measured (${computed.values.size} figures, ${computed.collected.rows.length} benchmark rows)`);
      process.exitCode = diffs.length ? 1 : 0;
    } else {
      writeFileSync(README, render(readme, computed.values, computed.blocks));
      if (only === undefined) {
        // The packages ship README.md (and CHANGELOG.md…), so their sizes change with what was just written: ship the
        // documents as they are now and pack again, until the README stops changing. What a package ships leaves out
        // its own size (shippedReadme), so this settles: a second pass for wopkit, which states @wopkit/validators' size.
        for (let pass = 0; ; pass++) {
          for (const p of PACKAGES) shipDocuments(p);
          packageFigures(computed.values);
          const before = readFileSync(README, 'utf8');
          const after = render(before, computed.values, computed.blocks);
          if (after === before) break;
          if (pass === PACKAGES.length + 1) throw new Error('the package sizes did not settle: a shipped document states a size that depends on it');
          writeFileSync(README, after);
        }
      }
      writeFileSync(benchReadme, BENCH_README(computed));
      console.log(`figures: wrote README.md (${computed.values.size} figures, ${computed.collected.rows.length} benchmark rows) and bench/results/README.md`);
    }
  } catch (e) {
    console.error(`figures: ${(e as Error).message}`);
    process.exitCode = 2;
  }
}
