/**
 * The consumer test (scripts/consumer-test.ts) from the test suite: the packed tarball installed into a project
 * outside the repository, a strict nodenext TypeScript file importing every subpath compiled and run on Node 24,
 * and the CLI through npx. Uses the existing dist/ (CI builds it in `npm run main` and also runs
 * `npm run test:consumer`, which builds first).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { NODE, ROOT, skipUnbuilt } from '../support/built-package.ts';
import { childEnv } from '../support/child-env.ts';

const skip = skipUnbuilt();

describe.skipIf(skip)('consumer project', () => {
  it('installs the tarball, compiles every subpath import under strict nodenext, runs it on Node 24 and runs the CLI', () => {
    const r = spawnSync(NODE, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'scripts/consumer-test.ts'), '--no-build'], { cwd: ROOT, env: childEnv(), encoding: 'utf8' });
    expect(r.stderr + r.stdout).toContain('consumer test: passed');
    expect(r.status).toBe(0);
  }, 300_000);
});
