/**
 * The consumer test (scripts/consumer-test.ts) from the test suite (the soak set: it packs, installs and compiles in
 * scratch projects): a validators-only install within its size budget and on the oldest Node it declares, the same for
 * the OpenWOP v2 validators (@wopkit/validators-v2 alone), a host's
 * project importing every subpath of wopkit under strict nodenext on Node 24, and every CLI subcommand from the
 * installed package, gen byte-identical to the repository's. Uses the existing dist/ (CI builds it in npm run main).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { NODE, ROOT, skipUnbuilt } from '../support/built-package.ts';
import { childEnv } from '../support/child-env.ts';

const skip = skipUnbuilt();

describe.skipIf(skip)('consumer projects', () => {
  it('validators only (v1, and v2 alone) within 1.8 MB and 3 packages; every subpath of wopkit; every CLI subcommand from the package', () => {
    const r = spawnSync(NODE, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'scripts/consumer-test.ts'), '--no-build'], { cwd: ROOT, env: childEnv(), encoding: 'utf8' });
    expect(r.stderr + r.stdout).toContain('consumer test: passed');
    expect(r.status).toBe(0);
  }, 600_000);
});
