/**
 * Stage 4, emit: resolved corpus in, an {@link Emission} out. The TypeScript declarations are compiled once here and
 * handed to every emitter that reads them (the types modules and the site data both show them); each emitter runs once
 * on the same resolved corpus. Two emitters producing one path, or an emitter producing a path it does not own, is
 * refused. A slow emitter (it needs no declarations and works off the main thread) is started first, and the emitters
 * that read no declarations run while the declarations are compiled; results are reported in table order.
 */
import { performance } from 'node:perf_hooks';
import type { EmittedFile } from './model.ts';
import type { Resolved } from './resolve.ts';
import { EMITTERS, type EmitterEntry } from './emitters.ts';
import { declareTypes, type Declarations } from './emit/ts-declarations.ts';
import { CorpusError } from './errors.ts';
import { isOwned } from './owned.ts';

/** What the emit stage returns and the write stage takes. */
export interface Emission {
  /** Every emitted file, sorted by path. */
  readonly files: readonly EmittedFile[];
  /**
   * The paths the emitters own (directories end with `/`): the writer removes, and `--check` reports as extra, a file
   * under one of them that no emitter produced.
   */
  readonly owns: readonly string[];
}


/** Run the emitters (by default every one) on the resolved corpus. */
export interface EmitOptions {
  /** How the TypeScript declarations are compiled (default: {@link declareTypes}; watch mode passes a cached one). */
  readonly declare?: (resolved: Resolved) => Promise<Declarations>;
  /**
   * Told each emitter's time, in table order (whatever order they finish in): from its call until its files were
   * ready (for a slow emitter, from the start of the stage, as it runs alongside the others).
   */
  readonly onEmitted?: (name: string, ms: number) => void;
}

export async function emitAll(resolved: Resolved, emitters: readonly EmitterEntry[] = EMITTERS, options: EmitOptions = {}): Promise<Emission> {
  const t0 = performance.now();
  const timed = (e: EmitterEntry, declarations: Declarations, from = performance.now()) => Promise.resolve(e.emit(resolved, declarations)).then((files) => ({ files, ms: performance.now() - from }));
  const early = new Map(emitters.filter((e) => e.slow).map((e) => [e, timed(e, new Map(), t0)] as const));
  for (const files of early.values()) files.catch(() => undefined); // a failure is reported when awaited below, never as unhandled
  // The declarations are compiled while the emitters that do not read them run (gen compiles the misses in a worker).
  const declaring = (options.declare ?? declareTypes)(resolved);
  declaring.catch(() => undefined);
  const done = new Map<EmitterEntry, { files: readonly EmittedFile[]; ms: number }>();
  for (const e of emitters) if (!e.slow && !e.readsDeclarations) done.set(e, await timed(e, new Map()));
  const declarations = await declaring;
  for (const e of emitters) if (!e.slow && e.readsDeclarations) done.set(e, await timed(e, declarations));
  const out = new Map<string, EmittedFile>();
  for (const e of emitters) {
    const { files, ms } = done.get(e) ?? (await early.get(e)!);
    options.onEmitted?.(e.name, ms);
    for (const f of files) {
      if (out.has(f.path)) throw new CorpusError(`two emitters produce ${f.path}`, f.path);
      if (!isOwned(f.path, e.owns)) throw new CorpusError(`emitter "${e.name}" produced ${f.path} outside the paths it owns`, f.path);
      out.set(f.path, f);
    }
  }
  return {
    files: [...out.values()].sort((a, b) => (a.path < b.path ? -1 : 1)),
    owns: emitters.flatMap((e) => e.owns),
  };
}

/** One emission of several, made by disjoint sets of emitters (gen writes the quick ones before the slow ones). */
export function mergeEmissions(parts: readonly Emission[]): Emission {
  const files = new Map<string, EmittedFile>();
  for (const f of parts.flatMap((part) => part.files)) {
    if (files.has(f.path)) throw new CorpusError(`two emitters produce ${f.path}`, f.path);
    files.set(f.path, f);
  }
  return { files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : 1)), owns: parts.flatMap((part) => part.owns) };
}
