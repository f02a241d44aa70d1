/**
 * Stage 3, lint: the corpus rules of docs/CONVENTIONS.md as a table, and the example check. Pure: resolved corpus in,
 * findings out. Each rule is `{id, doc, check}`; the `doc` lines are the rule list of docs/generator.md (a test keeps
 * the two equal). `assertGeneratable` is the part of lint that `gen` enforces before it emits.
 */
import { routeTableViolations } from './route-table.ts';
import type { Example, Json, JsonObject, LoadedCorpus, MajorTableFile, SchemaFile } from './model.ts';
import { DRAFT_2020_12, createAjv } from './ajv.ts';
import { Resolved, isObject, walkSchema, type RefSite, type TypeInfo } from './resolve.ts';
import { FILE_STEM, MAJOR_PATTERN as MAJOR, RESERVED_TITLES, RUNTIME_RULE_ID, TYPE_IDENTIFIER, examplePath, exampleSchemaRef, firstMajorOf, folderName, parseExampleTarget, schemaId } from './naming.ts';
import { PASCAL_CASE, SETTINGS_FILE, SETTINGS_KEY, typeNamePattern } from './corpus-config.ts';
import { CorpusProblems, escapePointer } from './errors.ts';
import { danglingRefMessage } from './ref-suggestion.ts';
import { failureMessage } from './failure-message.ts';
import { metaViolations, metaViolationsOf } from './load.ts';
import { invalidPatterns, pointerInAjvMessage, unknownKeywords } from './meta-messages.ts';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { jsonLocator, type Position } from './json-locate.ts';
import { DIRECTIONS, DIRECTION_KEYWORD, isDirection } from './compat/direction.ts';
import { byCodeUnits } from './order.ts';

export interface Finding {
  file: string;
  pointer: string;
  rule: string;
  message: string;
  /** 1-based line and column in the file, when known (of the pointer, or of a JSON syntax error). */
  line?: number;
  column?: number;
}

/** What a rule's check reports: where and what (the table adds the rule id). */
export interface Problem {
  readonly file: string;
  readonly pointer: string;
  readonly message: string;
  /** Where in the file, when the check knows better than the pointer (a syntax error). */
  readonly position?: Position;
}

export interface LintRule {
  readonly id: string;
  /** One line: what the rule requires (rendered into docs/generator.md). */
  readonly doc: string;
  readonly check: (r: Resolved) => Problem[];
}

/** Subschemas whose openness is decided by the schema they compose into. */
const COMPOSED = new Set(['if', 'then', 'else', 'not', 'contains', 'propertyNames', 'dependentSchemas', 'allOf', 'anyOf', 'oneOf']);

function isObjectSchema(n: JsonObject): boolean {
  const t = n['type'];
  return isObject(n['properties']) || t === 'object' || (Array.isArray(t) && t.includes('object'));
}

/** Where a pointer sits directly under a composition keyword (`.../allOf/0`, `.../if`). */
function composedParent(pointer: string): boolean {
  const segs = pointer.split('/');
  const last = segs.at(-1) ?? '';
  const prev = segs.at(-2) ?? '';
  return COMPOSED.has(last) || (/^\d+$/.test(last) && COMPOSED.has(prev));
}

/** The root and every `$defs` entry of a schema file as written (also entries that are not objects), with their pointers. */
function rawEntries(file: SchemaFile): [string, Json][] {
  const s = file.schema;
  const entries: [string, Json][] = [['', s]];
  if (isObject(s['$defs'])) for (const [n, d] of Object.entries(s['$defs'])) entries.push([`/$defs/${escapePointer(n)}`, d]);
  return entries;
}

/** Every object root or `$defs` entry of the corpus, in corpus order. */
function* objectEntries(corpus: LoadedCorpus): Generator<{ file: SchemaFile; ptr: string; node: JsonObject }> {
  for (const file of corpus.schemas) for (const [ptr, node] of rawEntries(file)) if (isObject(node)) yield { file, ptr, node };
}

