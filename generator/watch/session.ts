/**
 * One watch session: the generator pipeline run again in the same process after every edit, reusing what did not
 * change. Each run loads the corpus (keeping going past files that do not load), compares it with the previous run's,
 * and then:
 *
 * - a file that does not load (malformed JSON, a bad invalid-example wrapper) or a corpus gen refuses: reported with
 *   file, line and pointer; generated/ is left as it was and the session keeps going;
 * - schema files changed: every emitter runs again (other-languages only with `all`), except that TypeScript
 *   declarations are compiled only for types whose projection changed (a cache across runs), the types modules only
 *   for schema files whose declarations changed, and the validators modules only for the edited files and those that
 *   reference them (transitively); then lint, and the examples an edit can affect;
 * - only examples changed: the emitters that read examples (site data; other-languages with `all`) and those examples.
 *
 * Files are written only when their contents differ from disk. A run returns a {@link RunReport}; printing is the
 * watcher's business.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EmittedFile, Example, LoadedCorpus, SchemaFile } from '../model.ts';
import { loadCorpus } from '../load.ts';
import { resolveCorpus, type Resolved } from '../resolve.ts';
import { assertGeneratable, checkExamples, lintCorpus, type Finding } from '../lint.ts';
import { emitAll, type Emission } from '../emit.ts';
import { EmitWorker } from './worker-client.ts';
import { EMITTERS, emittersFor, type EmitterEntry } from '../emitters.ts';
import { corpusConfig } from '../corpus-config.ts';
import { declareTypes, type Declarations } from '../emit/ts-declarations.ts';
import { emitTypes, typesModuleOf } from '../emit/types.ts';
import { emitValidatorModules, emitValidators, validatorOutputsOf } from '../emit/validators.ts';
import { emitSiteData, emitSiteDataOf } from '../emit/site-data.ts';
import { writeFiles } from '../write.ts';
import { CorpusError, CorpusProblems } from '../errors.ts';
import { isOwned } from '../owned.ts';
import { createAjv } from '../ajv.ts';
import { GENERATED, parseExampleTarget, siteDataName } from '../naming.ts';

/** What changed since the last run that generated: everything (`full`), or these schema and example files. */
interface Edit {
  readonly full: boolean;
  readonly schemas: ReadonlySet<string>;
  readonly examples: ReadonlySet<string>;
}

/** The per-schema outputs of the site-data emitter for one schema file. */
const siteDataOutputs = (f: SchemaFile): string[] => [`${GENERATED.siteData}${siteDataName(f.family, f.stem)}`];

/** Emitters whose output depends on the examples (the others read only the schemas). test/generator/watch checks it. */
export const EXAMPLE_READERS: ReadonlySet<string> = new Set(EMITTERS.filter((e) => e.readsExamples).map((e) => e.name));
/**
 * The slow emitters (quicktype: seconds per run): left out of the loop unless asked for (`gen --watch --all`); with it
 * they run in a worker thread while the others run and write their files.
 */
export const SLOW_EMITTERS: ReadonlySet<string> = new Set(EMITTERS.filter((e) => e.slow).map((e) => e.name));

export interface RunReport {
  /** Schema and example files whose contents changed since the previous run (all of them on the first run). */
  readonly changed: readonly string[];
  /** Files that could not be loaded, or the reason gen refused the corpus: generated/ was left alone. */
  readonly problems: readonly Finding[];
  /** generated/ files written (changed on disk) and removed. */
  readonly written: readonly string[];
  readonly removed: readonly string[];
  /** Emitters that ran. */
  readonly emitters: readonly string[];
  /** Milliseconds from the start of the run until generated/ was up to date (undefined when nothing was generated). */
  readonly generatedMs?: number;
  /** Milliseconds until the quick emitters' files (types, guards, run events, site data) were written. */
  readonly firstWrittenMs?: number;
  /** Lint findings and example findings (after generation). */
  readonly findings: readonly Finding[];
  readonly examplesChecked: number;
  /** Milliseconds for the whole run. */
  readonly totalMs: number;
  /** Where the run's time went, by stage (load, resolve, check, declarations, each emitter, write), in milliseconds. */
  readonly stagesMs?: Readonly<Record<string, number>>;
}

const textsOf = (files: readonly { path: string; text?: string }[]): Map<string, string> => new Map(files.map((f) => [f.path, f.text ?? '']));

/** Paths whose text differs between two maps (added, removed or edited). */
function differing(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  const out = new Set<string>();
  for (const [p, t] of after) if (before.get(p) !== t) out.add(p);
  for (const p of before.keys()) if (!after.has(p)) out.add(p);
  return [...out].sort();
}

