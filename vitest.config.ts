/**
 * Two sets of test files (test/soak.ts names the heavy ones): `npm test` runs the main set (`--project main`),
 * `npm run test:soak` the soak set (`--project soak`); CI runs both. Either way the run ends with one summary of every
 * skipped test and its reason (test/support/skip-summary.ts), collected from every worker through a log file.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { SOAK_FILES } from './test/soak.ts';
import { SKIP_LOG_ENV } from './test/support/skip-log.ts';

// The workers inherit it: each appends the reasons it skips for, the reporter reads them at the end.
process.env[SKIP_LOG_ENV] ??= join(tmpdir(), `wopkit-skips-${process.pid}.jsonl`);

const TESTS = 'test/**/*.test.ts';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', './test/support/skip-summary.ts'],
    projects: [
      { extends: true, test: { name: 'main', include: [TESTS], exclude: [...configDefaults.exclude, ...SOAK_FILES] } },
      { extends: true, test: { name: 'soak', include: [...SOAK_FILES] } },
    ],
  },
});