/** Every subschema of every file (as the ref walk sees them). */
function* subschemas(corpus: LoadedCorpus): Generator<{ file: SchemaFile; pointer: string; node: JsonObject }> {
  for (const file of corpus.schemas) {
    const found: { file: SchemaFile; pointer: string; node: JsonObject }[] = [];
    walkSchema(file.schema, '', (node, pointer) => found.push({ file, pointer, node }));
    yield* found;
  }
}

/** A `$ref` with a scheme (`https:`, `urn:`): the corpus writes relative refs only. */
const isAbsoluteRef = (site: RefSite): boolean => /^[a-z][a-z0-9+.-]*:/i.test(site.ref);
/** Relative `$ref`s that do not resolve offline. */
const danglingRelativeRefs = (r: Resolved): RefSite[] => r.refSites.filter((site) => !isAbsoluteRef(site) && !r.tryResolve(site.file, site.ref));

type TitleRule = 'title' | 'title-reserved' | 'title-unique';
/**
 * The title problems of every root and `$defs` entry, in corpus order: titles name every generated type, validator and
 * guard, so `gen` refuses a corpus with any of them (a missing title would silently drop a type; a duplicate would
 * declare two types with one name).
 */
function titleProblems(corpus: LoadedCorpus): (Problem & { rule: TitleRule })[] {
  const out: (Problem & { rule: TitleRule })[] = [];
  const titles = new Map<string, string>();
  const rule = typeNamePattern(corpus.config);
  const wanted = corpus.config.typeName === PASCAL_CASE ? 'a PascalCase "title"' : `a "title" that is an identifier matching /${corpus.config.typeName}/ (the typeName setting)`;
  for (const { file, ptr, node } of objectEntries(corpus)) {
    const title = node['title'];
    const at = { file: file.path, pointer: `${ptr}/title` };
    if (typeof title !== 'string' || !rule.test(title) || !TYPE_IDENTIFIER.test(title))
      out.push({ ...at, rule: 'title', message: `every root schema and $defs entry needs ${wanted} (it names the generated type)` });
    else if (RESERVED_TITLES.has(title))
      out.push({ ...at, rule: 'title-reserved', message: `title "${title}" would collide with a name the generated code declares or uses; choose a more specific title` });
    else if (titles.has(title)) out.push({ ...at, rule: 'title-unique', message: `title "${title}" is already used by ${titles.get(title)}` });
    else titles.set(title, `${file.path}#${ptr}`);
  }
  return out;
}
const titleRule = (rule: TitleRule) => (r: Resolved): Problem[] => titleProblems(r.corpus).filter((p) => p.rule === rule);

/** The `$id` a schema file must have: the corpus's `$id` base, then its path under `schemas/` (undefined: no base known). */
export const expectedId = (corpus: LoadedCorpus, f: SchemaFile): string | undefined => (corpus.idBase === undefined ? undefined : schemaId(corpus.idBase, f, f.fileName));

/**
 * The `$schema` an example must name for editors: its target's `$id` as the id-base rule requires it (so that
 * `lint --fix`, which writes this, never writes what lint refuses), with `#/$defs/<Name>` for a `$defs` target.
 * Undefined when the example has no schema file.
 */
export function exampleSchemaOf(corpus: LoadedCorpus, ex: Example): string | undefined {
  const { stem } = parseExampleTarget(ex.target);
  const owner = corpus.schemas.find((s) => s.family === ex.family && s.major === ex.major && s.stem === stem);
  if (owner === undefined) return undefined;
  return exampleSchemaRef(expectedId(corpus, owner) ?? owner.id, ex.defName);
}

/** Two schema files with one stem: generated modules are named by stem (generated/ts/<stem>.ts), so one would overwrite the other. */
function stemProblems(corpus: LoadedCorpus): Problem[] {
  const seen = new Map<string, SchemaFile>();
  const out: Problem[] = [];
  for (const f of corpus.schemas) {
    const first = seen.get(`${f.major}/${f.stem}`);
    if (first === undefined) seen.set(`${f.major}/${f.stem}`, f);
    else out.push({ file: f.path, pointer: '', message: `file name "${f.fileName}" is already used by ${first.path} (a major's generated modules are named by file stem, one per major)` });
  }
  return out;
}

