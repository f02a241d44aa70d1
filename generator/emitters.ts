/**
 * Every emitter in one table. An emitter is a pure function of the resolved corpus (and of the TypeScript
 * declarations, compiled once per run for the emitters that show them) to files. `owns` lists the paths (relative to
 * the corpus root; directories end with `/`) the emitter is responsible for: `gen --check` reports a file under an
 * owned path that no emitter produced as "extra". The other columns say when an emitter runs.
 */
import type { EmittedFile } from './model.ts';
import type { Resolved } from './resolve.ts';
import type { Declarations } from './emit/ts-declarations.ts';
import type { CorpusConfig } from './corpus-config.ts';
import { emitTypes } from './emit/types.ts';
import { emitValidators } from './emit/validators.ts';
import { emitGuards } from './emit/guards.ts';
import { emitRunEvents } from './emit/run-events.ts';
import { emitSiteData } from './emit/site-data.ts';
import { emitReadme } from './emit/readme.ts';
import { emitOpenApi } from './emit/openapi.ts';
import { emitRoutes } from './emit/routes.ts';
import { emitMajors } from './emit/majors.ts';
import { cachedOtherLanguages, emitOtherLanguages } from './emit/other-languages/index.ts';
import { emitEditorSettings } from './emit/editor-settings.ts';
import { GENERATED } from './naming.ts';

/** An emitter: resolved corpus (+ the shared TypeScript declarations) in, files out. */
export type Emitter = (resolved: Resolved, declarations: Declarations) => readonly EmittedFile[] | Promise<readonly EmittedFile[]>;

export interface EmitterEntry {
  readonly name: string;
  readonly emit: Emitter;
  readonly owns: readonly string[];
  /** Its output depends on the examples, not only the schemas (watch mode runs it again after an example edit). */
  readonly readsExamples?: boolean;
  /** It shows the TypeScript declarations: it runs once they are compiled (the others run meanwhile, given none). */
  readonly readsDeclarations?: boolean;
  /**
   * Seconds per run (quicktype). It reads no declarations and works off the main thread, so when it runs it starts
   * first and renders while the others work, and its files are written after theirs. `gen` and `gen --watch` leave it
   * out unless `--all`, except when `cached` has its files for this corpus (a cheap look-up, no rendering);
   * `gen --check` always includes it.
   */
  readonly slow?: { readonly cached: (resolved: Resolved) => Promise<readonly EmittedFile[] | undefined> };
  /** Only for a corpus whose settings turn it on (corpus-config.ts); default: always. */
  readonly when?: (config: CorpusConfig) => boolean;
}

export const EMITTERS: readonly EmitterEntry[] = [
  { name: 'types', emit: emitTypes, owns: [GENERATED.types], readsDeclarations: true },
  { name: 'validators', emit: emitValidators, owns: [GENERATED.validatorsDir] },
  { name: 'guards', emit: emitGuards, owns: [GENERATED.guardsDir] },
  { name: 'run-events', emit: emitRunEvents, owns: [GENERATED.runEventsDir] },
  { name: 'site-data', emit: emitSiteData, owns: [GENERATED.siteData], readsExamples: true, readsDeclarations: true },
  { name: 'readme', emit: emitReadme, owns: [GENERATED.readme, GENERATED.tsdoc, GENERATED.packageJson] },
  { name: 'openapi', emit: emitOpenApi, owns: [GENERATED.openapiDir], when: (c) => c.openapi },
  { name: 'routes', emit: emitRoutes, owns: [GENERATED.routesDir] },
  { name: 'majors', emit: emitMajors, owns: [GENERATED.majorsDir] },
  { name: 'other-languages', emit: emitOtherLanguages, owns: [GENERATED.otherLanguages], readsExamples: true, slow: { cached: cachedOtherLanguages } },
  { name: 'editor-settings', emit: emitEditorSettings, owns: [GENERATED.editorSettings], readsExamples: true, when: (c) => c.editorSettings },
];

/** The emitters a corpus with these settings has (in table order). */
export const emittersFor = (config: CorpusConfig, table: readonly EmitterEntry[] = EMITTERS): EmitterEntry[] => table.filter((e) => e.when?.(config) ?? true);