export interface SessionOptions {
  /** Include the slow emitters (other-languages). */
  readonly all?: boolean;
}

export class WatchSession {
  /** Texts of the last corpus that could be generated from, and of the last one read at all. */
  private schemaTexts = new Map<string, string>();
  private exampleTexts = new Map<string, string>();
  private attempted = new Map<string, string>();
  /** Projection → declaration text, across runs. */
  private readonly declarationCache = new Map<string, string>();
  /** Each emitter's files from the last run that generated. */
  private readonly lastOutput = new Map<string, readonly EmittedFile[]>();
  /** Per schema file: what its types module depends on, and the module, from the last run. */
  private readonly typesModules = new Map<string, { key: string; file: EmittedFile }>();
  private generatedOnce = false;
  /** The resolved corpus of the last run that generated (what the edited files referenced before the edit). */
  private lastResolved: Resolved | undefined;
  private readonly worker = new EmitWorker();
  /** Meta-validates every run's corpus (it only validates, so the meta-schema is compiled once per session). */
  private readonly metaAjv = createAjv();

  readonly root: string;
  private readonly options: SessionOptions;

  /** The corpus's emitters (its settings are read once, when the session starts). */
  private readonly corpusEmitters: readonly EmitterEntry[];

  constructor(root: string, options: SessionOptions = {}) {
    this.root = root;
    this.options = options;
    this.corpusEmitters = emittersFor(corpusConfig(root));
  }

  /** Stop the emitter worker. */
  close(): Promise<void> {
    return this.worker.close();
  }

  /** The emitters of the loop. */
  get emitters(): readonly EmitterEntry[] {
    return this.corpusEmitters.filter((e) => this.options.all || !SLOW_EMITTERS.has(e.name));
  }

