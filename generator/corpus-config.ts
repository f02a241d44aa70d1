/**
 * A corpus's own settings for the generator: the `"wopkit"` object of the package.json beside `schemas/` (absent: the
 * defaults). Today one switch, `editorSettings`: whether `gen` owns `.vscode/settings.json` (this repository turns it
 * on; a downstream corpus keeps its editor settings to itself unless it asks).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CorpusError } from './errors.ts';
import { isObject, readJsonFile } from './json.ts';

export interface CorpusConfig {
  /** `gen` writes `.vscode/settings.json` (schemas for discovery documents and examples), and `gen --check` checks it. */
  readonly editorSettings: boolean;
}

export const DEFAULT_CONFIG: CorpusConfig = { editorSettings: false };

/** The settings and what each accepts, one row each (an unknown key is refused, so a typo is not silently ignored). */
const SETTINGS: Readonly<Record<keyof CorpusConfig, { readonly expected: string; readonly valid: (v: unknown) => boolean }>> = {
  editorSettings: { expected: 'true or false', valid: (v) => typeof v === 'boolean' },
};

/** The corpus settings at `root`; a malformed package.json or setting is a CorpusError naming the file and pointer. */
export function corpusConfig(root: string): CorpusConfig {
  const file = join(root, 'package.json');
  if (!existsSync(file)) return DEFAULT_CONFIG;
  const manifest = readJsonFile(file, 'package.json');
  const own = isObject(manifest) ? manifest['wopkit'] : undefined;
  if (own === undefined) return DEFAULT_CONFIG;
  if (!isObject(own)) throw new CorpusError('"wopkit" must be an object of generator settings', 'package.json', '/wopkit');
  const config: Record<string, unknown> = { ...DEFAULT_CONFIG };
  for (const [key, value] of Object.entries(own)) {
    const setting = SETTINGS[key as keyof CorpusConfig];
    if (setting === undefined) throw new CorpusError(`unknown generator setting "${key}" (known: ${Object.keys(SETTINGS).join(', ')})`, 'package.json', `/wopkit/${key}`);
    if (!setting.valid(value)) throw new CorpusError(`"${key}" must be ${setting.expected}, not ${JSON.stringify(value)}`, 'package.json', `/wopkit/${key}`);
    config[key] = value;
  }
  return config as unknown as CorpusConfig;
}