/** x-type-index objects anywhere in a file. */
function typeIndexProblems(r: Resolved): Problem[] {
  const out: Problem[] = [];
  for (const { file, pointer, node } of subschemas(r.corpus)) {
    if (!('x-type-index' in node)) continue;
    const idx = node['x-type-index'];
    const at = `${pointer}/x-type-index`;
    if (!isObject(idx)) {
      out.push({ file: file.path, pointer: at, message: 'x-type-index must be an object {wire value: "#/$defs/Name"}' });
      continue;
    }
    for (const [value, target] of Object.entries(idx)) {
      const p = `${at}/${escapePointer(value)}`;
      if (typeof target !== 'string') out.push({ file: file.path, pointer: p, message: 'x-type-index values must be "#/$defs/<Name>" strings' });
      else if (!r.tryResolve(file, target)) out.push({ file: file.path, pointer: p, message: `x-type-index pointer "${target}" does not resolve` });
    }
  }
  return out;
}

/** The keywords Ajv2020 in strict mode knows, with the corpus's annotation keywords (for unknown-keyword checks). */
let knownKeywords: ReadonlySet<string> | undefined;
const strictKeywords = (ajv: Ajv2020): ReadonlySet<string> =>
  (knownKeywords ??= new Set(Object.keys((ajv as unknown as { RULES: { keywords: Record<string, unknown> } }).RULES.keywords)));

/** An Ajv strict-mode failure as a problem: at the pointer its message names, else at `fallback`. */
const strictProblem = (file: SchemaFile, e: unknown, fallback: string): Problem => {
  const message = (e as Error).message;
  return { file: file.path, pointer: pointerInAjvMessage(message) || fallback, message: `Ajv2020 strict mode rejects the schema: ${message}` };
};

/**
 * Every schema through Ajv2020 in strict mode. A keyword strict mode does not know is reported at its pointer with a
 * did-you-mean, and a pattern that is not a valid regular expression at its pointer (Ajv names only the first one,
 * without a place); a file with one is not compiled. The other files
 * are added (those that are valid 2020-12 schemas), then each root and `$defs` entry compiled (files that reach a dangling
 * relative `$ref` or a file not added are skipped: the root cause is reported); Ajv's message is kept, at the pointer it
 * mentions.
 */
function strictCompileProblems(r: Resolved): Problem[] {
  const out: Problem[] = [];
  const ajv = createAjv();
  const added: SchemaFile[] = [];
  for (const file of r.corpus.schemas) {
    if (metaViolationsOf(ajv, file).length) continue; // reported as meta-schema
    const precise = [...unknownKeywords(file.schema, strictKeywords(ajv)), ...invalidPatterns(file.schema)];
    if (precise.length) {
      out.push(...precise.map((u) => ({ file: file.path, ...u })));
      continue;
    }
    try {
      ajv.addSchema(file.schema as object);
      added.push(file);
    } catch (e) {
      out.push(strictProblem(file, e, ''));
    }
  }
  // Files that reach (through $refs) one that is not added cannot compile: their root cause is reported already.
  const unusable = new Set([...danglingRelativeRefs(r).map((site) => site.file.path), ...r.corpus.schemas.filter((f) => !added.includes(f)).map((f) => f.path)]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const site of r.refSites) {
      const target = r.tryResolve(site.file, site.ref);
      if (target && unusable.has(target.file.path) && !unusable.has(site.file.path)) grew = Boolean(unusable.add(site.file.path));
    }
  }
  for (const file of added) {
    if (unusable.has(file.path)) continue;
    const targets = [file.id, ...(isObject(file.schema['$defs']) ? Object.keys(file.schema['$defs']).map((n) => `${file.id}#/$defs/${escapePointer(n)}`) : [])];
    for (const t of targets) {
      try {
        ajv.getSchema(t);
      } catch (e) {
        out.push(strictProblem(file, e, t.includes('#') ? t.slice(t.indexOf('#') + 1) : ''));
        break;
      }
    }
  }
  return out;
}

