/**
 * Every emitter in one table. An emitter is a pure function of the resolved corpus (and of the TypeScript
 * declarations, compiled once per run for the emitters that show them) to files. `owns` lists the generated/ paths
 * (directories end with `/`) the emitter is responsible for: `gen --check` reports a file under an owned path that no
 * emitter produced as "extra".
 */
import type { EmittedFile } from './model.ts';
import type { Resolved } from './resolve.ts';
import type { Declarations } from './emit/ts-declarations.ts';
import { emitTypes } from './emit/types.ts';
import { emitValidators } from './emit/validators.ts';
import { emitGuards } from './emit/guards.ts';
import { emitRunEvents } from './emit/run-events.ts';
import { emitSiteData } from './emit/site-data.ts';
import { emitReadme } from './emit/readme.ts';
import { emitOpenApi } from './emit/openapi.ts';
import { emitOtherLanguages } from './emit/other-languages/index.ts';
import { GENERATED } from './naming.ts';

/** An emitter: resolved corpus (+ the shared TypeScript declarations) in, files out. */
export type Emitter = (resolved: Resolved, declarations: Declarations) => readonly EmittedFile[] | Promise<readonly EmittedFile[]>;

export interface EmitterEntry {
  readonly name: string;
  readonly emit: Emitter;
  readonly owns: readonly string[];
  /**
   * The emitter reads no TypeScript declarations and works off the main thread: the emit stage starts it before
   * compiling the declarations (it is given none), so that it runs while the other emitters work.
   */
  readonly early?: boolean;
}

export const EMITTERS: readonly EmitterEntry[] = [
  { name: 'types', emit: emitTypes, owns: [GENERATED.types] },
  { name: 'validators', emit: emitValidators, owns: [GENERATED.validatorsDir] },
  { name: 'guards', emit: emitGuards, owns: [GENERATED.guardsDir] },
  { name: 'run-events', emit: emitRunEvents, owns: [GENERATED.runEventsDir] },
  { name: 'site-data', emit: emitSiteData, owns: [GENERATED.siteData] },
  { name: 'readme', emit: emitReadme, owns: [GENERATED.readme, GENERATED.tsdoc] },
  { name: 'openapi', emit: emitOpenApi, owns: [GENERATED.openapiDir] },
  { name: 'other-languages', emit: emitOtherLanguages, owns: [GENERATED.otherLanguages], early: true },
];