  /** Run the pipeline once on the corpus as it is on disk now. */
  async run(): Promise<RunReport> {
    const t0 = performance.now();
    const stagesMs: Record<string, number> = {};
    let lapStart = t0;
    const lap = (stage: string) => {
      const now = performance.now();
      stagesMs[stage] = Math.round((stagesMs[stage] ?? 0) + now - lapStart);
      lapStart = now;
    };
    const corpus = loadCorpus(this.root, { keepGoing: true });
    lap('load');
    // The majors tables count as schema files here: an edit runs the emitters that read the whole corpus (majors).
    const schemaTexts = textsOf([...corpus.schemas, ...(corpus.majorTables ?? [])]);
    const exampleTexts = textsOf(corpus.examples);
    const schemasChanged = differing(this.schemaTexts, schemaTexts);
    const examplesChanged = differing(this.exampleTexts, exampleTexts);
    // What the author changed since the last run (usable or not): files read with new text, files gone from disk.
    const now = new Map([...schemaTexts, ...exampleTexts, ...(corpus.problems ?? []).map((p) => [p.file, `problem:${p.message}`] as const)]);
    const lastGood = new Map([...this.schemaTexts, ...this.exampleTexts]);
    const changed = differing(this.attempted, now).filter((p) =>
      now.has(p)
        ? this.attempted.has(p) || lastGood.get(p) !== now.get(p) // not: examples that come back unchanged with their schema
        : !existsSync(join(this.root, p)), // not: examples skipped while their schema does not load
    );
    this.attempted = now;
    const base = { changed, written: [], removed: [], emitters: [], findings: [], examplesChecked: 0 };
    const problems = (corpus.problems ?? []).map((p): Finding => ({ file: p.file, pointer: p.pointer, rule: 'loads', message: p.message, ...(p.position ? { line: p.position.line, column: p.position.column } : {}) }));
    if (problems.length) return { ...base, problems, totalMs: performance.now() - t0 };
    const resolved = resolveCorpus(corpus);
    lap('resolve');
    try {
      assertGeneratable(resolved, this.metaAjv);
      lap('check');
    } catch (e) {
      if (!(e instanceof CorpusError)) throw e;
      // Every reason, each with its file, line and column (the text report prints file:line:column: #pointer).
      const problems: Finding[] = e instanceof CorpusProblems ? [...e.problems] : [{ file: e.file, pointer: e.pointer, rule: 'gen', message: e.message, ...e.position }];
      return { ...base, problems, totalMs: performance.now() - t0 };
    }
    const first = !this.generatedOnce;
    if (!first && !changed.length && !schemasChanged.length && !examplesChanged.length) return { ...base, problems: [], totalMs: performance.now() - t0 };
    // A schema file added or removed: the writer also removes generated files no emitter produces any more.
    const fileSetChanged = first || schemasChanged.some((p) => !schemaTexts.has(p) || !this.schemaTexts.has(p));
    // A type added, removed or renamed: its validator module (one per type) is created or goes, so stale files go too.
    const titles = (r: Resolved) => r.types.map((t) => t.title).sort().join('\n');
    const typeSetChanged = this.lastResolved !== undefined && titles(this.lastResolved) !== titles(resolved);
    // Remember what was loaded only once it was usable, so the next run compares with the last good corpus.
    this.schemaTexts = schemaTexts;
    this.exampleTexts = exampleTexts;
    const needed = this.emitters.filter((e) => first || schemasChanged.length > 0 || (examplesChanged.length > 0 && EXAMPLE_READERS.has(e.name)));
    const written: string[] = [];
    const removed: string[] = [];
    let firstWrittenMs: number | undefined;
    let generatedMs: number | undefined;
    if (needed.length) {
      // The whole-corpus emitters (the validators module; other-languages with --all) start in the worker thread while
      // the quick ones run here and write their files: an edit shows in the types and site data at once.
      const slow = needed.filter((e) => SLOW_EMITTERS.has(e.name));
      const quick = needed.filter((e) => !SLOW_EMITTERS.has(e.name));
      const pendingSlow = slow.length ? this.worker.emit(corpus, slow.map((e) => e.name)) : undefined;
      pendingSlow?.catch(() => {}); // awaited below; keep an early failure from being reported as unhandled
      const write = (emission: Emission, emitters: readonly EmitterEntry[]) => {
        for (const e of emitters) this.lastOutput.set(e.name, emission.files.filter((f) => isOwned(f.path, e.owns)));
        // Only the re-run emitters' files are compared with disk; when the file set changed, stale ones are removed too.
        lapStart = performance.now();
        const res = writeFiles(this.root, fileSetChanged || typeSetChanged ? emission : { files: emission.files, owns: [] });
        lap('write');
        written.push(...res.written);
        removed.push(...res.removed);
        firstWrittenMs ??= performance.now() - t0;
      };
      const edit: Edit = { full: first || fileSetChanged, schemas: new Set(schemasChanged), examples: new Set(examplesChanged) };
      const declare = async (r: Resolved) => {
        const t = performance.now();
        const declarations = await declareTypes(r, this.declarationCache);
        stagesMs['declarations'] = Math.round(performance.now() - t);
        return declarations;
      };
      const onEmitted = (name: string, ms: number) => (stagesMs[name] = Math.round(ms));
      if (quick.length) write(await emitAll(resolved, this.wrapped(quick, edit), { declare, onEmitted }), quick);
      if (pendingSlow) write(await pendingSlow, slow);
      generatedMs = performance.now() - t0;
      this.generatedOnce = true;
      this.lastResolved = resolved;
      if (slow.length) this.worker.warmUp(corpus, slow.map((e) => e.name));
    } else generatedMs = performance.now() - t0; // nothing to regenerate: generated/ is as the last good run left it
    lapStart = performance.now();
    const findings = lintCorpus(resolved);
    lap('lint');
    const affected = this.affectedExamples(resolved, corpus, first ? undefined : new Set([...changed, ...schemasChanged, ...examplesChanged]));
    const checked = checkExamples(resolved, affected);
    lap('examples');
    return {
      ...base,
      problems: [],
      written,
      removed,
      emitters: needed.map((e) => e.name),
      ...(generatedMs !== undefined ? { generatedMs, firstWrittenMs: firstWrittenMs ?? generatedMs } : {}),
      findings: [...findings, ...checked.findings],
      examplesChecked: checked.checked,
      totalMs: performance.now() - t0,
      stagesMs,
    };
  }

  /** The emitters of this run, with the types, validators and site-data emitters made incremental per schema file. */
  private wrapped(needed: readonly EmitterEntry[], edit: Edit): EmitterEntry[] {
    return needed.map((e) =>
      e.emit === emitTypes ? { ...e, emit: (r: Resolved, d: Declarations) => this.emitTypesIncrementally(r, d) }
      : e.emit === emitValidators ? { ...e, emit: (r: Resolved) => this.perSchema(e.name, r, edit, r.filesReferencing(edit.schemas), (f) => this.validatorsOutputs(r, f), (files) => emitValidatorModules(r, files)) }
      : e.emit === emitSiteData ? { ...e, emit: (r: Resolved, d: Declarations) => this.perSchema(e.name, r, edit, this.siteDataFiles(r, edit), siteDataOutputs, (files) => emitSiteDataOf(r, d, files && new Set(files.map((f) => f.path)))) }
      : e,
    );
  }