/** The rules, in the order docs/generator.md lists them. */
export const LINT_RULES: readonly LintRule[] = [
  {
    id: 'loads',
    doc: 'Every schema and example file loads: well-formed JSON, a schema file holds an object, an invalid example is a `{description, expect, instance}` wrapper (a file that does not is one finding; the others are still checked).',
    check: (r) => [...(r.corpus.problems ?? [])],
  },
  {
    id: 'schema-draft',
    doc: '`$schema` is draft 2020-12.',
    check: (r) => r.corpus.schemas.filter((f) => f.schema['$schema'] !== DRAFT_2020_12).map((f) => ({ file: f.path, pointer: '/$schema', message: `"$schema" must be "${DRAFT_2020_12}"` })),
  },
  {
    id: 'id-base',
    doc: '`$id` is the one base (the `idBase` setting, else the base the corpus\'s `$id`s share) followed by `<family>/<major>/<file name>`.',
    check: (r) =>
      r.corpus.schemas.flatMap((f) => {
        const want = expectedId(r.corpus, f);
        if (want === undefined)
          return [{ file: f.path, pointer: '/$id', message: `"$id" must be the corpus's one base followed by "${folderName(f)}/${f.fileName}" (set the base as "idBase" in ${SETTINGS_FILE}#/${SETTINGS_KEY})` }];
        return f.schema['$id'] === want ? [] : [{ file: f.path, pointer: '/$id', message: `"$id" must be "${want}" (one base, named after the file)` }];
      }),
  },
  {
    id: 'file-name',
    doc: 'A schema file name is lowercase words joined by `-` or `.`, plus `.schema.json`.',
    check: (r) =>
      r.corpus.schemas
        .filter((f) => !FILE_STEM.test(f.stem))
        .map((f) => ({ file: f.path, pointer: '', message: `file name "${f.fileName}" must be lowercase words joined by "-" or "." plus ".schema.json" (kebab-case, or the wire schema id)` })),
  },
  {
    id: 'file-stem-unique',
    doc: 'No two schema files of one major share a file name, across families (a major\'s generated modules are named by it; each major has its own folders).',
    check: (r) => stemProblems(r.corpus),
  },
  {
    id: 'schema-discriminator',
    doc: 'A root `schema` property\'s `const` equals the file stem.',
    check: (r) =>
      r.corpus.schemas.flatMap((f) => {
        const props = f.schema['properties'];
        const d = isObject(props) && isObject(props['schema']) ? props['schema']['const'] : undefined;
        return typeof d === 'string' && d !== f.stem
          ? [{ file: f.path, pointer: '/properties/schema/const', message: `the "schema" discriminator "${d}" must equal the file stem "${f.stem}" (file name, $id and discriminator agree)` }]
          : [];
      }),
  },
  {
    id: 'meta-schema',
    doc: 'Every schema is a valid draft 2020-12 schema.',
    check: (r) => metaViolations(r.corpus),
  },
  {
    id: 'strict-compile',
    doc: 'Ajv2020 in strict mode accepts and compiles every schema.',
    check: strictCompileProblems,
  },
  {
    id: 'schema-shape',
    doc: 'The root and every `$defs` entry are objects.',
    check: (r) => r.corpus.schemas.flatMap((f) => rawEntries(f).filter(([, node]) => !isObject(node)).map(([ptr]) => ({ file: f.path, pointer: ptr, message: 'a schema or $defs entry must be an object' }))),
  },
  { id: 'title', doc: 'The root and every `$defs` entry have a `title` that is an identifier matching the `typeName` setting (default PascalCase; it names the generated type).', check: titleRule('title') },
  { id: 'title-reserved', doc: 'No title is a name the generated code declares or uses (`RESERVED_TITLES` in `generator/naming.ts`).', check: titleRule('title-reserved') },
  { id: 'title-unique', doc: 'No two titles are equal.', check: titleRule('title-unique') },
  {
    id: 'description',
    doc: 'The root and every `$defs` entry have a description.',
    check: (r) =>
      [...objectEntries(r.corpus)]
        .filter(({ node }) => typeof node['description'] !== 'string' || !node['description'].trim())
        .map(({ file, ptr }) => ({ file: file.path, pointer: `${ptr}/description`, message: 'every root schema and $defs entry needs a description' })),
  },
  {
    id: 'x-source',
    doc: '`x-source` is a string.',
    check: (r) =>
      [...objectEntries(r.corpus)]
        .filter(({ node }) => 'x-source' in node && typeof node['x-source'] !== 'string')
        .map(({ file, ptr }) => ({ file: file.path, pointer: `${ptr}/x-source`, message: 'x-source must be a string' })),
  },
  {
    id: 'direction',
    doc: 'Every schema file\'s root states `x-direction`: `request` (client-submitted), `response` (server-emitted) or `both`; a `$defs` entry may state its own (compat classifies changes by it).',
    check: (r) =>
      [...objectEntries(r.corpus)].flatMap(({ file, ptr, node }): Problem[] => {
        const value = node[DIRECTION_KEYWORD];
        if (value === undefined && ptr !== '') return [];
        if (isDirection(value)) return [];
        const at = `${ptr}/${DIRECTION_KEYWORD}`;
        return [{ file: file.path, pointer: at, message: `"${DIRECTION_KEYWORD}" must be ${DIRECTIONS.map((d) => `"${d}"`).join(', ')}${value === undefined ? ' (every schema file states which way its shape travels; compat classifies changes by it)' : `, not ${JSON.stringify(value)}`}` }];
      }),
  },
  {
    id: 'runtime-rules',
    doc: '`x-runtime-rules` is an array of `{id, text, source}` with kebab-case ids.',
    check: (r) =>
      [...objectEntries(r.corpus)].flatMap(({ file, ptr, node }): Problem[] => {
        if (!('x-runtime-rules' in node)) return [];
        const rules = node['x-runtime-rules'];
        const at = `${ptr}/x-runtime-rules`;
        if (!Array.isArray(rules)) return [{ file: file.path, pointer: at, message: 'x-runtime-rules must be an array of {id, text, source}' }];
        return rules.flatMap((rule, i) =>
          !isObject(rule) || typeof rule['id'] !== 'string' || !RUNTIME_RULE_ID.test(rule['id']) || typeof rule['text'] !== 'string' || typeof rule['source'] !== 'string'
            ? [{ file: file.path, pointer: `${at}/${i}`, message: 'each x-runtime-rules entry needs a kebab-case "id", a "text" and a "source"' }]
            : [],
        );
      }),
  },
  {
    id: 'property-description',
    doc: 'Every property has a description (except inside `if`, `not` and `contains`, which only test).',
    check: (r) =>
      [...subschemas(r.corpus)].flatMap(({ file, pointer, node }) =>
        isObject(node['properties']) && !/\/(if|not|contains)(\/|$)/.test(pointer)
          ? Object.entries(node['properties'])
              .filter(([, p]) => !isObject(p) || typeof p['description'] !== 'string' || !p['description'].trim())
              .map(([name]) => ({ file: file.path, pointer: `${pointer}/properties/${escapePointer(name)}`, message: `property "${name}" has no description` }))
          : [],
      ),
  },
  {
    id: 'object-openness',
    doc: 'Every object schema states `additionalProperties` or `unevaluatedProperties` (open or closed); subschemas under `if/then/else/not/contains` and composition members are exempt.',
    check: (r) =>
      [...subschemas(r.corpus)]
        .filter(({ pointer, node }) => isObjectSchema(node) && !('additionalProperties' in node) && !('unevaluatedProperties' in node) && !composedParent(pointer) && !/\/(if|then|else|not|contains)(\/|$)/.test(pointer))
        .map(({ file, pointer }) => ({ file: file.path, pointer, message: 'object schema must state "additionalProperties" (or "unevaluatedProperties") explicitly: open or closed' })),
  },
  {
    id: 'ref-relative',
    doc: 'Every `$ref` is relative (`./file.schema.json#/$defs/X`).',
    check: (r) => r.refSites.filter(isAbsoluteRef).map((s) => ({ file: s.file.path, pointer: `${s.pointer}/$ref`, message: `"$ref" must be relative (./file.schema.json#/$defs/X), not "${s.ref}"` })),
  },
  {
    id: 'ref-resolves',
    doc: 'Every relative `$ref` resolves offline.',
    check: (r) => danglingRelativeRefs(r).map((s) => ({ file: s.file.path, pointer: `${s.pointer}/$ref`, message: danglingRefMessage(r, s.file, s.ref) })),
  },
  {
    id: 'type-index',
    doc: '`x-type-index` maps wire values to `#/$defs/<Name>` pointers that resolve.',
    check: typeIndexProblems,
  },
  {
    id: 'example-target',
    doc: 'Every example directory names a schema or `$defs` entry (`<stem>` or `<stem>--<DefName>`).',
    check: (r) => {
      const targets = new Set([...r.entries.values()].map((e) => `${folderName(e.file)}/${e.target}`));
      return r.corpus.examples
        .filter((ex) => !targets.has(`${folderName(ex)}/${ex.target}`))
        .map((ex) => ({ file: ex.path, pointer: '', message: `example directory "${ex.target}" names no schema or $defs entry (expected <stem> or <stem>--<DefName>)` }));
    },
  },
  {
    id: 'example-schema',
    doc: 'Every example whose instance is an object names its target for editors in a top-level `$schema` (an invalid example: in its `instance`): the target\'s `$id`, with `#/$defs/<Name>` for a `$defs` target.',
    check: (r) =>
      r.corpus.examples.flatMap((ex): Problem[] => {
        if (!isObject(ex.instance) || !ex.schemaId) return [];
        const want = exampleSchemaOf(r.corpus, ex);
        if (want === undefined || ex.declaredSchema === want) return [];
        const at = ex.kind === 'invalid' ? '/instance/$schema' : '/$schema';
        return [{ file: ex.path, pointer: at, message: `${ex.declaredSchema === undefined ? 'no "$schema"' : `"$schema" is ${JSON.stringify(ex.declaredSchema)}`}; editors validate the example against "${want}" when it says so (add "$schema": "${want}" as the first key, or run wopkit lint --fix)` }];
      }),
  },
  {
    id: 'examples-present',
    doc: 'Every root type and every object `$defs` entry has a valid and an invalid example.',
    check: (r) =>
      [...r.entries.values()]
        .filter((t) => t.isType && (t.defName === '' || isObjectSchema(t.schema)))
        .flatMap((t) => {
          const mine = r.corpus.examples.filter((e) => e.family === t.file.family && e.major === t.file.major && e.target === t.target);
          return (['valid', 'invalid'] as const)
            .filter((kind) => !mine.some((e) => e.kind === kind))
            .map((kind) => ({ file: t.file.path, pointer: t.pointer, message: `no ${kind} example for ${t.title || t.target} (expected ${examplePath(t.file, t.target, kind, '*.json')})` }));
        }),
  },
  {
    id: 'route-table',
    doc: 'Every route table (`schemas/<family>/v1/routes.json`) matches `generator/route-table-schema.ts`; its schema titles name corpus types, its parameters are declared, no route name or method + path is written twice, and every table declares the same common errors.',
    check: (r) => routeTableViolations(r.corpus.routeTables ?? [], (title) => r.typeByTitle(title) !== undefined).map(([file, pointer, message]) => ({ file, pointer, message })),
  },
  {
    id: 'majors-table',
    doc: 'Every table of what differs between majors (`schemas/<family>/majors/<name>.json`) matches the schema beside it (`<name>.schema.json`), and no name of a major occurs in two of its rows.',
    check: (r) => {
      const tables = r.corpus.majorTables ?? [];
      // the tables' schemas in one Ajv (one may reference another by its relative $id)
      const ajv = createAjv({ allErrors: true });
      for (const t of tables) if (t.schema !== undefined && typeof t.schema['$id'] === 'string' && !ajv.getSchema(t.schema['$id'])) ajv.addSchema(t.schema);
      return tables.flatMap((t) => majorTableProblems(t, ajv));
    },
  },
];

