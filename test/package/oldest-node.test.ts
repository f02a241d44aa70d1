/**
 * @wopkit/validators on the oldest Node it declares (20), in the main test set (the packed-tarball consumer test runs
 * in the soak set): the assembled package imported by name — the barrel, a `./validate/<Title>` subpath, guards and
 * run events — with the Standard Schema interface used as a tRPC or Hono route would. Skipped with the reason when
 * dist/ is not built or no Node 20 is found (NODE_20, else the system node); under WOPKIT_REQUIRE_TOOLCHAINS=1 a missing
 * Node 20 fails instead.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PACKAGES, packageDir, skipUnbuilt } from '../support/built-package.ts';
import { childEnv } from '../support/child-env.ts';
import { noteSkip, toolchainsRequired } from '../support/toolchains.ts';

const oldest = PACKAGES.find((p) => p.name === '@wopkit/validators')!;
const node = [process.env[`NODE_${oldest.node}`], '/usr/bin/node', '/usr/local/bin/node'].find(
  (c): c is string => c !== undefined && existsSync(c) && execFileSync(c, ['--version'], { encoding: 'utf8' }).startsWith(`v${oldest.node}.`),
);
const unbuilt = skipUnbuilt();
if (!unbuilt && node === undefined && !toolchainsRequired()) noteSkip(`no Node ${oldest.node} (set NODE_${oldest.node}) to import @wopkit/validators on`);

const SCRIPT = `
const { validateMemoryEntry, validatorIndex } = await import('@wopkit/validators');
const { validateMemoryEntry: one } = await import('@wopkit/validators/validate/MemoryEntry');
const { isMemoryEntry } = await import('@wopkit/validators/guards');
const { validateRunEvent } = await import('@wopkit/validators/run-events');
const entry = { id: 'e1', content: 'c', tags: ['a', ''], createdAt: 'not a date' };
const issues = one['~standard'].validate(entry).issues;
process.stdout.write(JSON.stringify({
  node: process.versions.node,
  same: one === validateMemoryEntry,
  count: Object.keys(validatorIndex).length,
  guard: isMemoryEntry({ ...entry, tags: [], createdAt: '2026-01-01T00:00:00Z' }),
  standard: one['~standard'].version + '/' + one['~standard'].vendor,
  paths: issues.map((i) => i.path),
  unknownEvent: validateRunEvent({ eventId: 'e', runId: 'r', type: 'vendor.x', payload: {}, timestamp: '2026-01-01T00:00:00Z', sequence: 0 }).known,
}));
`;

describe.skipIf(unbuilt || (node === undefined && !toolchainsRequired()))(`@wopkit/validators on Node ${oldest.node}`, () => {
  it('imports the barrel, a ./validate/* subpath, guards and run events by name; ~standard works', () => {
    if (node === undefined) throw new Error(`no Node ${oldest.node} found (set NODE_${oldest.node})`);
    const out = JSON.parse(execFileSync(node, ['--input-type=module', '-e', SCRIPT], { cwd: packageDir(oldest), env: childEnv(), encoding: 'utf8' })) as Record<string, unknown>;
    expect(out).toMatchObject({ same: true, guard: true, standard: '1/wopkit', paths: [['tags', 1], ['createdAt']], unknownEvent: false });
    expect(String(out['node']).startsWith(`${oldest.node}.`)).toBe(true);
    expect(out['count']).toBeGreaterThan(100);
  });
});