  /** The validator modules of a schema file's types, now and at the last run (a renamed or removed type's module goes). */
  private validatorsOutputs(r: Resolved, f: SchemaFile): string[] {
    return [...validatorOutputsOf(r, f), ...(this.lastResolved ? validatorOutputsOf(this.lastResolved, f) : [])];
  }

  /**
   * A per-schema emitter run incrementally: its outputs for the schema files `affected` are emitted again (with its
   * whole-corpus files: indexes, runtime), the others are kept from the last run. Each output must be a function of
   * the files `affected` is computed from, so the result equals a full emission; a run that must emit everything does.
   */
  private perSchema(
    name: string,
    r: Resolved,
    edit: Edit,
    affected: ReadonlySet<string>,
    outputsOf: (f: SchemaFile) => string[],
    emit: (files?: readonly SchemaFile[]) => readonly EmittedFile[],
  ): readonly EmittedFile[] {
    const last = this.lastOutput.get(name);
    if (!last || edit.full) return emit();
    const files = r.corpus.schemas.filter((f) => affected.has(f.path));
    const redone = new Set(files.flatMap(outputsOf));
    const fresh = emit(files);
    const freshPaths = new Set(fresh.map((f) => f.path));
    return [...last.filter((f) => !redone.has(f.path) && !freshPaths.has(f.path)), ...fresh];
  }

  /**
   * The site-data documents an edit can change: those of the edited files, of the files that reference them
   * (transitively: links and inlined subschemas show their titles), of the files they reference before and after the
   * edit (their referencedBy lists), and of the files whose examples were edited.
   */
  private siteDataFiles(r: Resolved, edit: Edit): Set<string> {
    const exampleFiles = [...edit.examples].flatMap((p) => {
      const [, family, , , target] = p.split('/');
      const { stem } = parseExampleTarget(target ?? '');
      return r.corpus.schemas.filter((f) => f.family === family && f.stem === stem).map((f) => f.path);
    });
    return new Set([...r.filesReferencing(edit.schemas), ...r.filesReferencedBy(edit.schemas), ...(this.lastResolved?.filesReferencedBy(edit.schemas) ?? []), ...exampleFiles]);
  }

  /**
   * The types modules, compiled again only for schema files whose declarations (or the types they import) changed; the
   * index is rebuilt with them. A module depends on nothing else, so the output equals a full emitTypes run.
   */
  private emitTypesIncrementally(r: Resolved, declarations: Declarations): readonly EmittedFile[] {
    const keyOf = (file: SchemaFile): string =>
      JSON.stringify(r.types.filter((t) => t.file === file).map((t) => [t.title, declarations.get(t.title)?.text, [...(declarations.get(t.title)?.refs ?? [])].map((x) => [x.title, x.file.path])]));
    const stale = r.corpus.schemas.filter((f) => this.typesModules.get(f.path)?.key !== keyOf(f));
    const sameFiles = r.corpus.schemas.length === this.typesModules.size && r.corpus.schemas.every((f) => this.typesModules.has(f.path));
    // A new or removed schema file changes the index: run the emitter on everything; otherwise only on the stale files.
    const fresh = emitTypes(sameFiles ? resolveCorpus({ ...r.corpus, schemas: stale, examples: [] }) : r, declarations);
    // One index per major (naming.ts majorLayout).
    const indexes = new Set(r.majors.map((m) => r.layout(m).typesIndex));
    const previousIndexes = (this.lastOutput.get('types') ?? []).filter((f) => indexes.has(f.path));
    if (!sameFiles) this.typesModules.clear();
    for (const f of sameFiles ? stale : r.corpus.schemas) {
      const module = fresh.find((x) => x.path === typesModuleOf(r, f));
      if (module) this.typesModules.set(f.path, { key: keyOf(f), file: module });
      else this.typesModules.delete(f.path);
    }
    const index = sameFiles && previousIndexes.length === indexes.size ? previousIndexes : fresh.filter((x) => indexes.has(x.path));
    return [...[...this.typesModules.values()].map((m) => m.file), ...index];
  }

  /**
   * The examples an edit can affect: those edited, and those of every type in an edited schema file or in a file that
   * references one (transitively). Everything on the first run.
   */
  private affectedExamples(r: Resolved, corpus: LoadedCorpus, changed: ReadonlySet<string> | undefined): ((ex: Example) => boolean) | undefined {
    if (!changed) return undefined;
    const files = r.filesReferencing(corpus.schemas.filter((f) => changed.has(f.path)).map((f) => f.path));
    const targets = new Set([...r.entries.values()].filter((e) => files.has(e.file.path)).map((e) => `${e.file.family}/${e.file.major}/${e.target}`));
    return (ex) => changed.has(ex.path) || targets.has(`${ex.family}/${ex.major}/${ex.target}`);
  }
}
