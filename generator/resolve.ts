/**
 * Stage 2, resolve: a {@link LoadedCorpus} in, a {@link Resolved} corpus out — the `$id` map, `$ref` resolution
 * (offline, by relative path or by `$id`), the list of types (root schemas and `$defs` entries, named by their titles)
 * and the reference graph between them. Resolving never fails: a dangling `$ref` is a lint finding, and the emit
 * stage's precondition (lint.ts `assertGeneratable`).
 */
import type { Json, JsonObject, LoadedCorpus, SchemaFile } from './model.ts';
import { CorpusError, escapePointer, unescapePointer } from './errors.ts';
import { exampleTarget, firstMajorOf, majorLayout, type MajorLayout } from './naming.ts';
import { isObject } from './json.ts';

/** Re-exported for the modules and tests that walk schemas with this module. */
export { isObject };

/** A root schema or `$defs` entry: one generated type, validator and pair of guards. */
export interface TypeInfo {
  readonly title: string;
  readonly file: SchemaFile;
  /** `''` for the root schema. */
  readonly defName: string;
  /** `''` or `/$defs/<name>`. */
  readonly pointer: string;
  /** Example directory name: `<stem>` or `<stem>--<def>`. */
  readonly target: string;
  /** The key Ajv knows it by: `$id` or `$id#/$defs/<name>`. */
  readonly ajvRef: string;
  readonly schema: JsonObject;
  /** False for a root that only holds `$defs` (no type of its own). */
  readonly isType: boolean;
}

/** Where a `$ref` points. */
export interface RefTarget {
  readonly file: SchemaFile;
  /** JSON pointer inside the file (`''` = root). */
  readonly pointer: string;
  readonly node: Json;
}

/** One `$ref` occurrence. */
export interface RefSite {
  readonly file: SchemaFile;
  /** Pointer of the object holding the `$ref`. */
  readonly pointer: string;
  readonly ref: string;
}

const PATH_BASE = 'https://path.invalid/';
const INSTANCE_KEYS = new Set(['const', 'enum', 'default', 'examples', 'x-runtime-rules', 'x-source', 'x-type-index', 'x-direction']);

/** Resolve a JSON pointer (without `#`) inside a document. */
export function getPointer(doc: Json, pointer: string): Json | undefined {
  if (pointer === '') return doc;
  if (!pointer.startsWith('/')) return undefined;
  let cur: Json | undefined = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = unescapePointer(decodeURIComponent(raw));
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isObject(cur)) cur = Object.prototype.hasOwnProperty.call(cur, seg) ? cur[seg] : undefined;
    else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** True when a root schema is only a container of `$defs` (no shape of its own). */
export function isContainer(schema: JsonObject): boolean {
  const shapeKeys = ['type', 'properties', 'oneOf', 'anyOf', 'allOf', 'enum', 'const', '$ref', 'items', 'if', 'not'];
  return !shapeKeys.some((k) => k in schema);
}

/** Visit every subschema that may hold a `$ref`, skipping instance-valued keywords. Calls `fn(node, pointer)`. */
export function walkSchema(node: Json, pointer: string, fn: (node: JsonObject, pointer: string) => void, intoDefs = true): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => walkSchema(child, `${pointer}/${i}`, fn, intoDefs));
    return;
  }
  if (!isObject(node)) return;
  fn(node, pointer);
  for (const [key, child] of Object.entries(node)) {
    if (INSTANCE_KEYS.has(key)) continue;
    if (key === '$defs' && !intoDefs) continue;
    if (key === 'properties' || key === '$defs' || key === 'patternProperties' || key === 'dependentSchemas') {
      if (isObject(child))
        for (const [name, sub] of Object.entries(child)) walkSchema(sub, `${pointer}/${key}/${escapePointer(name)}`, fn, true);
      continue;
    }
    if (isObject(child) || Array.isArray(child)) walkSchema(child, `${pointer}/${escapePointer(key)}`, fn, true);
  }
}