/** One majors table against its schema (Ajv, every error at its pointer), then each major's names unique across rows. */
function majorTableProblems(t: MajorTableFile, ajv: Ajv2020): Problem[] {
  const out: Problem[] = [];
  if (t.schema !== undefined) {
    let validate: ReturnType<Ajv2020['compile']> | undefined;
    try {
      validate = typeof t.schema['$id'] === 'string' ? ajv.getSchema(t.schema['$id']) : ajv.compile(t.schema);
    } catch (e) {
      out.push({ file: t.path, pointer: '', message: `its schema does not compile: ${(e as Error).message}` });
    }
    if (validate && !validate(t.data)) for (const e of validate.errors ?? []) out.push({ file: t.path, pointer: e.instancePath, message: `${e.message ?? e.keyword} [${e.keyword}]` });
  }
  const rows = Array.isArray(t.data['rows']) ? t.data['rows'] : [];
  const earliest = firstMajorOf(rows.flatMap((row) => (isObject(row) ? Object.keys(row).filter((k) => MAJOR.test(k)) : [])));
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    if (!isObject(row)) return;
    for (const [major, v] of Object.entries(row)) {
      const name = typeof v === 'string' ? v : isObject(v) && typeof v['code'] === 'string' ? v['code'] : undefined;
      if (!MAJOR.test(major) || name === undefined) continue;
      const first = seen.get(`${major} ${name}`);
      // an error table may map several earlier codes to one later code: only the earliest major's names must be unique
      if (first !== undefined && (typeof v === 'string' || major === earliest)) out.push({ file: t.path, pointer: `/rows/${i}/${major}`, message: `${major} name "${name}" is already in row ${first}` });
      else if (first === undefined) seen.set(`${major} ${name}`, i);
    }
  });
  return out;
}

