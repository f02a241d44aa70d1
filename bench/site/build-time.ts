/**
 * Site build time per page, this tree against a named earlier commit (ea8bc48, the site before issue 25) built in the
 * same run on the same machine: the earlier commit is checked out in a temporary git worktree with its own install
 * (`npm ci`), then both sites are built in turns (ROUNDS each, alternating, so a change of machine load hits both
 * alike) with each tree's own `npm run site:build`, and the fastest build of each counts. The figure is seconds per
 * built page (HTML files of site/dist); the row's ratio is the earlier commit's seconds per page ÷ ours (above 1:
 * faster; the goal, ≥ 0.8×, is "at most 1.25× the earlier commit's time per page").
 *
 *   npm run bench:site   → bench/results/site.json
 *   SITE_BENCH_BASE=<ref> (default ea8bc48) · SITE_BENCH_ROUNDS=<n> (default 2)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { round, writeResult, type BenchRow } from '../summary.ts';

const REPO = resolve(import.meta.dirname, '../..');
const BASE = process.env.SITE_BENCH_BASE ?? 'ea8bc48';
const ROUNDS = Number(process.env.SITE_BENCH_ROUNDS ?? 2);
/** Goal: at most 1.25× the earlier commit's seconds per page, i.e. a speed ratio of at least 1 / 1.25. */
const GOAL = '≥ 0.8× (seconds per page ≤ 1.25× the earlier commit’s)';

const git = (...args: string[]): string => execFileSync('git', args, { cwd: REPO, encoding: 'utf8' }).trim();

/** What a built site holds: HTML pages in all, and how many of them are schema and API pages. */
function pagesOf(root: string): { pages: number; schemaPages: number; apiPages: number } {
  const dist = join(root, 'site/dist');
  const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html')).map((f) => f.split('\\').join('/'));
  return { pages: files.length, schemaPages: files.filter((f) => f.startsWith('schemas/') && f.split('/').length === 4).length, apiPages: files.filter((f) => f.startsWith('api/')).length };
}

/** Build one tree's site with its own toolchain; wall seconds. */
function build(root: string): number {
  rmSync(join(root, 'site/dist'), { recursive: true, force: true });
  const started = performance.now();
  execFileSync('npm', ['run', '--silent', 'site:build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  return (performance.now() - started) / 1000;
}

function install(root: string): void {
  try {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch {
    // A lockfile the partial registry mirror cannot satisfy with `npm ci` (TOOLCHAIN.md): install from it instead.
    execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
}

const baseCommit = git('rev-parse', BASE);
const headCommit = git('rev-parse', 'HEAD');
const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
const worktree = mkdtempSync(join(tmpdir(), 'wopkit-site-base-'));
const loadBefore = loadavg().map((x) => round(x));
const started = performance.now();
try {
  git('worktree', 'add', '--detach', worktree, baseCommit);
  process.stderr.write(`bench:site: installing ${BASE} (${baseCommit.slice(0, 12)}) in ${worktree}\n`);
  install(worktree);
  const runs: { base: number[]; current: number[] } = { base: [], current: [] };
  for (let i = 0; i < ROUNDS; i++) {
    runs.base.push(round(build(worktree)));
    runs.current.push(round(build(REPO)));
    process.stderr.write(`bench:site: round ${i + 1}: ${BASE} ${runs.base.at(-1)} s, this tree ${runs.current.at(-1)} s\n`);
  }
  const basePages = pagesOf(worktree);
  const currentPages = pagesOf(REPO);
  const side = (runs: number[], pages: { pages: number }) => ({ seconds: runs, fastestSeconds: Math.min(...runs), secondsPerPage: Math.min(...runs) / pages.pages });
  const base = { commit: baseCommit, ...basePages, ...side(runs.base, basePages) };
  const current = { commit: headCommit, uncommittedChanges: dirty, ...side(runs.current, currentPages), ...currentPages };
  const ratio = round(base.secondsPerPage / current.secondsPerPage);
  const summary: BenchRow = {
    row: `site build, seconds per page: this tree vs ${BASE} built in the same run`,
    ratio,
    peer: `${BASE} (${basePages.pages} pages in ${round(base.fastestSeconds)} s: ${round(base.secondsPerPage * 1000, 1)} ms/page)`,
    goal: GOAL,
    figure: `${currentPages.pages} pages in ${round(current.fastestSeconds)} s: ${round(current.secondsPerPage * 1000, 1)} ms/page`,
  };
  const path = writeResult('site', {
    benchmark: 'site-build',
    node: process.version,
    summary,
    base: { ...base, secondsPerPage: round(base.secondsPerPage, 4) },
    current: { ...current, secondsPerPage: round(current.secondsPerPage, 4) },
    loadAverage: { before: loadBefore, after: loadavg().map((x) => round(x)) },
    wallSeconds: round((performance.now() - started) / 1000, 1),
  }, `each tree's own corpus, RFCs, runtime and package exports (what its site renders: schema, RFC, spec, API and data pages); ${ROUNDS} alternating builds each, the fastest counts`);
  console.table([{ tree: BASE, ...basePages, fastest: base.fastestSeconds, msPerPage: round(base.secondsPerPage * 1000, 1) }, { tree: 'this tree', ...currentPages, fastest: current.fastestSeconds, msPerPage: round(current.secondsPerPage * 1000, 1) }]);
  console.log(`ratio ${ratio} (goal ${GOAL}) → ${relative(process.cwd(), path)}`);
} finally {
  if (existsSync(worktree)) git('worktree', 'remove', '--force', worktree);
  git('worktree', 'prune');
}
