/**
 * Stage 3, lint: the corpus rules of docs/CONVENTIONS.md, and the example check. Pure: resolved corpus in, findings
 * out. `assertGeneratable` is the part of lint that `gen` enforces before it emits.
 */
import type { Json, JsonObject, LoadedCorpus, SchemaFile } from './model.ts';
import { createAjv } from './ajv.ts';
import { Resolved, isObject, walkSchema, type TypeInfo } from './resolve.ts';
import { FILE_STEM, RESERVED_TITLES, RUNTIME_RULE_ID, TYPE_NAME, examplePath, schemaId } from './naming.ts';
import { escapePointer } from './errors.ts';
import { assertMetaValid, metaViolations } from './load.ts';
import { CorpusError } from './errors.ts';
import { byCodeUnits } from './order.ts';

export const SCHEMA_DRAFT = 'https://json-schema.org/draft/2020-12/schema';

export interface Finding {
  file: string;
  pointer: string;
  rule: string;
  message: string;
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

/**
 * The title rules (`title`, `title-reserved`, `title-unique`): titles name every generated type, validator and guard,
 * so `gen` refuses a corpus that breaks them (a missing title would silently drop a type; a duplicate would declare two
 * types with one name).
 */
export function titleFindings(corpus: LoadedCorpus): Finding[] {
  const findings: Finding[] = [];
  const titles = new Map<string, string>();
  for (const file of corpus.schemas) {
    const s = file.schema;
    const entries: [string, Json][] = [['', s]];
    if (isObject(s['$defs'])) for (const [n, d] of Object.entries(s['$defs'])) entries.push([`/$defs/${escapePointer(n)}`, d]);
    for (const [ptr, node] of entries) {
      if (!isObject(node)) continue; // reported as schema-shape
      const title = node['title'];
      const at = { file: file.path, pointer: `${ptr}/title` };
      if (typeof title !== 'string' || !TYPE_NAME.test(title))
        findings.push({ ...at, rule: 'title', message: 'every root schema and $defs entry needs a PascalCase "title" (it names the generated type)' });
      else if (RESERVED_TITLES.has(title))
        findings.push({ ...at, rule: 'title-reserved', message: `title "${title}" would collide with a name the generated code declares or uses; choose a more specific title` });
      else if (titles.has(title)) findings.push({ ...at, rule: 'title-unique', message: `title "${title}" is already used by ${titles.get(title)}` });
      else titles.set(title, `${file.path}#${ptr}`);
    }
  }
  return findings;
}

/**
 * What the emitters need of a corpus, refused with a CorpusError (file + pointer; the CLI exits 2) in this order: every
 * schema is a valid draft 2020-12 schema, every root and `$defs` entry has a usable title (titles name every generated
 * type), and no `$ref` dangles.
 */
export function assertGeneratable(r: Resolved): void {
  assertMetaValid(r.corpus);
  const badTitle = titleFindings(r.corpus)[0];
  if (badTitle) throw new CorpusError(`${badTitle.message} [${badTitle.rule}]`, badTitle.file, badTitle.pointer);
  r.checkRefs();
}

export function lintCorpus(r: Resolved): Finding[] {
  const corpus = r.corpus;
  const findings: Finding[] = [];
  const add = (file: string, pointer: string, rule: string, message: string) => findings.push({ file, pointer, rule, message });

  findings.push(...titleFindings(corpus));

  // Ids, draft, descriptions, openness, annotations.
  for (const file of corpus.schemas) {
    const s = file.schema;
    if (s['$schema'] !== SCHEMA_DRAFT) add(file.path, '/$schema', 'schema-draft', `"$schema" must be "${SCHEMA_DRAFT}"`);
    const expectedId = schemaId(file.family, file.fileName);
    if (s['$id'] !== expectedId) add(file.path, '/$id', 'id-base', `"$id" must be "${expectedId}" (one base, named after the file)`);
    if (!FILE_STEM.test(file.stem))
      add(file.path, '', 'file-name', `file name "${file.fileName}" must be lowercase words joined by "-" or "." plus ".schema.json" (kebab-case, or the wire schema id)`);
    const discriminator = isObject(s['properties']) && isObject(s['properties']['schema']) ? s['properties']['schema']['const'] : undefined;
    if (typeof discriminator === 'string' && discriminator !== file.stem)
      add(file.path, '/properties/schema/const', 'schema-discriminator', `the "schema" discriminator "${discriminator}" must equal the file stem "${file.stem}" (file name, $id and discriminator agree)`);
    const entries: [string, Json][] = [['', s]];
    if (isObject(s['$defs'])) for (const [n, d] of Object.entries(s['$defs'])) entries.push([`/$defs/${escapePointer(n)}`, d]);
    for (const [ptr, node] of entries) {
      if (!isObject(node)) {
        add(file.path, ptr, 'schema-shape', 'a schema or $defs entry must be an object');
        continue;
      }
      if (typeof node['description'] !== 'string' || !node['description'].trim()) add(file.path, `${ptr}/description`, 'description', 'every root schema and $defs entry needs a description');
      for (const key of ['x-runtime-rules'] as const) {
        if (!(key in node)) continue;
        const rules = node[key];
        if (!Array.isArray(rules)) add(file.path, `${ptr}/${key}`, 'runtime-rules', 'x-runtime-rules must be an array of {id, text, source}');
        else
          rules.forEach((rule, i) => {
            if (!isObject(rule) || typeof rule['id'] !== 'string' || !RUNTIME_RULE_ID.test(rule['id']) || typeof rule['text'] !== 'string' || typeof rule['source'] !== 'string')
              add(file.path, `${ptr}/${key}/${i}`, 'runtime-rules', 'each x-runtime-rules entry needs a kebab-case "id", a "text" and a "source"');
          });
      }
      if ('x-source' in node && typeof node['x-source'] !== 'string') add(file.path, `${ptr}/x-source`, 'x-source', 'x-source must be a string');
    }
    walkSchema(s, '', (node, pointer) => {
      if (isObject(node['properties']))
        for (const [name, p] of Object.entries(node['properties']))
          if (!isObject(p) || typeof p['description'] !== 'string' || !p['description'].trim()) {
            const inCondition = /\/(if|not|contains)(\/|$)/.test(pointer);
            if (!inCondition) add(file.path, `${pointer}/properties/${escapePointer(name)}`, 'property-description', `property "${name}" has no description`);
          }
      if (isObjectSchema(node) && !('additionalProperties' in node) && !('unevaluatedProperties' in node) && !composedParent(pointer) && !/\/(if|then|else|not|contains)(\/|$)/.test(pointer))
        add(file.path, pointer, 'object-openness', 'object schema must state "additionalProperties" (or "unevaluatedProperties") explicitly: open or closed');
      if (typeof node['$ref'] === 'string') {
        const ref = node['$ref'];
        if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) add(file.path, `${pointer}/$ref`, 'ref-relative', `"$ref" must be relative (./file.schema.json#/$defs/X), not "${ref}"`);
        else if (!r.tryResolve(file, ref)) add(file.path, `${pointer}/$ref`, 'ref-resolves', `"$ref" "${ref}" does not resolve offline`);
      }
    });
    // x-type-index anywhere in the file
    walkSchemaForTypeIndex(s, '', (idx, ptr) => {
      if (!isObject(idx)) {
        add(file.path, ptr, 'type-index', 'x-type-index must be an object {wire value: "#/$defs/Name"}');
        return;
      }
      for (const [value, target] of Object.entries(idx)) {
        const p = `${ptr}/${escapePointer(value)}`;
        if (typeof target !== 'string') add(file.path, p, 'type-index', 'x-type-index values must be "#/$defs/<Name>" strings');
        else if (!r.tryResolve(file, target)) add(file.path, p, 'type-index', `x-type-index pointer "${target}" does not resolve`);
      }
    });
  }