const byLocation = (a: Finding, b: Finding): number => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : byCodeUnits(a.rule, b.rule));

/** A finding with the line and column of its position. */
const placed = (f: Finding, at: Position | undefined): Finding => (at ? { ...f, line: at.line, column: at.column } : f);

/**
 * A locator for every file of the corpus whose text was read: file path → pointer → position. An invalid example's
 * findings point into its instance, which sits at `/instance` of the file.
 */
export function corpusLocator(corpus: LoadedCorpus): (file: string, pointer: string) => Position | undefined {
  const texts = new Map<string, { text: string; prefix: string }>();
  for (const f of corpus.schemas) if (f.text !== undefined) texts.set(f.path, { text: f.text, prefix: '' });
  for (const e of corpus.examples) if (e.text !== undefined) texts.set(e.path, { text: e.text, prefix: e.kind === 'invalid' ? '/instance' : '' });
  for (const t of corpus.routeTables ?? []) texts.set(t.path, { text: t.text, prefix: '' });
  const locators = new Map<string, (pointer: string) => Position>();
  return (file, pointer) => {
    const t = texts.get(file);
    if (t === undefined) return undefined;
    let locate = locators.get(file);
    if (!locate) locators.set(file, (locate = jsonLocator(t.text)));
    return locate(pointer.startsWith('/instance') && t.prefix ? pointer : `${t.prefix}${pointer}`);
  };
}

