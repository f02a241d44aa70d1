/**
 * Emitter: `generated/site-data/` — everything the site renders about the schemas, so it never re-reads them:
 * fields, types, required, enums, defaults, descriptions, x-runtime-rules, links between definitions, the examples
 * (invalid ones with their expected failure) and the generated TypeScript declaration text. The shapes are the
 * site-data format types (site-data-format.ts), shared with the site; prose: docs/generator.md.
 */
import type { EmittedFile, Example, Json, JsonObject, SchemaFile } from '../model.ts';
import { isObject, type Resolved, type TypeInfo } from '../resolve.ts';
import { GENERATED, SITE_DATA_INDEX, assertName, isName, siteDataName, validatorName } from '../naming.ts';
import { escapePointer } from '../errors.ts';
import type { Declarations } from './ts-declarations.ts';
import type {
  Conditional, Definition, DefinitionKind, Field, IndexEntry, InvalidExample, Link, RuntimeRule, SchemaDoc, SiteDataFormatVersion, SiteIndex, TypeIndexEntry,
  TypeLocation, ValidExample, Variant,
} from '../site-data-format.ts';
import { byCodeUnits } from '../order.ts';

export const SITE_DATA_FORMAT_VERSION: SiteDataFormatVersion = 1;

const CONSTRAINT_KEYS = ['minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'contains', 'propertyNames', 'not'];

const dataPath = (f: SchemaFile): string => siteDataName(f.family, f.stem);
const nullable = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
const byTitle = (a: Link, b: Link): number => byCodeUnits(a.title ?? '', b.title ?? '') || byCodeUnits(a.data, b.data);

function linkTo(r: Resolved, file: SchemaFile, pointer: string): Link {
  const e = r.entryAt(file, pointer);
  if (e) return { title: e.title || null, family: file.family, stem: file.stem, def: e.defName, anchor: e.title || null, data: dataPath(file) };
  const owner = r.ownerOf(file, pointer);
  return { title: null, family: file.family, stem: file.stem, def: owner?.defName ?? '', anchor: owner?.title || null, data: dataPath(file), pointer };
}

function constraintsOf(s: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of CONSTRAINT_KEYS) if (k in s) out[k] = s[k] as Json;
  return out;
}

/** A short human type expression, and the links it mentions. */
function typeText(r: Resolved, file: SchemaFile, s: Json, pointer: string, refs: Link[], depth = 0): string {
  if (s === true || (isObject(s) && Object.keys(s).every((k) => k === 'description' || k === 'default' || k === 'title'))) return 'any';
  if (s === false) return 'never';
  if (!isObject(s) || depth > 6) return 'any';
  if (typeof s['$ref'] === 'string') {
    const t = r.tryResolve(file, s['$ref']);
    if (!t) return `$ref ${s['$ref']}`;
    const link = linkTo(r, t.file, t.pointer);
    refs.push(link);
    return link.title ?? typeText(r, t.file, t.node, t.pointer, refs, depth + 1);
  }
  if ('const' in s) return JSON.stringify(s['const']);
  if (Array.isArray(s['enum'])) return s['enum'].map((v) => JSON.stringify(v)).join(' | ');
  for (const k of ['oneOf', 'anyOf'] as const) {
    const alts = s[k];
    if (Array.isArray(alts)) return alts.map((a, i) => typeText(r, file, a, `${pointer}/${k}/${i}`, refs, depth + 1)).join(' | ');
  }
  if (Array.isArray(s['allOf']) && !s['type'] && !s['properties']) {
    const parts = s['allOf'].map((a, i) => typeText(r, file, a, `${pointer}/allOf/${i}`, refs, depth + 1)).filter((t) => t !== 'any');
    return parts.length ? parts.join(' & ') : 'any';
  }
  const types = Array.isArray(s['type']) ? (s['type'] as string[]) : typeof s['type'] === 'string' ? [s['type']] : [];
  const render = (t: string): string => {
    if (t === 'array') {
      const item = s['items'] === undefined ? 'any' : typeText(r, file, s['items'], `${pointer}/items`, refs, depth + 1);
      return /[ |&]/.test(item) ? `(${item})[]` : `${item}[]`;
    }
    if (t === 'object') {
      if (isObject(s['properties'])) return 'object';
      const ap = s['additionalProperties'];
      if (isObject(ap)) return `map<string, ${typeText(r, file, ap, `${pointer}/additionalProperties`, refs, depth + 1)}>`;
      return 'object';
    }
    if (t === 'string' && typeof s['format'] === 'string') return `string (${s['format']})`;
    return t;
  };
  if (types.length) return types.map(render).join(' | ');
  if (isObject(s['properties'])) return 'object';
  return 'any';
}

function kindOf(s: JsonObject): DefinitionKind {
  if (typeof s['$ref'] === 'string') return 'ref';
  if ('const' in s) return 'const';
  if (Array.isArray(s['enum'])) return 'enum';
  if (Array.isArray(s['oneOf']) || Array.isArray(s['anyOf'])) return s['type'] === 'object' && isObject(s['properties']) ? 'object' : 'union';
  // A schema's `type` is one of the JSON Schema type names (the gen precondition meta-validates every schema).
  if (typeof s['type'] === 'string') return s['type'] as DefinitionKind;
  if (isObject(s['properties'])) return 'object';
  return 'any';
}

