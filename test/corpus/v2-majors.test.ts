/**
 * What differs between OpenWOP v1 and v2 is data in the corpus (schemas/openwop/majors/): the event-name table and
 * the error-status table. This file checks the tables against their schemas, against the v1 corpus and the runtime's
 * v1 statuses; that a shape identical in both majors is written once (no v2 schema, nor any of its $defs, equals a v1
 * one once $id, title and description are removed); and that no file outside generated/ and the name table spells
 * both names of a renamed event.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createAjv } from '../../generator/ajv.ts';
import { HTTP_STATUS } from '../../runtime/shared/errors.ts';
import { shipsSchemaPath } from '../../scripts/build.ts';
import { MAJORS_DIR, REPO, V1_DIR, loadV2Schemas, type JsonObject } from './v2-corpus.ts';

interface EventRow { v1: string; v2: string; registered: boolean }
interface CodeAndStatus { code: string; status: number }
interface ErrorRow { v1?: CodeAndStatus; v2: CodeAndStatus }

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const eventTable = readJson<{ rows: EventRow[] }>(join(MAJORS_DIR, 'event-names.json'));
const errorTable = readJson<{ rows: ErrorRow[] }>(join(MAJORS_DIR, 'error-statuses.json'));
const v1RunEvent = readJson<JsonObject>(join(V1_DIR, 'run-event.schema.json'));
const v1Payloads = readJson<JsonObject>(join(V1_DIR, 'run-event-payloads.schema.json'));
const v1Error = readJson<JsonObject>(join(V1_DIR, 'error.schema.json'));
const defsOf = (s: JsonObject): Record<string, JsonObject> => (s['$defs'] ?? {}) as Record<string, JsonObject>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

describe('the major tables', () => {
  const ajv = createAjv();
  for (const name of ['event-names', 'error-statuses']) ajv.addSchema(readJson<object>(join(MAJORS_DIR, `${name}.schema.json`)));

  it.each(['event-names', 'error-statuses'])('%s.json validates against its schema', (name) => {
    const validate = ajv.getSchema(`https://wopkit.dev/schemas/openwop/majors/${name}.schema.json`)!;
    expect(validate(readJson(join(MAJORS_DIR, `${name}.json`))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects a table row without its v2 name (the schema is not vacuous)', () => {
    const validate = ajv.getSchema('https://wopkit.dev/schemas/openwop/majors/event-names.schema.json')!;
    expect(validate({ ...eventTable, rows: [{ v1: 'run.started', registered: true }] })).toBe(false);
    const errors = ajv.getSchema('https://wopkit.dev/schemas/openwop/majors/error-statuses.schema.json')!;
    expect(errors({ ...errorTable, rows: [{ v1: { code: 'not_found', status: 404 } }] })).toBe(false);
  });

  it('names every v1 event type of the slice once, in the order of v1 RunEventType, and each v2 name once', () => {
    const v1Names = defsOf(v1RunEvent)['RunEventType']!['enum'];
    expect(eventTable.rows.map((r) => r.v1)).toEqual(v1Names);
    expect(new Set(eventTable.rows.map((r) => r.v2)).size).toBe(eventTable.rows.length);
    expect(Object.keys(v1Payloads['x-type-index'] as object).sort()).toEqual([...(v1Names as string[])].sort());
  });

  it('records the renames upstream made to the slice (three)', () => {
    const renamed = eventTable.rows.filter((r) => r.v1 !== r.v2);
    expect(renamed).toHaveLength(3);
    expect(renamed.every((r) => r.registered)).toBe(true);
  });

  it('lists every v1 error code once, with the status the reference host answers with on v1', () => {
    const v1Codes = errorTable.rows.flatMap((r) => (r.v1 ? [r.v1.code] : []));
    expect(new Set(v1Codes).size).toBe(v1Codes.length);
    expect([...v1Codes].sort()).toEqual([...(defsOf(v1Error)['ErrorCode']!['enum'] as string[])].sort());
    for (const r of errorTable.rows) if (r.v1) expect(r.v1.status, r.v1.code).toBe(HTTP_STATUS[r.v1.code as keyof typeof HTTP_STATUS]);
  });

  it('sends a v1 failure the v2 registry lacks as wopkit.<code> with its v1 status', () => {
    for (const r of errorTable.rows.filter((x) => x.v2.code.includes('.'))) {
      expect(r.v2.code).toBe(`wopkit.${r.v1!.code}`);
      expect(r.v2.status).toBe(r.v1!.status);
    }
  });

  it('maps replay_memory_snapshot_unavailable to 422 on v1 and 409 on v2', () => {
    const row = errorTable.rows.find((r) => r.v1?.code === 'replay_memory_snapshot_unavailable')!;
    expect([row.v1!.status, row.v2.code, row.v2.status]).toEqual([422, 'replay_memory_snapshot_unavailable', 409]);
  });

  it('gives one v2 code one status, whichever v1 codes map to it', () => {
    const status = new Map<string, number>();
    for (const r of errorTable.rows) {
      expect(status.get(r.v2.code) ?? r.v2.status, r.v2.code).toBe(r.v2.status);
      status.set(r.v2.code, r.v2.status);
    }
  });
});

/** A schema node with $id, title and description removed at every depth, as canonical JSON (keys sorted). */
export function shapeKey(node: unknown): string {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (!isObject(v)) return v;
    const out: JsonObject = {};
    for (const k of Object.keys(v).sort()) if (k !== '$id' && k !== 'title' && k !== 'description') out[k] = strip(v[k]);
    return out;
  };
  return JSON.stringify(strip(node));
}