/** What the resolve stage returns: the loaded corpus and everything derived from its references. */
export class Resolved {
  readonly corpus: LoadedCorpus;
  readonly byId = new Map<string, SchemaFile>();
  readonly byPathUrl = new Map<string, SchemaFile>();
  /** Every titled type (root schemas that are shapes and every `$defs` entry), in corpus order. */
  readonly types: TypeInfo[] = [];
  /** Root and `$defs` entries including containers, keyed by `path#pointer`. */
  readonly entries = new Map<string, TypeInfo>();
  readonly refSites: RefSite[] = [];
  /** The majors the corpus loads, lowest first (`v1`, `v2`). */
  readonly majors: readonly string[];
  /** The lowest major: its modules sit at the generated folders themselves, later majors' in subfolders (naming.ts). */
  readonly firstMajor: string;

  constructor(corpus: LoadedCorpus) {
    this.corpus = corpus;
    this.majors = [...new Set(corpus.schemas.map((s) => s.major))].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    this.firstMajor = corpus.firstMajor ?? firstMajorOf(this.majors);
    for (const file of corpus.schemas) {
      if (file.id) this.byId.set(file.id.replace(/#$/, ''), file);
      this.byPathUrl.set(PATH_BASE + file.path, file);
    }
    for (const file of corpus.schemas) {
      const add = (defName: string, schema: Json) => {
        if (!isObject(schema)) return;
        const pointer = defName ? `/$defs/${escapePointer(defName)}` : '';
        const info: TypeInfo = {
          title: typeof schema['title'] === 'string' ? schema['title'] : '',
          file,
          defName,
          pointer,
          target: exampleTarget(file.stem, defName),
          ajvRef: defName ? `${file.id}#${pointer}` : file.id,
          schema,
          isType: defName !== '' || !isContainer(schema),
        };
        this.entries.set(`${file.path}#${pointer}`, info);
        if (info.isType && info.title) this.types.push(info);
      };
      add('', file.schema);
      const defs = file.schema['$defs'];
      if (isObject(defs)) for (const [name, def] of Object.entries(defs)) add(name, def);
      walkSchema(file.schema, '', (node, pointer) => {
        if (typeof node['$ref'] === 'string') this.refSites.push({ file, pointer, ref: node['$ref'] });
      });
    }
  }

  /** Resolve a `$ref` written in `file`; undefined when it dangles. */
  tryResolve(file: SchemaFile, ref: string): RefTarget | undefined {
    const hashAt = ref.indexOf('#');
    const urlPart = hashAt < 0 ? ref : ref.slice(0, hashAt);
    const fragment = hashAt < 0 ? '' : ref.slice(hashAt + 1);
    let target: SchemaFile | undefined;
    if (urlPart === '') target = file;
    else {
      try {
        if (file.id) target = this.byId.get(new URL(urlPart, file.id).href);
      } catch {
        /* fall through to the path-based lookup */
      }
      if (!target) {
        try {
          target = this.byPathUrl.get(new URL(urlPart, PATH_BASE + file.path).href);
        } catch {
          return undefined;
        }
      }
    }
    if (!target) return undefined;
    const pointer = decodeURIComponent(fragment);
    const node = getPointer(target.schema, pointer);
    if (node === undefined) return undefined;
    return { file: target, pointer, node };
  }

  /** Resolve or throw a CorpusError naming the file and the pointer of the `$ref`. */
  resolve(file: SchemaFile, ref: string, at: string): RefTarget {
    const t = this.tryResolve(file, ref);
    if (!t) throw new CorpusError(`dangling $ref "${ref}"`, file.path, `${at}/$ref`);
    return t;
  }

  /** The root or `$defs` entry at a pointer, if the pointer names one. */
  entryAt(file: SchemaFile, pointer: string): TypeInfo | undefined {
    return this.entries.get(`${file.path}#${pointer}`);
  }

  /** The type a `$ref` names, when it targets a titled root or `$defs` entry. */
  typeOfRef(file: SchemaFile, ref: string, at: string): TypeInfo | undefined {
    const t = this.resolve(file, ref, at);
    const e = this.entryAt(t.file, t.pointer);
    return e && e.title ? e : undefined;
  }

  /** The entry (root or `$defs`) that contains a pointer. */
  ownerOf(file: SchemaFile, pointer: string): TypeInfo | undefined {
    const m = /^\/\$defs\/([^/]+)/.exec(pointer);
    return this.entryAt(file, m ? `/$defs/${m[1]}` : '');
  }

  /** Direct references between entries: owner → referenced entries (deduplicated). */
  referenceGraph(): Map<TypeInfo, Set<TypeInfo>> {
    const graph = new Map<TypeInfo, Set<TypeInfo>>();
    for (const site of this.refSites) {
      const from = this.ownerOf(site.file, site.pointer);
      const t = this.tryResolve(site.file, site.ref);
      if (!from || !t) continue;
      const to = this.ownerOf(t.file, t.pointer);
      if (!to || to === from) continue;
      let set = graph.get(from);
      if (!set) graph.set(from, (set = new Set()));
      set.add(to);
    }
    return graph;
  }

  /**
   * The schema files `paths` and every file that references one of them through a `$ref`, transitively (repository
   * paths): what an edit of `paths` can change the meaning of.
   */
  filesReferencing(paths: Iterable<string>): Set<string> {
    const out = new Set(paths);
    const edges = this.fileEdges();
    for (let grew = true; grew; ) {
      grew = false;
      for (const [from, to] of edges) if (out.has(to) && !out.has(from)) grew = Boolean(out.add(from));
    }
    return out;
  }

  /** The schema files that the files `paths` reference directly through a `$ref` (repository paths). */
  filesReferencedBy(paths: Iterable<string>): Set<string> {
    const from = new Set(paths);
    return new Set(this.fileEdges().flatMap(([f, to]) => (from.has(f) ? [to] : [])));
  }

  /** `[from, to]` repository paths of every `$ref` from one schema file to another. */
  private fileEdges(): (readonly [string, string])[] {
    return this.refSites.flatMap((site) => {
      const t = this.tryResolve(site.file, site.ref);
      return t && t.file !== site.file ? [[site.file.path, t.file.path] as const] : [];
    });
  }

  /** Where a major's generated modules go. */
  layout(major: string): MajorLayout {
    return majorLayout(major, this.firstMajor);
  }

  private firstOnly?: Resolved;
  /**
   * The corpus of the first major alone (this corpus when it has one major): what the emitters that do not yet place
   * later majors read — the site data (the site shows one major: its schema pages have no major switch yet) and the
   * other languages.
   */
  firstMajorOnly(): Resolved {
    if (this.majors.length <= 1) return this;
    const first = (x: { readonly major: string }) => x.major === this.firstMajor;
    return (this.firstOnly ??= new Resolved({ ...this.corpus, schemas: this.corpus.schemas.filter(first), examples: this.corpus.examples.filter(first) }));
  }

  /** The types of one major, in corpus order. */
  typesOf(major: string): TypeInfo[] {
    return this.types.filter((t) => t.file.major === major);
  }

  /**
   * The types of `major` and every type they reference, transitively (a later major's shape written once in an
   * earlier major): what that major's validators folder must hold to stand on its own.
   */
  closureOf(major: string): TypeInfo[] {
    const known = this.closures.get(major);
    if (known) return known;
    const graph = this.referenceGraph();
    const seen = new Set<TypeInfo>(this.typesOf(major));
    const queue = [...seen];
    for (let t = queue.shift(); t !== undefined; t = queue.shift())
      for (const to of graph.get(t) ?? []) if (!seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    const closure = this.types.filter((t) => seen.has(t));
    this.closures.set(major, closure);
    return closure;
  }
  private readonly closures = new Map<string, TypeInfo[]>();

  typeByTitle(title: string): TypeInfo | undefined {
    return this.types.find((t) => t.title === title);
  }
}

/** Stage 2: resolve a loaded corpus. */
export function resolveCorpus(corpus: LoadedCorpus): Resolved {
  return new Resolved(corpus);
}
