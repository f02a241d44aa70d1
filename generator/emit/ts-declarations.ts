/**
 * The TypeScript declaration of every type, compiled once per run and handed to the emitters that show it (the
 * types modules and the site data). json-schema-to-typescript compiles a projection of each schema in which every
 * `$ref` to a titled type is replaced by that type's name (`tsType`), so nothing is declared twice; each declaration
 * records which titled types it mentions, for the imports.
 */
import type { Options as J2tsOptions } from 'json-schema-to-typescript';
import type { Json, JsonObject } from '../model.ts';
import { isObject, type Resolved, type TypeInfo } from '../resolve.ts';
import { escapePointer } from '../errors.ts';
import { diskCache, type TextCache } from '../work-cache.ts';
import { runWorker, siblingModule } from '../one-shot-worker.ts';

const J2TS_OPTIONS: Partial<J2tsOptions> = {
  bannerComment: '',
  declareExternallyReferenced: false,
  ignoreMinAndMaxItems: true,
  format: true,
  style: { singleQuote: true, printWidth: 120, trailingComma: 'all', semi: true, bracketSpacing: true },
  unknownAny: true,
  strictIndexSignatures: false,
  additionalProperties: true,
  unreachableDefinitions: false,
  enableConstEnums: false,
  inferStringEnumKeysFromValues: false,
};

/** Keywords that do not shape the TypeScript type (rules TS cannot express). */
const DROP = new Set(['if', 'then', 'else', 'not', 'contains', 'minContains', 'maxContains', 'discriminator', 'dependentRequired', 'dependentSchemas', '$schema', '$id', '$defs', '$comment', 'x-runtime-rules', 'x-source', 'x-type-index', 'x-direction', 'examples', 'propertyNames', 'minProperties', 'maxProperties', 'unevaluatedProperties', 'unevaluatedItems']);

/** Keywords that give a schema a shape; a schema with none of them is `unknown`. */
const SHAPE_KEYS = new Set(['type', 'properties', 'items', 'prefixItems', 'oneOf', 'anyOf', 'allOf', 'enum', 'const', '$ref', 'additionalProperties', 'patternProperties', 'tsType', 'format', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'required']);

const CONSTRAINT_ONLY = new Set(['required', 'description', 'not', 'if', 'then', 'else', 'minProperties', 'maxProperties', 'dependentRequired', '$comment']);
/** A subschema that only adds presence/conditional rules, no shape of its own. */
const isConstraintOnly = (v: Json): boolean =>
  isObject(v) &&
  Object.keys(v).every(
    (k) =>
      CONSTRAINT_ONLY.has(k) ||
      (k === 'properties' && isObject(v[k]) && Object.values(v[k]).every((p) => isObject(p) && Object.keys(p).every((pk) => pk === 'description'))),
  );

/** Render a default into the description so it reaches JSDoc as `@default`. */
function foldDefault(description: unknown, def: Json | undefined): string | undefined {
  const desc = typeof description === 'string' ? description : undefined;
  if (def === undefined) return desc;
  const tag = `@default ${JSON.stringify(def)}`;
  return desc ? `${desc}\n\n${tag}` : tag;
}

/** The schema projection json-schema-to-typescript sees for one type. */
export function projectForTs(r: Resolved, type: TypeInfo): { schema: JsonObject; refs: Set<TypeInfo> } {
  const refs = new Set<TypeInfo>();
  const visit = (node: Json, file: TypeInfo['file'], pointer: string, top: boolean, depth: number): Json => {
    if (!isObject(node)) return node;
    if (depth > 40) return {};
    if (typeof node['$ref'] === 'string') {
      const target = r.resolve(file, node['$ref'], pointer);
      const entry = r.entryAt(target.file, target.pointer);
      const extra: JsonObject = {};
      const description = foldDefault(node['description'], node['default']);
      if (description) extra['description'] = description;
      const siblings = Object.keys(node).filter((k) => !['$ref', 'description', 'default', 'title', '$comment'].includes(k) && !DROP.has(k));
      let replaced: JsonObject;
      if (entry && entry.title && entry.isType) {
        refs.add(entry);
        replaced = { tsType: entry.title };
      } else {
        const inlined = visit(target.node, target.file, target.pointer, false, depth + 1);
        replaced = isObject(inlined) ? inlined : {};
      }
      if (siblings.length) {
        const rest: JsonObject = {};
        for (const k of siblings) rest[k] = node[k] as Json;
        const restProjected = visit(rest, file, pointer, false, depth + 1);
        return { ...extra, allOf: [replaced, restProjected] };
      }
      return { ...replaced, ...extra };
    }
    const out: JsonObject = {};
    const notSchema = node['not'];
    if ((notSchema === true || (isObject(notSchema) && Object.keys(notSchema).length === 0)) && !Object.keys(node).some((k) => SHAPE_KEYS.has(k))) {
      const description = foldDefault(node['description'], node['default']);
      return description ? { tsType: 'never', description } : { tsType: 'never' };
    }
    if (!Object.keys(node).some((k) => SHAPE_KEYS.has(k))) {
      const description = foldDefault(node['description'], node['default']);
      return description ? { tsType: 'unknown', description } : { tsType: 'unknown' };
    }
    for (const [key, value] of Object.entries(node)) {
      if (DROP.has(key)) continue;
      if (key === 'title' && !top) continue;
      if (key === 'default') continue;
      if (key === 'description') continue;
      if (key === 'properties' || key === 'patternProperties') {
        const props: JsonObject = {};
        if (isObject(value))
          for (const [name, sub] of Object.entries(value))
            props[name] = visit(sub, file, `${pointer}/${key}/${escapePointer(name)}`, false, depth + 1);
        out[key] = props;
        continue;
      }
      if (key === 'const' || key === 'enum' || key === 'required' || key === 'type' || typeof value !== 'object' || value === null) {
        out[key] = value;
        continue;
      }
      if (Array.isArray(value)) {
        // oneOf/anyOf/allOf whose members only constrain presence (e.g. "subject/ref or body/ref required"): not a TS shape.
        if ((key === 'oneOf' || key === 'anyOf' || key === 'allOf') && value.every(isConstraintOnly)) continue;
        const items = value.map((v, i) => visit(v, file, `${pointer}/${key}/${i}`, false, depth + 1));
        if (key === 'allOf') {
          // allOf members that only carry rules TS cannot express (if/then, not, …) project to nothing.
          const kept = items.filter((v) => !(isObject(v) && (Object.keys(v).length === 0 || (v['tsType'] === 'unknown' && Object.keys(v).every((k) => k === 'tsType' || k === 'description')))));
          if (kept.length) out[key] = kept;
          continue;
        }
        out[key] = items;
        continue;
      }
      out[key] = visit(value, file, `${pointer}/${escapePointer(key)}`, false, depth + 1);
    }
    const description = foldDefault(node['description'], node['default']);
    if (description) out['description'] = description;
    if (node['unevaluatedProperties'] === false && !('additionalProperties' in node)) out['additionalProperties'] = false;
    if (isObject(node['properties']) && !('type' in out) && !('additionalProperties' in out)) out['additionalProperties'] = true;
    return out;
  };
  const schema = visit(type.schema, type.file, type.pointer, true, 0) as JsonObject;
  schema['title'] = type.title;
  return { schema, refs };
}