describe('a shape identical in both majors is written once', () => {
  const v1Files = readdirSchemas(V1_DIR);
  const v2Files = loadV2Schemas();

  it('canonicalises independently of key order and of titles and descriptions', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string(), fc.boolean(), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), tie('value'), { maxKeys: 4 })),
    })).value;
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 5 }), json, { maxKeys: 5 }), fc.string(), (obj, text) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(shapeKey(reversed)).toBe(shapeKey(obj));
        expect(shapeKey({ ...obj, description: text, title: text, $id: text })).toBe(shapeKey(Object.fromEntries(Object.entries(obj).filter(([k]) => !['description', 'title', '$id'].includes(k)))));
      }),
    );
    expect(shapeKey({ type: 'string' })).not.toBe(shapeKey({ type: 'integer' }));
  });

  it('has no v2 schema file equal to a v1 one', () => {
    const v1Keys = new Map(v1Files.map((f) => [shapeKey(f.schema), f.fileName]));
    const copies = v2Files.filter((f) => v1Keys.has(shapeKey(f.schema))).map((f) => `${f.fileName} = v1/${v1Keys.get(shapeKey(f.schema))}`);
    expect(copies).toEqual([]);
  });

  it('has no v2 $defs entry equal to a v1 schema or $defs entry', () => {
    const v1Keys = new Map<string, string>();
    for (const f of v1Files) {
      v1Keys.set(shapeKey(f.schema), `v1/${f.fileName}`);
      for (const [name, def] of allDefs(f.schema)) v1Keys.set(shapeKey(def), `v1/${f.fileName}#${name}`);
    }
    const copies: string[] = [];
    for (const f of v2Files) for (const [name, def] of allDefs(f.schema)) if (v1Keys.has(shapeKey(def))) copies.push(`${f.fileName}#${name} = ${v1Keys.get(shapeKey(def))}`);
    expect(copies).toEqual([]);
  });

  it('reaches the shared shapes by reference into v1', () => {
    const refs = v2Files.flatMap((f) => JSON.stringify(f.schema).match(/"\$ref":"\.\.\/v1\/[^"]+"/g) ?? []);
    expect(refs.length).toBeGreaterThan(20);
  });
});

function readdirSchemas(dir: string): { fileName: string; schema: JsonObject }[] {
  return loadV2Schemas(dir);
}

/** Every `$defs` entry at any depth, with its pointer. */
function allDefs(schema: JsonObject, ptr = ''): [string, JsonObject][] {
  return Object.entries(defsOf(schema)).flatMap(([name, def]) => [[`${ptr}/$defs/${name}`, def] as [string, JsonObject], ...allDefs(def, `${ptr}/$defs/${name}`)]);
}

