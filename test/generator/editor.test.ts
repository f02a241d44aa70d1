/**
 * Editor support: .vscode/settings.json maps discovery documents and every root type's valid examples to their schema
 * (workspace-relative urls that exist), and every example names its target's `$id` in `$schema` (lint rule
 * example-schema, checked on the real corpus by test/corpus).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.ts';
import { editorSettings } from './editor-settings.ts';

describe('.vscode/settings.json', () => {
  const settings = JSON.parse(readFileSync(join(REPO, '.vscode/settings.json'), 'utf8'));

  it('is what the corpus implies (print editorSettings(root) from test/generator/editor-settings.ts to refresh it)', () => {
    expect(settings).toEqual(editorSettings(REPO));
  });

  it('uses workspace-relative urls that exist, and maps discovery documents to the capabilities schema', () => {
    for (const m of settings['json.schemas'] as { url: string; fileMatch: string[] }[]) {
      expect(m.url).toMatch(/^\.\/schemas\//);
      expect(existsSync(join(REPO, m.url)), m.url).toBe(true);
    }
    expect(settings['json.schemas'][0]).toEqual({ fileMatch: ['**/.well-known/openwop*.json', '*.capabilities.json'], url: './schemas/openwop/v1/capabilities.schema.json' });
  });
});