  // Meta-schema, then strict compile.
  const meta = metaViolations(corpus);
  for (const v of meta) add(v.file, v.pointer, 'meta-schema', v.message);
  const metaBad = new Set(meta.map((v) => v.file));
  const ajv = createAjv();
  const added: SchemaFile[] = [];
  for (const file of corpus.schemas) {
    if (metaBad.has(file.path)) continue;
    try {
      ajv.addSchema(file.schema as object);
      added.push(file);
    } catch (e) {
      add(file.path, '', 'strict-compile', `Ajv2020 strict mode rejects the schema: ${(e as Error).message}`);
    }
  }
  const danglingFiles = new Set(findings.filter((f) => f.rule === 'ref-resolves').map((f) => f.file));
  for (const file of added) {
    if (danglingFiles.has(file.path)) continue;
    const targets = [file.id, ...(isObject(file.schema['$defs']) ? Object.keys(file.schema['$defs']).map((n) => `${file.id}#/$defs/${escapePointer(n)}`) : [])];
    for (const t of targets) {
      try {
        ajv.getSchema(t);
      } catch (e) {
        add(file.path, t.includes('#') ? t.slice(t.indexOf('#') + 1) : '', 'strict-compile', `Ajv2020 strict mode rejects the schema: ${(e as Error).message}`);
        break;
      }
    }
  }

