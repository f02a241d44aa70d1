/**
 * What .vscode/settings.json must say, derived from the corpus: `json.schemas` maps the valid examples of every schema
 * file's root type, by folder, to that schema (workspace-relative url), and discovery documents
 * (`.well-known/openwop*.json`, `*.capabilities.json`) to the capabilities schema. `$defs` targets and invalid-example
 * wrappers are left out on purpose (docs/editor.md says why). Regenerate: print `editorSettings(root)` as JSON.
 */
import { loadCorpus } from '../../generator/load.ts';
import { byCodeUnits } from '../../generator/order.ts';

export interface JsonSchemaMapping {
  fileMatch: string[];
  url: string;
}

export function editorSettings(root: string): { 'json.schemas': JsonSchemaMapping[] } {
  const corpus = loadCorpus(root);
  const capabilities = corpus.schemas.find((s) => s.family === 'openwop' && s.stem === 'capabilities');
  const roots = corpus.schemas
    .filter((s) => corpus.examples.some((e) => e.family === s.family && e.target === s.stem && e.kind === 'valid'))
    .sort((a, b) => byCodeUnits(a.path, b.path))
    .map((s): JsonSchemaMapping => ({ fileMatch: [`/schemas/${s.family}/v1/examples/${s.stem}/valid/*.json`], url: `./${s.path}` }));
  return {
    'json.schemas': [
      ...(capabilities ? [{ fileMatch: ['**/.well-known/openwop*.json', '*.capabilities.json'], url: `./${capabilities.path}` }] : []),
      ...roots,
    ],
  };
}
