/**
 * The compat gate on temporary copies of the repository's corpus: removing the documented `expiresAt` from MemoryEntry
 * fails `wopkit compat` (the step `npm run main` runs) with a message naming the type, the pointer, the direction and
 * the RFC to update; an RFC saying `compatibility: breaking` or a CHANGELOG entry under a new major version
 * acknowledges it. Also: the baseline from a release tag (git archive), --base as a ref or a directory, the formats.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO, run } from '../helpers.ts';

const MEMORY_ENTRY = 'schemas/openwop/v1/memory-entry.schema.json';

/** A copy of what compat reads: schemas/, RFCs/, CHANGELOG.md and the committed baseline snapshot. */
function copyRepo(): string {
  const root = mkdtempSync(join(tmpdir(), 'wopkit-compat-'));
  for (const p of ['schemas', 'RFCs', 'CHANGELOG.md', 'compat']) cpSync(join(REPO, p), join(root, p), { recursive: true });
  return root;
}

/**
 * The copy's baseline snapshot made equal to its schemas, so a test sees only the change it makes (the repository's
 * own changes since its baseline are the first test's business).
 */
function baselineIsNow(root: string): void {
  for (const version of readdirSync(join(root, 'compat/baseline'))) {
    rmSync(join(root, 'compat/baseline', version, 'schemas'), { recursive: true, force: true });
    cpSync(join(root, 'schemas'), join(root, 'compat/baseline', version, 'schemas'), { recursive: true });
  }
}
function editJson(root: string, path: string, edit: (s: Record<string, any>) => void): void {
  const s = JSON.parse(readFileSync(join(root, path), 'utf8'));
  edit(s);
  writeFileSync(join(root, path), `${JSON.stringify(s, null, 2)}\n`);
}
const removeExpiresAt = (root: string) => {
  baselineIsNow(root);
  editJson(root, MEMORY_ENTRY, (s) => delete s.properties.expiresAt);
};