/** Run every rule; findings sorted by file, pointer and rule, with the line and column of each when the file was read. */
export function lintCorpus(r: Resolved, rules: readonly LintRule[] = LINT_RULES): Finding[] {
  const locate = corpusLocator(r.corpus);
  return rules
    .flatMap((rule) => rule.check(r).map((p): Finding => placed({ file: p.file, pointer: p.pointer, rule: rule.id, message: p.message }, p.position ?? locate(p.file, p.pointer))))
    .sort(byLocation);
}

/** The rule list of docs/generator.md: one line per rule, from the table. */
export const lintRuleList = (rules: readonly LintRule[] = LINT_RULES): string => rules.map((rule) => `- \`${rule.id}\` — ${rule.doc}`).join('\n');

/**
 * What the emitters need of a corpus: every schema is a valid draft 2020-12 schema, every root and `$defs` entry has a
 * usable title (rules title, title-reserved, title-unique: titles name every generated type), and no `$ref` dangles.
 * Refused with CorpusProblems listing every violation (the CLI prints one line each and exits 2). `metaAjv`: an Ajv to
 * meta-validate with (watch mode keeps one across runs; default a fresh one).
 */
export function assertGeneratable(r: Resolved, metaAjv?: Ajv2020): void {
  const problems = generatableProblems(r, metaAjv);
  if (problems.length) throw new CorpusProblems(problems);
}

