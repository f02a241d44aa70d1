/**
 * OpenWOP v2 corpus (`schemas/openwop/v2/`): every schema compiles in strict mode beside the whole corpus, follows the
 * corpus conventions, and every example behaves as declared — valid ones validate, invalid ones fail with the declared
 * instance path and keyword — against our own v2 schemas (Ajv 2020, formats). Needs nothing from upstream.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from '../../generator/load.ts';
import { MAJORS_DIR, REPO, loadV2Examples, loadV2Schemas, oracleAjvWithV2, targetRef, type JsonObject } from './v2-corpus.ts';

const schemas = loadV2Schemas();
const examples = loadV2Examples();
const ajv = oracleAjvWithV2(schemas);
const BASE = 'https://wopkit.dev/schemas/openwop/v2/';
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const byStem = new Map(schemas.map((s) => [s.stem, s.schema]));
const readTable = <T>(name: string): T => JSON.parse(readFileSync(join(MAJORS_DIR, name), 'utf8')) as T;

/** Every schema node reachable through the keywords that hold subschemas, with its JSON pointer. */
function* walk(node: unknown, ptr = ''): Generator<[JsonObject, string]> {
  if (!isObject(node)) return;
  yield [node, ptr];
  for (const [k, v] of Object.entries(node)) {
    if (['properties', 'patternProperties', '$defs'].includes(k) && isObject(v))
      for (const [name, sub] of Object.entries(v)) yield* walk(sub, `${ptr}/${k}/${name}`);
    else if (['allOf', 'anyOf', 'oneOf'].includes(k) && Array.isArray(v)) for (const [i, sub] of v.entries()) yield* walk(sub, `${ptr}/${k}/${i}`);
    else if (['items', 'not', 'if', 'then', 'else', 'contains', 'additionalProperties'].includes(k)) yield* walk(v, `${ptr}/${k}`);
  }
}

