/**
 * Emitter: `.vscode/settings.json`, which maps documents to their schemas for editors (docs/editor.md): discovery
 * documents (`.well-known/openwop*.json`, `*.capabilities.json`) to the capabilities schema when the corpus has one, and
 * the valid examples of every schema file's root type, by folder, to that schema (workspace-relative urls). `$defs`
 * targets and invalid-example wrappers are left out on purpose (docs/editor.md says why).
 *
 * It is on only for a corpus that asks for it (`"wopkit": { "editorSettings": true }` in the package.json beside
 * schemas/, as this repository does): the file belongs to the whole workspace, and a downstream corpus may keep its own.
 */
import type { EmittedFile } from '../model.ts';
import type { Resolved } from '../resolve.ts';
import { byCodeUnits } from '../order.ts';
import { GENERATED, examplePath } from '../naming.ts';

/** The file this emitter owns, relative to the corpus root. */
export const EDITOR_SETTINGS = GENERATED.editorSettings;

export interface JsonSchemaMapping {
  readonly fileMatch: readonly string[];
  readonly url: string;
}

/** The settings the corpus implies. */
export function editorSettings(r: Resolved): { readonly 'json.schemas': readonly JsonSchemaMapping[] } {
  const { schemas, examples } = r.corpus;
  const capabilities = schemas.find((s) => s.family === 'openwop' && s.stem === 'capabilities');
  const roots = schemas
    .filter((s) => examples.some((e) => e.family === s.family && e.major === s.major && e.target === s.stem && e.kind === 'valid'))
    .sort((a, b) => byCodeUnits(a.path, b.path))
    .map((s): JsonSchemaMapping => ({ fileMatch: [`/${examplePath(s, s.stem, 'valid', '*.json')}`], url: `./${s.path}` }));
  return {
    'json.schemas': [...(capabilities ? [{ fileMatch: ['**/.well-known/openwop*.json', '*.capabilities.json'], url: `./${capabilities.path}` }] : []), ...roots],
  };
}

export const emitEditorSettings = (r: Resolved): readonly EmittedFile[] => [{ path: EDITOR_SETTINGS, contents: `${JSON.stringify(editorSettings(r), null, 2)}\n` }];