/**
 * Every reason `gen` refuses the corpus, in one pass: each schema that is not valid 2020-12 (each mistake), each bad
 * title, each `$ref` that does not resolve (with a did-you-mean), in that order, with lines and columns.
 */
export function generatableProblems(r: Resolved, metaAjv?: Ajv2020): Finding[] {
  const locate = corpusLocator(r.corpus);
  const at = (f: Finding): Finding => placed(f, locate(f.file, f.pointer));
  return [
    ...metaViolations(r.corpus, metaAjv).map((v) => at({ file: v.file, pointer: v.pointer, rule: 'meta-schema', message: v.message })),
    ...titleProblems(r.corpus).map((p) => at({ file: p.file, pointer: p.pointer, rule: p.rule, message: p.message })),
    ...stemProblems(r.corpus).map((p) => at({ file: p.file, pointer: p.pointer, rule: 'file-stem-unique', message: p.message })),
    ...r.refSites.filter((site) => !r.tryResolve(site.file, site.ref)).map((site) => at({ file: site.file.path, pointer: `${site.pointer}/$ref`, rule: 'ref-resolves', message: danglingRefMessage(r, site.file, site.ref) })),
  ];
}

/**
 * Check that every valid example validates and every invalid one fails with its declared pointer + keyword (with
 * `only`, just the examples it selects: watch mode re-checks those an edit can affect).
 */
export function checkExamples(r: Resolved, only?: (example: Example) => boolean): { findings: Finding[]; checked: number } {
  const corpus = r.corpus;
  const findings: Finding[] = (corpus.problems ?? []).map((p) => placed({ file: p.file, pointer: p.pointer, rule: 'loads', message: p.message }, p.position));
  const ajv = createAjv();
  for (const f of corpus.schemas) {
    try {
      ajv.addSchema(f.schema as object);
    } catch (e) {
      findings.push({ file: f.path, pointer: '', rule: 'meta-schema', message: `Ajv2020 refuses the schema, so its examples are not checked (wopkit lint says why): ${(e as Error).message}` });
    }
  }
  const uncompilable = new Set<string>();
  let checked = 0;
  for (const ex of corpus.examples) {
    if (only && !only(ex)) continue;
    const entry = [...r.entries.values()].find((e) => e.file.family === ex.family && e.file.major === ex.major && e.target === ex.target);
    if (!entry) {
      findings.push({ file: ex.path, pointer: '', rule: 'example-target', message: `no schema or $defs entry "${ex.target}"` });
      continue;
    }
    let validate;
    try {
      validate = ajv.getSchema(entry.ajvRef);
    } catch (e) {
      // Once per target; and not at all when a file did not load (the likely cause, reported above).
      if (!uncompilable.has(entry.ajvRef) && !corpus.problems?.length)
        findings.push({ file: ex.path, pointer: '', rule: 'strict-compile', message: `cannot compile ${entry.ajvRef}: ${(e as Error).message}` });
      uncompilable.add(entry.ajvRef);
      continue;
    }
    if (!validate) continue;
    checked++;
    const ok = validate(ex.instance);
    const errors = validate.errors ?? [];
    if (ex.kind === 'valid') {
      for (const e of ok ? [] : errors)
        findings.push({ file: ex.path, pointer: e.instancePath, rule: 'example-valid', message: `valid example rejected: ${failureMessage(e)} [${e.keyword}]` });
    } else if (ok) {
      findings.push({ file: ex.path, pointer: '/instance', rule: 'example-invalid', message: 'invalid example validates' });
    } else if (!errors.some((e) => e.instancePath === ex.expect?.instancePath && e.keyword === ex.expect?.keyword)) {
      findings.push({
        file: ex.path,
        pointer: ex.expect?.instancePath ?? '',
        rule: 'example-invalid',
        message: `expected ${ex.expect?.keyword} at "${ex.expect?.instancePath}", got ${errors.map((e) => `${e.keyword} at "${e.instancePath}"`).join(', ')}`,
      });
    }
  }
  const locate = corpusLocator(corpus);
  return { findings: findings.map((f) => (f.line === undefined ? placed(f, locate(f.file, f.pointer)) : f)), checked };
}