/**
 * Compile one projection (as json-schema-to-typescript writes it, tidied). The package (and prettier with it) is
 * imported on the first compile only, so a run whose declarations all come from the cache never loads it.
 */
export async function compileProjection(schema: JsonObject, title: string): Promise<string> {
  const { compile } = await import('json-schema-to-typescript');
  return (await compile(schema as never, title, J2TS_OPTIONS)).trim();
}

/** One type's declaration text and the titled types it mentions. */
export interface Declaration {
  readonly text: string;
  readonly refs: ReadonlySet<TypeInfo>;
}

/** Type title → its declaration, for every type of the resolved corpus. */
export type Declarations = ReadonlyMap<string, Declaration>;

/** One projection to compile (the worker answers with the texts in job order). */
export interface DeclareJob {
  readonly title: string;
  readonly schema: JsonObject;
}

/** How the projections that missed the cache are compiled: in this thread, one after another, by default. */
export type CompileMisses = (jobs: readonly DeclareJob[]) => Promise<readonly string[]>;

const inThisThread: CompileMisses = async (jobs) => {
  const texts: string[] = [];
  for (const j of jobs) texts.push(await compileProjection(j.schema, j.title));
  return texts;
};

/**
 * Compile the misses in a worker thread, so that loading json-schema-to-typescript and prettier (a good part of a
 * one-shot `gen` after an edit) happens on another core while the main thread goes on. Rejects with the worker's error
 * (its message and code, so a missing package reads the same). A gen that stops early (a corpus it refuses) does not
 * wait for it.
 */
export const inWorkerThread: CompileMisses = (jobs) => runWorker<readonly string[]>(siblingModule(import.meta.url, 'declare-worker'), jobs, 'declarations', { unref: true });

/**
 * Compile every type's declaration (in corpus order). With a `cache` (projection text → declaration text), a type whose
 * projection was compiled before is not compiled again: watch mode keeps one in memory across runs, so an edit
 * recompiles only the types whose projection it changed, and `gen` uses the disk cache of generator/work-cache.ts
 * (salted with this module's source and json-schema-to-typescript's packages, which hold everything else the text
 * depends on). The misses are compiled by `compile` (default: in this thread; `gen` passes {@link inWorkerThread}),
 * which is not started when everything is cached.
 */
export async function declareTypes(r: Resolved, cache?: TextCache, compile: CompileMisses = inThisThread): Promise<Declarations> {
  const projected = r.types.map((t) => {
    const { schema, refs } = projectForTs(r, t);
    const key = `${t.title}\n${JSON.stringify(schema)}`;
    return { t, schema, refs, key, text: cache?.get(key) };
  });
  const misses = projected.filter((p) => p.text === undefined);
  const compiled = misses.length ? await compile(misses.map((m) => ({ title: m.t.title, schema: m.schema }))) : [];
  misses.forEach((m, i) => {
    m.text = compiled[i]!;
    cache?.set(m.key, m.text);
  });
  return new Map(projected.map((p) => [p.t.title, { text: p.text!, refs: p.refs }]));
}

/** The disk cache of declarations (undefined when caching is off), salted with this module and its packages. */
export const declarationDiskCache = (): TextCache | undefined => diskCache('declarations', import.meta.url, 4000);