function openness(s: JsonObject): Definition['open'] {
  const isObj = s['type'] === 'object' || isObject(s['properties']);
  if (!isObj) return null;
  const v = 'additionalProperties' in s ? s['additionalProperties'] : s['unevaluatedProperties'];
  if (v === false) return false;
  if (v === true) return true;
  if (isObject(v)) return 'schema';
  return null;
}

function discriminatorOf(r: Resolved, file: SchemaFile, branch: Json): Variant['discriminator'] {
  let s = branch;
  let f = file;
  if (isObject(s) && typeof s['$ref'] === 'string') {
    const t = r.tryResolve(file, s['$ref']);
    if (!t) return null;
    s = t.node;
    f = t.file;
  }
  void f;
  if (!isObject(s) || !isObject(s['properties'])) return null;
  for (const [name, p] of Object.entries(s['properties'])) if (isObject(p) && 'const' in p) return { property: name, value: p['const'] as Json };
  return null;
}

function conditionalsOf(s: JsonObject): Conditional[] {
  const out: Conditional[] = [];
  const add = (n: Json) => {
    if (isObject(n) && 'if' in n) out.push({ if: n['if'] as Json, then: nullable(n['then'] as Json | undefined), else: nullable(n['else'] as Json | undefined) });
  };
  add(s);
  if (Array.isArray(s['allOf'])) s['allOf'].forEach(add);
  return out;
}

function examplesOf(examples: readonly Example[], family: string, target: string): Definition['examples'] {
  const mine = examples.filter((e) => e.family === family && e.target === target);
  const name = (e: Example) => e.path.slice(e.path.lastIndexOf('/') + 1, -'.json'.length);
  const sort = (a: Example, b: Example) => byCodeUnits(name(a), name(b));
  return {
    valid: mine.filter((e) => e.kind === 'valid').sort(sort).map((e): ValidExample => ({ name: name(e), path: e.path, instance: e.instance })),
    invalid: mine
      .filter((e) => e.kind === 'invalid')
      .sort(sort)
      .map((e): InvalidExample => ({ name: name(e), path: e.path, description: e.description ?? '', expect: { instancePath: e.expect?.instancePath ?? '', keyword: e.expect?.keyword ?? '' }, instance: e.instance })),
  };
}

export function emitSiteData(r: Resolved, declarations: Declarations): readonly EmittedFile[] {
  return emitSiteDataOf(r, declarations);
}

/**
 * The site data with the documents of the schema files `only` (repository paths; all when omitted) and the catalogue.
 * A document shows its own file, its examples, the declarations of its types and the titles of what it references and
 * what references it, so watch mode re-emits the edited files, the files they reference (before and after the edit)
 * and the files that reference them (transitively); the catalogue always.
 */