/** Where an event name occurs as a whole token (not as part of a longer dotted or dashed name). */
export function mentions(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9_.-])${escaped}(?![A-Za-z0-9_-]|\\.[A-Za-z])`).test(text);
}

describe('no file but the name table spells both names of a renamed event', () => {
  const renamed = eventTable.rows.filter((r) => r.v1 !== r.v2);
  const TABLE = 'schemas/openwop/majors/event-names.json';

  it('recognises a name only as a whole token', () => {
    expect(mentions('type: "alpha.beta-done",', 'alpha.beta-done')).toBe(true);
    expect(mentions('x.alpha.beta-done', 'alpha.beta-done')).toBe(false);
    expect(mentions('alpha.beta-done-v2', 'alpha.beta-done')).toBe(false);
    expect(mentions('alpha.beta-done.more', 'alpha.beta-done')).toBe(false);
    expect(mentions('runAlpha.done', 'alpha.done')).toBe(false);
    expect(mentions('the alpha.done event.', 'alpha.done')).toBe(true);
    fc.assert(
      fc.property(fc.constantFrom(...renamed), fc.constantFrom(' ', '\n', '"', '`', '(', ', '), ({ v1, v2 }, sep) => {
        expect(mentions(`${sep}${v1}${sep}${v2}${sep}`, v1) && mentions(`${sep}${v1}${sep}${v2}${sep}`, v2)).toBe(true);
      }),
    );
  });

  it('finds both spellings in the table itself (the scan works)', () => {
    const text = readFileSync(join(REPO, TABLE), 'utf8');
    for (const r of renamed) expect(mentions(text, r.v1) && mentions(text, r.v2), r.v1).toBe(true);
  });

  it('finds no other file, tracked or new, outside generated/ that spells both', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20 })
      .split('\0')
      .filter((f) => f !== '' && !f.startsWith('generated/') && f !== TABLE);
    expect(files.length).toBeGreaterThan(500);
    const offenders: string[] = [];
    for (const f of files) {
      const abs = join(REPO, f);
      let text: string;
      try {
        if (statSync(abs).size > 8 << 20) continue;
        text = readFileSync(abs, 'utf8');
      } catch {
        continue;
      }
      for (const r of renamed) if (text.includes(r.v2) && mentions(text, r.v1) && mentions(text, r.v2)) offenders.push(`${f}: ${r.v1} / ${r.v2}`);
    }
    expect(offenders).toEqual([]);
  });
});

describe('packages ship only the majors the corpus settings load', () => {
  const dir = '/r/schemas';
  const families = { openwop: ['v1'], inquirium: ['v1'] };
  it.each([
    ['/r/schemas', true],
    ['/r/schemas/openwop', true],
    ['/r/schemas/openwop/v1', true],
    ['/r/schemas/openwop/v1/run-event.schema.json', true],
    ['/r/schemas/openwop/v1/examples', false],
    ['/r/schemas/openwop/v1/examples/run-event/valid/a.json', false],
    ['/r/schemas/openwop/v2', false],
    ['/r/schemas/openwop/v2/run-event.schema.json', false],
    ['/r/schemas/openwop/majors/event-names.schema.json', false],
    ['/r/schemas/openwop/majors/event-names.json', false],
    ['/r/schemas/openwop/v10/x.schema.json', false],
  ] as const)('%s ships: %s', (src, ships) => {
    expect(shipsSchemaPath(dir, families, src)).toBe(ships);
  });

  it('ships a major once the settings list it, and every folder without a families setting', () => {
    expect(shipsSchemaPath(dir, { openwop: ['v1', 'v2'] }, '/r/schemas/openwop/v2/run-event.schema.json')).toBe(true);
    expect(shipsSchemaPath(dir, undefined, '/r/schemas/openwop/v2/run-event.schema.json')).toBe(true);
    expect(shipsSchemaPath(dir, undefined, '/r/schemas/openwop/majors/event-names.json')).toBe(false);
  });
});
