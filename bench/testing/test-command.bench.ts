/**
 * The README's test command against a baseline commit's, one after the other on this machine (issue 26: ≤ 0.6× the
 * wall time of ea8bc48's `npm test`). Each commit is cloned into a scratch folder with a hard-linked copy of this
 * checkout's node_modules (the same installed packages), prepared as the README says (`npm run main`: generate, build
 * the packages, build the site), and then its `npm test` is timed (its vitest JSON report gives the counts). The
 * heavy set of this commit (`npm run test:soak`) is timed too, for the record; it is not part of the ratio.
 * This commit is what is committed (a clone does not see uncommitted changes).
 * Run: npm run bench:test-command [-- --base <commit>]   (default base ea8bc48; takes a while: two main jobs, two suites)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { round, writeResult, type BenchRow } from '../summary.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
const BASE = args.includes('--base') ? args[args.indexOf('--base') + 1]! : 'ea8bc48';
const scratch = mkdtempSync(join(tmpdir(), 'wopkit-test-command-'));
const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', ASTRO_TELEMETRY_DISABLED: '1' };
delete env['VITEST'];

/** A clone of the repository at `commit` (HEAD: the working tree as committed), ready as the README says. */
function prepare(name: string, commit: string): string {
  const dir = join(scratch, name);
  execFileSync('git', ['clone', '--quiet', '--no-checkout', ROOT, dir]);
  execFileSync('git', ['checkout', '--quiet', commit], { cwd: dir });
  execFileSync('cp', ['-al', join(ROOT, 'node_modules'), join(dir, 'node_modules')]);
  const main = spawnSync('npm', ['run', 'main'], { cwd: dir, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (main.status !== 0) throw new Error(`npm run main failed at ${commit}: ${main.stderr.slice(-2000)}`);
  return dir;
}

interface Timed {
  readonly wallMs: number;
  readonly status: number | null;
  readonly loadBefore: number;
  readonly loadAfter: number;
  readonly tests: { readonly passed: number; readonly failed: number; readonly skipped: number; readonly files: number };
}

/** Time an npm script (with a JSON report next to its usual output). */
function time(dir: string, script: string): Timed {
  const report = join(dir, `.tmp-${script.replace(':', '-')}.json`);
  const loadBefore = loadavg()[0]!;
  const t0 = performance.now();
  const r = spawnSync('npm', ['run', script, '--', '--reporter=default', '--reporter=json', `--outputFile=${report}`], { cwd: dir, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const wallMs = performance.now() - t0;
  const loadAfter = loadavg()[0]!;
  const data = existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number; testResults: unknown[] }) : undefined;
  return {
    wallMs,
    status: r.status,
    loadBefore: round(loadBefore),
    loadAfter: round(loadAfter),
    tests: data ? { passed: data.numPassedTests, failed: data.numFailedTests, skipped: data.numPendingTests + data.numTodoTests, files: data.testResults.length } : { passed: 0, failed: 0, skipped: 0, files: 0 },
  };
}

try {
  const base = prepare('base', BASE);
  const headSha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const head = prepare('head', headSha);
  const baseTest = time(base, 'test');
  const headTest = time(head, 'test');
  const headSoak = time(head, 'test:soak');
  const ratio = headTest.wallMs / baseTest.wallMs;
  const min = (ms: number) => `${(ms / 60000).toFixed(1)} min`;
  const summary: BenchRow = {
    row: "the README's test command (npm test), this commit vs ea8bc48, one after the other",
    ratio: round(ratio),
    peer: `npm test at ${BASE} (everything, crash campaigns included): ${min(baseTest.wallMs)}, ${baseTest.tests.passed + baseTest.tests.failed + baseTest.tests.skipped} tests`,
    goal: '≤ 0.6× (a cost ratio: at most 0.6× the baseline\'s wall time)',
    figure: `${min(headTest.wallMs)}, ${headTest.tests.passed + headTest.tests.failed + headTest.tests.skipped} tests (the heavy set, npm run test:soak: ${min(headSoak.wallMs)})`,
  };
  const path = writeResult('test-command', { benchmark: 'test-command', base: { commit: BASE, test: baseTest }, head: { commit: headSha, test: headTest, soak: headSoak }, summary }, `npm test at ${BASE} and at ${headSha.slice(0, 12)}, each after npm run main in a fresh clone with the same node_modules (load average ${baseTest.loadBefore}→${baseTest.loadAfter} and ${headTest.loadBefore}→${headTest.loadAfter} over the two runs)`);
  console.log(`${summary.row}: ${summary.figure} vs ${summary.peer}: ${summary.ratio}×`);
  console.log(`written ${path}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