describe('the compat gate', () => {
  let root = '';
  beforeEach(() => {
    root = copyRepo();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('npm run main runs compat', () => {
    const scripts = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts['main']).toMatch(/generator\/cli\.ts compat( |$)/);
  });

  it('the repository itself passes the gate against its committed baseline', async () => {
    const r = await run(['compat', '--root', root]);
    expect(r.code, r.out).toBe(0);
  });

  it('removing expiresAt from MemoryEntry fails, naming the type, the pointer, the direction and the RFC to update', async () => {
    removeExpiresAt(root);
    const r = await run(['compat', '--root', root]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      'MemoryEntry (schemas/openwop/v1/memory-entry.schema.json#/properties/expiresAt): property "expiresAt" removed is breaking for a server-emitted (response) shape',
    );
    expect(r.out).toContain('set "compatibility: breaking" in the front matter of RFCs/AM-1.1-agent-memory.md (RFC AM-1.1)');
    expect(r.out).toContain('add a CHANGELOG.md entry under ## [0.3.0] naming MemoryEntry and expiresAt');
    const json = JSON.parse((await run(['compat', '--root', root, '--format', 'json'])).out);
    expect(json).toMatchObject({ ok: false, base: { label: 'compat/baseline/0.2.0', version: '0.2.0' }, summary: { breaking: 1, unacknowledged: 1 } });
    expect(json.changes).toEqual([
      expect.objectContaining({ file: MEMORY_ENTRY, pointer: '/properties/expiresAt', kind: 'property-removed', type: 'MemoryEntry', direction: 'response', classification: 'breaking', rfcs: [expect.objectContaining({ number: 'AM-1.1' })] }),
    ]);
    const md = (await run(['compat', '--root', root, '--format', 'markdown'])).out;
    expect(md).toMatch(/^### Schema compatibility since `compat\/baseline\/0\.2\.0`/);
    expect(md).toContain('| **breaking** | `MemoryEntry` | `schemas/openwop/v1/memory-entry.schema.json#/properties/expiresAt` | response | property "expiresAt" removed | not acknowledged |');
  });

  it('an RFC whose affects cover the schema saying compatibility: breaking acknowledges it', async () => {
    removeExpiresAt(root);
    const rfc = join(root, 'RFCs/AM-1.1-agent-memory.md');
    writeFileSync(rfc, readFileSync(rfc, 'utf8').replace(/^compatibility: additive$/m, 'compatibility: breaking'));
    const r = await run(['compat', '--root', root]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/property "expiresAt" removed \[acknowledged: RFC AM-1\.1/);
    // An RFC that does not cover memory-entry does not acknowledge it.
    writeFileSync(rfc, readFileSync(rfc, 'utf8').replace(/^compatibility: breaking$/m, 'compatibility: additive'));
    const other = join(root, 'RFCs/0068-memory-consolidation-and-commitments.md');
    writeFileSync(other, readFileSync(other, 'utf8').replace(/^compatibility: additive$/m, 'compatibility: breaking'));
    expect((await run(['compat', '--root', root])).code).toBe(1);
  });

  it('a CHANGELOG entry under a version that may break (a new major; under major 0 a new minor) naming the type and the field acknowledges it; one under Unreleased or a patch does not', async () => {
    removeExpiresAt(root);
    const changelog = join(root, 'CHANGELOG.md');
    const original = readFileSync(changelog, 'utf8');
    const entry = (heading: string) => original.replace('## [Unreleased]', `${heading}\n\n### Removed\n- \`MemoryEntry.expiresAt\`: TTL is a host setting now.\n\n## [Unreleased]`);
    writeFileSync(changelog, original.replace('## [Unreleased]', '## [Unreleased]\n\n### Removed\n- `MemoryEntry.expiresAt`: TTL is a host setting now.'));
    expect((await run(['compat', '--root', root])).code).toBe(1);
    writeFileSync(changelog, entry('## [0.2.1] - unreleased'));
    expect((await run(['compat', '--root', root])).code, 'a patch of the baseline may not break').toBe(1);
    writeFileSync(changelog, entry('## [0.3.0] - unreleased'));
    const minor = await run(['compat', '--root', root]);
    expect(minor.code, minor.out).toBe(0);
    expect(minor.out).toMatch(/\[acknowledged: CHANGELOG\.md 0\.3\.0\]/);
    writeFileSync(changelog, original.replace('## [Unreleased]', '## [1.0.0] - unreleased\n\n### Removed\n- `MemoryEntry.expiresAt`: TTL is\n  a host setting now.\n\n## [Unreleased]'));
    const r = await run(['compat', '--root', root]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/\[acknowledged: CHANGELOG\.md 1\.0\.0\]/);
  });

  it('an additive change passes: an optional field on an open server-emitted shape', async () => {
    baselineIsNow(root);
    editJson(root, MEMORY_ENTRY, (s) => (s.properties.pinned = { description: 'Whether the entry is pinned.', type: 'boolean' }));
    const r = await run(['compat', '--root', root, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).changes).toEqual([expect.objectContaining({ kind: 'property-added', classification: 'additive', direction: 'response' })]);
  });

  it('the baseline is the last v* release tag when there is one (read with git archive); --base takes a ref or a directory', async () => {
    const git = (...args: string[]) => {
      const g = spawnSync('git', ['-C', root, ...args], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
      expect(g.status, g.stderr).toBe(0);
      return g.stdout.trim();
    };
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'release');
    git('tag', 'v0.3.0');
    removeExpiresAt(root);
    const byTag = await run(['compat', '--root', root, '--format', 'json']);
    expect(byTag.code).toBe(1);
    expect(JSON.parse(byTag.out).base).toEqual({ label: 'v0.3.0', version: '0.3.0' });
    expect((await run(['compat', '--root', root, '--base', 'HEAD'])).code).toBe(1);
    expect((await run(['compat', '--root', root, '--base', join(root, 'compat/baseline/0.2.0')])).code).toBe(1);
    const bad = await run(['compat', '--root', root, '--base', 'no-such-ref']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--base "no-such-ref" is neither a directory nor a git ref/);
  });

  it('--snapshot writes the current schemas as a committed baseline, which then is the default', async () => {
    removeExpiresAt(root);
    expect((await run(['compat', '--root', root])).code).toBe(1);
    const w = await run(['compat', '--root', root, '--snapshot', '0.3.0']);
    expect(w.code).toBe(0);
    // The schema folders (<family>/v<N>/), not the corpus's other data (the major tables under schemas/openwop/majors/).
    const schemaFiles = readdirSync(join(root, 'schemas'), { recursive: true }).filter((p) => /^[^/]+\/v\d+\/[^/]+\.schema\.json$/.test(String(p).split('\\').join('/'))).length;
    expect(w.out).toBe(`compat: wrote ${schemaFiles} schema files to compat/baseline/0.3.0/`);
    const r = await run(['compat', '--root', root, '--format', 'json']);
    expect(JSON.parse(r.out)).toMatchObject({ ok: true, base: { label: 'compat/baseline/0.3.0', version: '0.3.0' }, changes: [] });
    expect((await run(['compat', '--root', root, '--snapshot', 'next'])).code).toBe(2);
  });
});