  // Examples: present for every shape, and every example directory names a target.
  const targets = new Map<string, TypeInfo>();
  for (const e of r.entries.values()) targets.set(`${e.file.family}/${e.target}`, e);
  for (const ex of corpus.examples) {
    if (!targets.has(`${ex.family}/${ex.target}`))
      add(ex.path, '', 'example-target', `example directory "${ex.target}" names no schema or $defs entry (expected <stem> or <stem>--<DefName>)`);
  }
  for (const t of r.entries.values()) {
    if (!t.isType) continue;
    const needs = t.defName === '' || isObjectSchema(t.schema);
    if (!needs) continue;
    const mine = corpus.examples.filter((e) => e.family === t.file.family && e.target === t.target);
    for (const kind of ['valid', 'invalid'] as const)
      if (!mine.some((e) => e.kind === kind))
        add(t.file.path, t.pointer, 'examples-present', `no ${kind} example for ${t.title || t.target} (expected ${examplePath(t.file.family, t.target, kind, '*.json')})`);
  }
  return findings.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : byCodeUnits(a.rule, b.rule)));
}

function walkSchemaForTypeIndex(node: Json, pointer: string, fn: (idx: Json, pointer: string) => void): void {
  walkSchema(node, pointer, (n, p) => {
    if ('x-type-index' in n) fn(n['x-type-index'] as Json, `${p}/x-type-index`);
  });
}

/** Check that every valid example validates and every invalid one fails with its declared pointer + keyword. */
export function checkExamples(r: Resolved): { findings: Finding[]; checked: number } {
  const corpus = r.corpus;
  const findings: Finding[] = [];
  const ajv = createAjv();
  for (const f of corpus.schemas) ajv.addSchema(f.schema as object);
  let checked = 0;
  for (const ex of corpus.examples) {
    const entry = [...r.entries.values()].find((e) => e.file.family === ex.family && e.target === ex.target);
    if (!entry) {
      findings.push({ file: ex.path, pointer: '', rule: 'example-target', message: `no schema or $defs entry "${ex.target}"` });
      continue;
    }
    let validate;
    try {
      validate = ajv.getSchema(entry.ajvRef);
    } catch (e) {
      findings.push({ file: ex.path, pointer: '', rule: 'strict-compile', message: `cannot compile ${entry.ajvRef}: ${(e as Error).message}` });
      continue;
    }
    if (!validate) continue;
    checked++;
    const ok = validate(ex.instance);
    const errors = validate.errors ?? [];
    if (ex.kind === 'valid') {
      for (const e of ok ? [] : errors)
        findings.push({ file: ex.path, pointer: e.instancePath, rule: 'example-valid', message: `valid example rejected: ${e.message ?? e.keyword} [${e.keyword}]` });
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
  return { findings, checked };
}