export function emitSiteDataOf(corpus: Resolved, declarations: Declarations, only?: ReadonlySet<string>): EmittedFile[] {
  // The first major only: the site's schema pages show one major (a later major's changes: the v1 → v2 migration page).
  const r = corpus.firstMajorOnly();
  const graph = r.referenceGraph();
  const referencedBy = new Map<TypeInfo, TypeInfo[]>();
  for (const [from, tos] of graph) for (const to of tos) referencedBy.set(to, [...(referencedBy.get(to) ?? []), from]);
  const files: EmittedFile[] = [];
  const families = new Map<string, IndexEntry[]>();
  const typesIndex: Record<string, TypeLocation> = {};
  const sortedSchemas = [...r.corpus.schemas].sort((a, b) => byCodeUnits(a.family, b.family) || byCodeUnits(a.stem, b.stem));
  for (const file of sortedSchemas) {
    const entries: TypeInfo[] = [];
    const root = r.entryAt(file, '');
    if (root) entries.push(root);
    const defs = file.schema['$defs'];
    if (isObject(defs)) for (const name of Object.keys(defs)) { const e = r.entryAt(file, `/$defs/${escapePointer(name)}`); if (e) entries.push(e); }
    // What the catalogue and the document both say about the file, in this key order.
    const about = {
      stem: file.stem,
      fileName: file.fileName,
      path: file.path,
      id: file.id,
      title: typeof file.schema['title'] === 'string' ? file.schema['title'] : '',
      description: typeof file.schema['description'] === 'string' ? file.schema['description'] : '',
    };
    const list = families.get(file.family) ?? [];
    list.push({
      ...about,
      data: dataPath(file),
      definitions: entries.map((e) => ({ title: e.title, def: e.defName, target: e.target, anchor: e.title })),
    });
    families.set(file.family, list);
    for (const e of entries)
      if (e.title) typesIndex[e.title] = { family: file.family, stem: file.stem, def: e.defName, anchor: e.title, data: dataPath(file) };
    if (only && !only.has(file.path)) continue;
    const definitions = entries.map((e): Definition => {
      const s = e.schema;
      const required = Array.isArray(s['required']) ? (s['required'] as string[]) : [];
      const fields = isObject(s['properties'])
        ? Object.entries(s['properties']).map(([name, p]): Field => {
            const refs: Link[] = [];
            const ptr = `${e.pointer}/properties/${escapePointer(name)}`;
            const ps = isObject(p) ? p : {};
            const tt = typeText(r, file, p, ptr, refs);
            return {
              name,
              pointer: `/properties/${escapePointer(name)}`,
              required: required.includes(name),
              description: typeof ps['description'] === 'string' ? ps['description'] : '',
              typeText: tt,
              refs: dedupe(refs),
              enum: Array.isArray(ps['enum']) ? ps['enum'] : null,
              const: 'const' in ps ? (ps['const'] as Json) : null,
              default: 'default' in ps ? (ps['default'] as Json) : null,
              format: typeof ps['format'] === 'string' ? ps['format'] : null,
              constraints: constraintsOf(ps),
            };
          })
        : [];
      const alts = Array.isArray(s['oneOf']) ? s['oneOf'] : Array.isArray(s['anyOf']) ? s['anyOf'] : [];
      const altKey = Array.isArray(s['oneOf']) ? 'oneOf' : 'anyOf';
      const variants = alts.map((a, i): Variant => {
        const refs: Link[] = [];
        const tt = typeText(r, file, a, `${e.pointer}/${altKey}/${i}`, refs);
        return { typeText: tt, refs: dedupe(refs), discriminator: discriminatorOf(r, file, a) };
      });
      const topRefs: Link[] = [];
      const tt = e.isType ? typeText(r, file, s, e.pointer, topRefs) : 'container';
      const typeIndex = isObject(s['x-type-index'])
        ? Object.entries(s['x-type-index']).map(([value, ptr]): TypeIndexEntry => {
            const t = typeof ptr === 'string' ? r.tryResolve(file, ptr) : undefined;
            // Copied as written; lint rule type-index holds every pointer to a string.
            return { value, pointer: ptr as string, ref: t ? linkTo(r, t.file, t.pointer) : null };
          })
        : [];
      const refsOut = [...(graph.get(e) ?? [])].map((t) => linkTo(r, t.file, t.pointer)).sort(byTitle);
      const refByOut = [...(referencedBy.get(e) ?? [])].map((t) => linkTo(r, t.file, t.pointer)).sort(byTitle);
      // Copied as written; lint rule runtime-rules holds every entry to {id, text, source}.
      const rules = Array.isArray(s['x-runtime-rules']) ? (s['x-runtime-rules'] as unknown as RuntimeRule[]) : [];
      const hasType = e.isType && !!e.title;
      return {
        def: e.defName,
        title: e.title,
        anchor: e.title,
        pointer: e.pointer,
        target: e.target,
        isType: e.isType,
        description: typeof s['description'] === 'string' ? s['description'] : '',
        source: typeof s['x-source'] === 'string' ? s['x-source'] : null,
        kind: e.isType ? kindOf(s) : 'container',
        typeText: tt,
        open: openness(s),
        enum: Array.isArray(s['enum']) ? s['enum'] : null,
        const: 'const' in s ? (s['const'] as Json) : null,
        default: 'default' in s ? (s['default'] as Json) : null,
        format: typeof s['format'] === 'string' ? s['format'] : null,
        constraints: constraintsOf(s),
        fields,
        variants,
        conditionals: conditionalsOf(s),
        runtimeRules: rules,
        typeIndex,
        references: refsOut,
        referencedBy: refByOut,
        typescript: hasType ? (declarations.get(e.title)?.text ?? '') : '',
        validator: hasType ? validatorName(e.title) : null,
        guards: hasType ? { is: isName(e.title), assert: assertName(e.title) } : null,
        examples: examplesOf(r.corpus.examples, file.family, e.target),
      };
    });
    const doc: SchemaDoc = {
      formatVersion: SITE_DATA_FORMAT_VERSION,
      family: file.family,
      ...about,
      source: typeof file.schema['x-source'] === 'string' ? file.schema['x-source'] : null,
      schema: file.schema,
      definitions,
    };
    files.push({ path: `${GENERATED.siteData}${dataPath(file)}`, contents: JSON.stringify(doc, null, 2) + '\n' });
  }
  const sortedTypes: Record<string, TypeLocation> = {};
  for (const k of Object.keys(typesIndex).sort()) sortedTypes[k] = typesIndex[k] as TypeLocation;
  const index: SiteIndex = {
    formatVersion: SITE_DATA_FORMAT_VERSION,
    families: [...families.keys()].sort().map((name) => ({ name, schemas: families.get(name) ?? [] })),
    types: sortedTypes,
  };
  files.push({ path: `${GENERATED.siteData}${SITE_DATA_INDEX}`, contents: JSON.stringify(index, null, 2) + '\n' });
  return files;
}

function dedupe(links: Link[]): Link[] {
  const seen = new Set<string>();
  return links.filter((l) => {
    const k = `${l.data}#${l.def}#${l.pointer ?? ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  }).sort(byTitle);
}
