/**
 * The generated OpenWOP v2 modules (generated/validators/v2/, generated/guards/v2/, generated/run-events/v2/, emitted by
 * `gen` beside v1 in one run): every v2 example is accepted by its type's generated validator when valid, and rejected
 * for its declared reason (instance path + keyword) when invalid; the guards and the run-event dispatch of v2 answer
 * the same; the v2 validators folder stands on its own (it imports nothing outside itself), so it ships as its own
 * package.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved } from '../../generator/resolve.ts';
import { validatorIndex as v2Index } from '../../generated/validators/v2/validators.js';
import { validatorIndex as v1Index } from '../../generated/validators/validators.js';
import { guards as v2Guards } from '../../generated/guards/v2/index.ts';
import { KNOWN_RUN_EVENT_TYPES as V2_TYPES, validateRunEvent as validateRunEventV2 } from '../../generated/run-events/v2/index.ts';
import { KNOWN_RUN_EVENT_TYPES as V1_TYPES } from '../../generated/run-events/index.ts';
import { REPO } from '../generator/helpers.ts';

interface V {
  (d: unknown): boolean;
  errors?: readonly { instancePath: string; keyword: string }[] | null;
}
const corpus = loadCorpus(REPO);
const r = new Resolved(corpus);
const examples = corpus.examples.filter((e) => e.family === 'openwop' && e.major === 'v2');
const v2 = v2Index as unknown as Record<string, { validator: V; family: string }>;
const entryOf = (target: string) => [...r.entries.values()].find((e) => e.file.family === 'openwop' && e.file.major === 'v2' && e.target === target && e.title);

describe('generated OpenWOP v2 validators', () => {
  it('the corpus settings load v2 beside v1, and every v2 type has a validator in the v2 barrel (and none in v1\'s)', () => {
    expect(r.majors).toEqual(['v1', 'v2']);
    const titles = r.typesOf('v2').map((t) => t.title);
    expect(titles.length).toBeGreaterThan(40);
    expect(Object.keys(v2).sort()).toEqual([...titles].sort());
    for (const t of titles) expect(Object.hasOwn(v1Index, t), t).toBe(false);
  });

  it('accepts every valid v2 example and rejects every invalid one for its declared reason', () => {
    expect(examples.length).toBeGreaterThan(200);
    let valid = 0;
    let invalid = 0;
    for (const ex of examples) {
      const entry = entryOf(ex.target);
      expect(entry, ex.path).toBeDefined();
      const v = v2[entry!.title]!.validator;
      const ok = v(ex.instance);
      if (ex.kind === 'valid') {
        expect(ok, `${ex.path}: ${JSON.stringify(v.errors)}`).toBe(true);
        valid++;
      } else {
        expect(ok, ex.path).toBe(false);
        expect(v.errors?.map((e) => `${e.instancePath} ${e.keyword}`), ex.path).toContain(`${ex.expect!.instancePath} ${ex.expect!.keyword}`);
        invalid++;
      }
    }
    expect(valid).toBeGreaterThan(50);
    expect(invalid).toBeGreaterThan(50);
  });

  it('the v2 guards agree with the validators, and assert names the failing pointer', () => {
    for (const ex of examples) {
      const g = (v2Guards as Record<string, { is: (x: unknown) => boolean; assert: (x: unknown) => void }>)[entryOf(ex.target)!.title]!;
      expect(g.is(ex.instance), ex.path).toBe(ex.kind === 'valid');
      if (ex.kind === 'invalid') expect(() => g.assert(ex.instance), ex.path).toThrow(`#${ex.expect!.instancePath}`);
    }
  });

  it('the v2 run-event dispatch knows v2 names only (each the name table\'s v2 name of a type the v1 dispatch knows) and validates each v2 event example', () => {
    const table = JSON.parse(readFileSync(join(REPO, 'schemas/openwop/majors/event-names.json'), 'utf8')) as { rows: { v1: string; v2: string }[] };
    expect(V2_TYPES.length).toBeGreaterThan(10);
    for (const type of V2_TYPES) {
      const row = table.rows.find((x) => x.v2 === type);
      expect(row, type).toBeDefined();
      expect(V1_TYPES as readonly string[], type).toContain(row!.v1);
    }
    for (const row of table.rows.filter((x) => x.v1 !== x.v2)) expect(V2_TYPES as readonly string[]).not.toContain(row.v1);
    const events = examples.filter((e) => e.target === 'run-event');
    expect(events.length).toBeGreaterThan(0);
    for (const ex of events) expect(validateRunEventV2(ex.instance).valid, ex.path).toBe(ex.kind === 'valid');
  });

  it('the v2 run-event dispatch sends every v2 payload example through its type (pointers under /payload)', () => {
    const payloads = corpus.schemas.find((f) => f.family === 'openwop' && f.major === 'v2' && f.stem === 'run-event-payloads')!;
    const index = payloads.schema['x-type-index'] as Record<string, string>;
    const base = examples.find((e) => e.target === 'run-event' && e.kind === 'valid')!.instance as Record<string, unknown>;
    let n = 0;
    for (const [type, ref] of Object.entries(index)) {
      const def = ref.split('/').pop()!;
      for (const ex of examples.filter((e) => e.target === `run-event-payloads--${def}`)) {
        n++;
        const res = validateRunEventV2({ ...base, type, payload: ex.instance });
        if (ex.kind === 'valid') expect(res, ex.path).toEqual({ valid: true, known: true, type, failures: [] });
        else {
          expect(res.valid, ex.path).toBe(false);
          expect(res.failures, ex.path).toContainEqual(expect.objectContaining({ instancePath: `/payload${ex.expect!.instancePath}`, keyword: ex.expect!.keyword }));
        }
      }
    }
    expect(n).toBeGreaterThan(20);
  });

  it('the v2 validators folder imports nothing outside itself (it ships alone, as @wopkit/validators-v2)', () => {
    const dir = join(REPO, 'generated/validators/v2');
    const modules = [...readdirSync(dir).map((f) => join(dir, f)), ...readdirSync(join(dir, 'by-type')).map((f) => join(dir, 'by-type', f))].filter((f) => /\.(js|d\.ts)$/.test(f));
    expect(modules.length).toBeGreaterThan(150);
    const outside: string[] = [];
    for (const f of modules)
      for (const [, spec] of readFileSync(f, 'utf8').matchAll(/from '([^']+)'/g)) {
        const target = resolve(dirname(f), spec!);
        // the types they name come from generated/ts (declarations only); everything that runs is inside the folder
        if (!target.startsWith(`${dir}/`) && !(f.endsWith('.d.ts') && target.startsWith(join(REPO, 'generated/ts/')))) outside.push(`${f}: ${spec}`);
      }
    expect(outside).toEqual([]);
  });
});