describe('OpenWOP v2 schemas', () => {
  it('has the slice in v2 form', () => {
    expect(schemas.map((s) => s.stem)).toEqual(
      expect.arrayContaining(['capabilities', 'error', 'ids', 'memory-entry', 'memory-list-options', 'run-event', 'run-event-payloads', 'run-fork-request', 'run-fork-response', 'run-interrupt-resolve-request', 'run-snapshot']),
    );
  });

  it.each(schemas.map((s) => [s.fileName, s] as const))('%s compiles in strict mode and follows the id, title and direction rules', (fileName, s) => {
    expect(s.schema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(s.schema['$id']).toBe(`${BASE}${fileName}`);
    expect(['request', 'response', 'both']).toContain(s.schema['x-direction']);
    expect(() => ajv.getSchema(s.schema['$id'] as string)).not.toThrow();
    for (const name of Object.keys(isObject(s.schema['$defs']) ? s.schema['$defs'] : {}))
      expect(() => ajv.getSchema(`${s.schema['$id'] as string}#/$defs/${name}`), name).not.toThrow();
  });

  it('gives every property a description and every object an explicit open or closed stance', () => {
    const missing: string[] = [];
    for (const s of schemas)
      for (const [node, ptr] of walk(s.schema)) {
        if (isObject(node['properties']))
          for (const [name, sub] of Object.entries(node['properties']))
            if (!isObject(sub) || typeof sub['description'] !== 'string') missing.push(`${s.fileName}#${ptr}/properties/${name}: no description`);
        const objectish = isObject(node['properties']) || node['type'] === 'object';
        const inCondition = /\/(if|then|else|not)(\/|$)/.test(ptr) || /\/allOf\/\d+$/.test(ptr);
        if (objectish && !inCondition && !('additionalProperties' in node) && !('unevaluatedProperties' in node))
          missing.push(`${s.fileName}#${ptr}: object without additionalProperties`);
      }
    expect(missing).toEqual([]);
  });

  it('titles every root and $defs entry uniquely across both majors (titles name generated types)', () => {
    const titles = new Map<string, string>();
    const dupes: string[] = [];
    const note = (title: unknown, where: string) => {
      if (typeof title !== 'string') return dupes.push(`${where}: no title`);
      if (titles.has(title)) dupes.push(`${title}: ${titles.get(title)} and ${where}`);
      titles.set(title, where);
    };
    const visitDefs = (schema: JsonObject, file: string, ptr = ''): void => {
      for (const [name, def] of Object.entries(isObject(schema['$defs']) ? schema['$defs'] : {})) {
        note((def as JsonObject)['title'], `${file}#${ptr}/$defs/${name}`);
        visitDefs(def as JsonObject, file, `${ptr}/$defs/${name}`);
      }
    };
    // the loader reads both majors (the corpus settings list v2)
    const loaded = loadCorpus(REPO).schemas;
    expect(loaded.filter((f) => f.family === 'openwop' && f.major === 'v2').map((f) => f.stem).sort()).toEqual(schemas.map((s) => s.stem).sort());
    for (const f of loaded) {
      note(f.schema['title'], f.path);
      visitDefs(f.schema as JsonObject, f.path);
    }
    expect(dupes).toEqual([]);
  });

  it('lists exactly the v2 names of the event-name table as RunEventTypeV2, and indexes payloads by v2 names only', () => {
    const table = readTable<{ rows: { v1: string; v2: string }[] }>('event-names.json');
    const runEvent = byStem.get('run-event')!;
    const enumNames = ((runEvent['$defs'] as JsonObject)['RunEventType'] as JsonObject)['enum'];
    expect(enumNames).toEqual(table.rows.map((r) => r.v2));
    const index = byStem.get('run-event-payloads')!['x-type-index'] as Record<string, string>;
    for (const [type, ptr] of Object.entries(index)) {
      expect(enumNames).toContain(type);
      expect(ajv.getSchema(`${BASE}run-event-payloads.schema.json${ptr}`), ptr).toBeDefined();
    }
  });

  it('closes a payload by propertyNames only to key sets that admit every field v1 requires', () => {
    const v1 = JSON.parse(readFileSync(join(REPO, 'schemas/openwop/v1/run-event-payloads.schema.json'), 'utf8')) as JsonObject;
    const defs = byStem.get('run-event-payloads')!['$defs'] as Record<string, JsonObject>;
    const closedDefs = Object.entries(defs).filter(([, d]) => isObject(d['propertyNames']));
    expect(closedDefs.length).toBeGreaterThanOrEqual(5);
    for (const [name, def] of closedDefs) {
      const names = def['propertyNames'] as JsonObject;
      const allowed = (isObject(names['enum']) || Array.isArray(names['enum']) ? names['enum'] : ((names['anyOf'] as JsonObject[])[0]!['enum'])) as string[];
      const v1Required = (((v1['$defs'] as JsonObject)[name] as JsonObject)['required'] ?? []) as string[];
      for (const field of [...v1Required, ...((def['required'] ?? []) as string[])]) expect(allowed, `${name}.${field}`).toContain(field);
      for (const field of Object.keys((def['properties'] ?? {}) as object)) expect(allowed, `${name}.${field}`).toContain(field);
    }
  });

  it('lists exactly the registered v2 codes of the error table as ErrorCodeV2', () => {
    const table = readTable<{ rows: { v2: { code: string } }[] }>('error-statuses.json');
    const registered = [...new Set(table.rows.map((r) => r.v2.code).filter((c) => !c.includes('.')))];
    const error = byStem.get('error')!;
    expect(((error['$defs'] as JsonObject)['ErrorCode'] as JsonObject)['enum']).toEqual(registered);
  });
});

describe('OpenWOP v2 examples', () => {
  it('has examples for every v2 schema', () => {
    const targets = new Set(examples.map((e) => e.target.split('--')[0]));
    for (const s of schemas) if (s.stem !== 'run-event-payloads') expect(targets, s.stem).toContain(s.stem);
    expect(examples.filter((e) => e.kind === 'invalid').length).toBeGreaterThan(60);
  });

  it('has a valid and an invalid example for every object-shaped root and $defs entry of a v2 file', () => {
    const targets = new Set(examples.map((e) => `${e.target}:${e.kind}`));
    const missing: string[] = [];
    for (const s of schemas) {
      const want = (target: string) => ['valid', 'invalid'].forEach((k) => targets.has(`${target}:${k}`) || missing.push(`${target}:${k}`));
      if (s.schema['type'] === 'object' || typeof s.schema['$ref'] === 'string') want(s.stem);
      for (const [name, def] of Object.entries(isObject(s.schema['$defs']) ? s.schema['$defs'] : {}))
        if ((def as JsonObject)['type'] === 'object' || typeof (def as JsonObject)['$ref'] === 'string') want(`${s.stem}--${name}`);
    }
    expect(missing).toEqual([]);
  });

  it.each(examples.filter((e) => isObject(e.instance)).map((e) => [e.path, e] as const))('%s names its target in $schema', (_p, ex) => {
    expect(ex.declaredSchema).toBe(targetRef(ex.target));
  });

  it.each(examples.filter((e) => e.kind === 'valid').map((e) => [e.path, e] as const))('valid: %s', (_p, ex) => {
    const validate = ajv.getSchema(targetRef(ex.target))!;
    expect(validate, targetRef(ex.target)).toBeDefined();
    expect(validate(ex.instance), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(examples.filter((e) => e.kind === 'invalid').map((e) => [e.path, e] as const))('invalid: %s', (_p, ex) => {
    const validate = ajv.getSchema(targetRef(ex.target))!;
    expect(validate(ex.instance)).toBe(false);
    const got = (validate.errors ?? []).map((e) => [e.instancePath, e.keyword]);
    expect(got, `expected ${ex.expect!.keyword} at "${ex.expect!.instancePath}"`).toContainEqual([ex.expect!.instancePath, ex.expect!.keyword]);
  });

  it('gives every valid run event of a slice type a payload its v2 payload definition accepts', () => {
    const index = byStem.get('run-event-payloads')!['x-type-index'] as Record<string, string>;
    const checked = examples.filter((e) => e.target === 'run-event' && e.kind === 'valid' && isObject(e.instance) && (e.instance['type'] as string) in index);
    expect(checked.length).toBeGreaterThanOrEqual(3);
    for (const ex of checked) {
      const inst = ex.instance as JsonObject;
      const validate = ajv.getSchema(`${BASE}run-event-payloads.schema.json${index[inst['type'] as string]}`)!;
      expect(validate(inst['payload']), `${ex.path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
