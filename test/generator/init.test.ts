/**
 * `wopkit init`: what it writes is a corpus every command accepts as created (the full run is the acceptance test in
 * downstream-corpus.test.ts); it keeps an existing package.json, and refuses a folder that is a corpus already.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from './helpers.ts';

describe('wopkit init', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const fresh = () => (dir = mkdtempSync(join(tmpdir(), 'init-')));

  it('a new folder: settings named after it, the schema, examples, README and baseline; lint, check-examples and compat pass', async () => {
    const root = join(fresh(), 'Acme Notes');
    const r = await run(['init', root, '--format', 'json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out).toMatchObject({ ok: true, family: 'acme-notes', idBase: 'https://example.org/acme-notes/schemas/' });
    expect(out.written).toEqual(expect.arrayContaining(['package.json', 'README.md', 'schemas/acme-notes/v1/note.schema.json', 'compat/baseline/0.1.0/schemas/acme-notes/v1/note.schema.json']));
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).wopkit).toEqual({ idBase: 'https://example.org/acme-notes/schemas/', families: { 'acme-notes': ['v1'] }, output: { name: 'acme-notes' } });
    for (const command of ['lint', 'check-examples', 'compat']) expect((await run([command, '--root', root])).code, command).toBe(0);
  });

  it('adds the settings to an existing package.json and keeps the rest of it', async () => {
    const root = fresh();
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: '@acme/spec', version: '2.0.0', scripts: { test: 'x' } }));
    expect((await run(['init', '--root', root, '--family', 'acme'])).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@acme/spec', version: '2.0.0', scripts: { test: 'x' }, wopkit: { families: { acme: ['v1'] } } });
  });

  it('refuses a corpus that exists, settings that exist, a bad family or base: exit 2, one message', async () => {
    const root = fresh();
    mkdirSync(join(root, 'schemas'));
    const exists = await run(['init', '--root', root]);
    expect([exists.code, exists.err]).toEqual([2, expect.stringMatching(/schemas\/ exists already/)]);
    rmSync(join(root, 'schemas'), { recursive: true });
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'x', wopkit: {} }));
    expect((await run(['init', '--root', root])).err).toMatch(/package\.json#\/wopkit: the corpus settings exist already/);
    rmSync(join(root, 'package.json'));
    expect((await run(['init', '--root', root, '--family', 'Acme'])).err).toMatch(/--family must be lowercase words/);
    expect((await run(['init', '--root', root, '--id-base', 'https://acme.example/s'])).err).toMatch(/"idBase" must be an absolute/);
    expect((await run(['init', 'a', 'b', '--root', root])).code).toBe(2);
  });
});
