/**
 * The benchmarks that drive the runtime's library API directly run to the end at a tiny scale and write a result the
 * report can read. No test ran them before, and two had broken without anyone noticing when the runtime changed
 * (a stale read not re-run, a cancel not awaited). What they measure is not checked here: at this scale a ratio
 * means nothing, so a run whose checks fail (exit 1 with its `FAIL` lines) still passes; a crash does not.
 * Each run writes into a temporary folder (BENCH_RESULTS_DIR), never into bench/results.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RESULTS_DIR_ENV, UNDESCRIBED_INPUT, type BenchRow, type RunRecord } from '../../bench/summary.ts';

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const out = mkdtempSync(join(tmpdir(), 'wopkit-bench-smoke-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Each benchmark, the file it writes, and the environment that makes it tiny. */
const BENCHMARKS = [
  { script: 'bench/security/seed-amplification.bench.ts', result: 'seed-amplification', env: { BENCH_SCALE: '200' }, node: ['--expose-gc'] },
  { script: 'bench/security/commitments.bench.ts', result: 'commitments', env: { BENCH_MANY: '40' } },
  { script: 'bench/security/tenant-state.bench.ts', result: 'security-tenant-state', env: { BENCH_N: '20' } },
  { script: 'bench/runtime/scheduler.bench.ts', result: 'scheduler', env: { BENCH_N: '50' } },
] as const;

describe('benchmarks run at a tiny scale (smoke)', () => {
  for (const b of BENCHMARKS) {
    it(`${b.script} runs to the end and writes ${b.result}.json with a run record and summary rows`, () => {
      const r = spawnSync(process.execPath, [tsx, ...('node' in b ? b.node : []), b.script], {
        env: { ...process.env, ...b.env, [RESULTS_DIR_ENV]: out },
        encoding: 'utf8',
        timeout: 120_000,
      });
      const failedChecks = /^FAIL /m.test(r.stdout);
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: failedChecks ? 1 : 0, stderr: expect.not.stringMatching(/Error|at .+:\d+:\d+/) as unknown as string });
      const file = join(out, `${b.result}.json`);
      expect(existsSync(file)).toBe(true);
      const written = JSON.parse(readFileSync(file, 'utf8')) as { recorded: RunRecord; summary: BenchRow | BenchRow[] };
      expect(written.recorded.input).not.toBe(UNDESCRIBED_INPUT);
      const rows = Array.isArray(written.summary) ? written.summary : [written.summary];
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row).toMatchObject({ row: expect.any(String), ratio: expect.any(Number), peer: expect.any(String), goal: expect.any(String) });
    }, 150_000);
  }
});
