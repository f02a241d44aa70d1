/**
 * Editor support: `gen` owns .vscode/settings.json for a corpus that asks for it (`"wopkit": {"editorSettings": true}`
 * in the package.json beside schemas/, as this repository does) and `gen --check` covers it; a downstream corpus that
 * does not ask keeps its own file untouched. The settings map discovery documents and every root type's valid examples
 * to their schema with workspace-relative urls that exist; every example names its target's `$id` in `$schema` (lint
 * rule example-schema, checked on the real corpus by test/corpus).
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, run, scratchFixture } from './helpers.ts';
import { editorSettings, EDITOR_SETTINGS } from '../../generator/emit/editor-settings.ts';
import { corpusConfig } from '../../generator/corpus-config.ts';
import { loadCorpus } from '../../generator/load.ts';
import { resolveCorpus } from '../../generator/resolve.ts';

describe('.vscode/settings.json of this repository', () => {
  const settings = JSON.parse(readFileSync(join(REPO, EDITOR_SETTINGS), 'utf8'));

  it('is on for this corpus, and the file is what the corpus implies', () => {
    expect(corpusConfig(REPO).editorSettings).toBe(true);
    expect(settings).toEqual(editorSettings(resolveCorpus(loadCorpus(REPO))));
  });

  it('uses workspace-relative urls that exist, and maps discovery documents to the capabilities schema', () => {
    for (const m of settings['json.schemas'] as { url: string; fileMatch: string[] }[]) {
      expect(m.url).toMatch(/^\.\/schemas\//);
      expect(existsSync(join(REPO, m.url)), m.url).toBe(true);
    }
    expect(settings['json.schemas'][0]).toEqual({ fileMatch: ['**/.well-known/openwop*.json', '*.capabilities.json'], url: './schemas/openwop/v1/capabilities.schema.json' });
  });
});

describe('gen and the editor settings of a scratch corpus', () => {
  let cleanup = () => {};
  afterEach(() => cleanup());
  const scratch = (manifest?: object) => {
    const s = scratchFixture();
    cleanup = s.cleanup;
    if (manifest) writeFileSync(join(s.root, 'package.json'), JSON.stringify(manifest));
    return s.root;
  };

  it('off by default (a downstream corpus): gen leaves an existing .vscode/settings.json alone and gen --check ignores it', async () => {
    const root = scratch({ name: 'downstream' });
    mkdirSync(join(root, '.vscode'));
    writeFileSync(join(root, EDITOR_SETTINGS), '{ "editor.tabSize": 8 }\n');
    expect((await run(['gen', '--root', root])).code).toBe(0);
    expect(readFileSync(join(root, EDITOR_SETTINGS), 'utf8')).toBe('{ "editor.tabSize": 8 }\n');
    const check = await run(['gen', '--check', '--root', root, '--format', 'json', '--skip', 'other-languages']);
    expect(JSON.parse(check.out)).toMatchObject({ ok: true, stale: [], missing: [], extra: [] });
  });

  it('on: gen writes it, a schema added to the corpus shows in it, and gen --check reports it stale when edited by hand', async () => {
    const root = scratch({ name: 'spec', wopkit: { editorSettings: true } });
    expect((await run(['gen', '--root', root])).code).toBe(0);
    const written = readFileSync(join(root, EDITOR_SETTINGS), 'utf8');
    expect(JSON.parse(written)['json.schemas'].map((m: { url: string }) => m.url)).toContain('./schemas/demo/v1/config.schema.json');
    writeFileSync(join(root, EDITOR_SETTINGS), written.replace('config.schema.json', 'confg.schema.json'));
    const check = await run(['gen', '--check', '--root', root, '--format', 'json', '--skip', 'other-languages']);
    expect(check.code).toBe(1);
    expect(JSON.parse(check.out).stale).toEqual([EDITOR_SETTINGS]);
    expect((await run(['gen', '--root', root])).code).toBe(0);
    expect(readFileSync(join(root, EDITOR_SETTINGS), 'utf8')).toBe(written);
  });

  it('a malformed setting is one message naming package.json and the pointer, exit 2', async () => {
    const root = scratch({ name: 'spec', wopkit: { editorSetings: true } });
    const r = await run(['gen', '--root', root]);
    expect(r.code).toBe(2);
    expect(r.err).toBe('wopkit: error: package.json#/wopkit/editorSetings: unknown generator setting "editorSetings" (known: idBase, families, typeName, output, editorSettings, openapi)');
    const wrongType = scratch({ wopkit: { editorSettings: 'yes' } });
    expect((await run(['gen', '--root', wrongType])).err).toBe('wopkit: error: package.json#/wopkit/editorSettings: "editorSettings" must be true or false, not "yes"');
  });
});
