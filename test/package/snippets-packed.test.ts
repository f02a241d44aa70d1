/**
 * Every `ts`, `js` and `sh` block of README.md and docs/*.md against the packed tarballs (scripts/snippets.ts; the soak
 * set: it packs and installs in a scratch project): `ts` compiled with strict nodenext TypeScript and run on Node 24,
 * `js` run on Node 24, `sh` run in a scratch copy of the repository, opt-outs counted with their reasons. Uses the
 * existing dist/ (CI builds it in npm run main).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { NODE, ROOT, skipUnbuilt } from '../support/built-package.ts';
import { childEnv } from '../support/child-env.ts';

const skip = skipUnbuilt();

describe.skipIf(skip)('the documents\' code blocks, from the packed tarballs', () => {
  it('every block not opted out compiles and runs; the run prints how many were executed, compiled and opted out', () => {
    const r = spawnSync(NODE, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'scripts/snippets.ts'), '--no-build'], { cwd: ROOT, env: childEnv(), encoding: 'utf8' });
    const out = r.stdout + r.stderr;
    expect(out).toMatch(/^snippets: [1-9]\d* executed, \d+ compiled only, \d+ opted out$/m);
    expect(out).toContain('snippets: passed');
    expect(r.status).toBe(0);
  }, 900_000);
});
