/**
 * Property tests (fast-check) over the generated validators: they never throw on arbitrary JSON; arbitrary valid
 * payloads built from the schemas are accepted by the generated validator, a runtime-compiled Ajv and the guard,
 * which always agree; across all corpus types the three agree (verdict and error pointers) on instances built from
 * each schema; closed DTOs reject any extra key; ClassKeyed configs validate with any label missing.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved, isObject } from '../../generator/resolve.ts';
import { createAjv } from '../../generator/ajv.ts';
import type { Json } from '../../generator/model.ts';
import { validatorIndex } from '../../generated/validators/validators.js';
import { validatorIndex as v2ValidatorIndex } from '../../generated/validators/v2/validators.js';
import { guards } from '../../generated/guards/index.ts';
import { guards as v2Guards } from '../../generated/guards/v2/index.ts';
import { validateRunEvent, KNOWN_RUN_EVENT_TYPES } from '../../generated/run-events/index.ts';
import { arbitraryFor } from './arbitrary.ts';
import { REPO } from '../generator/helpers.ts';

const corpus = loadCorpus(REPO);
const r = new Resolved(corpus);
const ajv = createAjv();
for (const f of corpus.schemas) ajv.addSchema(f.schema as object);
type V = ((d: unknown) => boolean) & { errors?: { instancePath: string; keyword: string }[] | null };
const index = { ...validatorIndex, ...v2ValidatorIndex } as unknown as Record<string, { validator: V }>;
const guardIndex = { ...guards, ...v2Guards } as unknown as Record<string, { is: (v: unknown) => boolean }>;
const NUM_RUNS = Number(process.env['FC_RUNS'] ?? 60);

const payloadsFile = corpus.schemas.find((s) => s.stem === 'run-event-payloads' && s.family === 'openwop')!;
const typeIndex = payloadsFile.schema['x-type-index'] as Record<string, string>;
const payloadTypes = Object.entries(typeIndex).map(([type, ref]) => ({ type, info: r.typeOfRef(payloadsFile, ref, '')! }));

describe('validators never throw', () => {
  it('every generated validator on arbitrary JSON', () => {
    const all = Object.values(index).map((e) => e.validator);
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        for (const validate of all) expect(typeof validate(v)).toBe('boolean');
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('validateRunEvent on arbitrary JSON and on arbitrary envelopes', () => {
    const envelope = fc.record({
      eventId: fc.string(),
      runId: fc.string(),
      type: fc.oneof(fc.constantFrom(...KNOWN_RUN_EVENT_TYPES), fc.string()),
      payload: fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue())),
      timestamp: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.string()),
      sequence: fc.oneof(fc.nat(), fc.integer()),
    }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), envelope), (v) => {
        const res = validateRunEvent(v);
        expect(typeof res.valid).toBe('boolean');
        if (res.valid) expect(res.failures).toEqual([]);
        else expect(res.failures.length).toBeGreaterThan(0);
      }),
      { numRuns: NUM_RUNS * 5 },
    );
  });
});

describe('valid payloads built from the schema', () => {
  it('covers every x-type-index entry', () => {
    expect(payloadTypes.length).toBe(Object.keys(typeIndex).length);
    expect(payloadTypes.every((p) => p.info)).toBe(true);
  });

  for (const { type, info } of payloadTypes) {
    it(`${type} → ${info.title}: standalone, runtime Ajv and guard accept and agree`, () => {
      const runtime = ajv.getSchema(info.ajvRef)!;
      const standalone = index[info.title]!.validator;
      const guard = guardIndex[info.title]!.is;
      fc.assert(
        fc.property(arbitraryFor(r, info.file, info.schema), (payload) => {
          const a = standalone(payload);
          const b = runtime(payload);
          expect(a, JSON.stringify(standalone.errors)).toBe(true);
          expect(b).toBe(true);
          expect(guard(payload)).toBe(true);
          const event = { eventId: 'e-1', runId: 'run-1', type, payload, timestamp: '2026-01-01T00:00:00Z', sequence: 0 };
          expect(validateRunEvent(event)).toEqual({ valid: true, known: true, type, failures: [] });
        }),
        { numRuns: NUM_RUNS },
      );
    });
  }

  it('standalone and runtime Ajv agree (verdict and error pointers) on mutated payloads', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...payloadTypes),
        fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue(), { maxKeys: 3 }),
        fc.jsonValue(),
        ({ info }, extra, junk) => {
          const runtime = ajv.getSchema(info.ajvRef)!;
          const standalone = index[info.title]!.validator;
          for (const candidate of [junk, extra, { ...extra }]) {
            const a = standalone(candidate);
            const b = runtime(candidate);
            expect(a).toBe(b);
            expect(guardIndex[info.title]!.is(candidate)).toBe(a);
            if (!a) expect(standalone.errors!.map((e) => [e.instancePath, e.keyword])).toEqual(runtime.errors!.map((e) => [e.instancePath, e.keyword]));
          }
        },
      ),
      { numRuns: NUM_RUNS * 3 },
    );
  });
});

describe('every type: standalone, runtime Ajv and guard agree', () => {
  // Instances built from each type's schema (valid where arbitrary.ts models every keyword the schema uses, near-valid
  // otherwise: if/then/not/contains are not modelled), so both verdicts get exercised across all types.
  it('on instances built from each of the corpus types (verdict and error pointers)', () => {
    let types = 0;
    for (const t of r.types) {
      let arb;
      try {
        arb = arbitraryFor(r, t.file, t.schema);
      } catch {
        continue; // a shape arbitrary.ts cannot build
      }
      types++;
      const runtime = ajv.getSchema(t.ajvRef)!;
      const standalone = index[t.title]!.validator;
      const guard = guardIndex[t.title]!.is;
      fc.assert(
        fc.property(arb, (v) => {
          const a = standalone(v);
          expect(runtime(v), t.title).toBe(a);
          expect(guard(v), t.title).toBe(a);
          if (!a) expect(standalone.errors!.map((e) => [e.instancePath, e.keyword])).toEqual(runtime.errors!.map((e) => [e.instancePath, e.keyword]));
        }),
        { numRuns: Math.max(5, Math.round(NUM_RUNS / 6)) },
      );
    }
    expect(types).toBeGreaterThan(r.types.length * 0.9);
  });
});

describe('schema properties', () => {
  const closed = r.types.filter(
    (t) => t.schema['type'] === 'object' && t.schema['additionalProperties'] === false && isObject(t.schema['properties']) && t.schema['patternProperties'] === undefined,
  );
  const valids = (title: string) =>
    corpus.examples.filter((e) => e.kind === 'valid' && r.entries.get(`${[...r.entries.values()].find((x) => x.title === title)?.file.path}#${[...r.entries.values()].find((x) => x.title === title)?.pointer}`)?.target === e.target && isObject(e.instance));

  it('closed DTOs reject any extra key (on their valid examples)', () => {
    let checked = 0;
    for (const t of closed) {
      const examples = valids(t.title).filter((e) => e.family === t.file.family && e.major === t.file.major);
      if (!examples.length) continue;
      checked++;
      const props = Object.keys(t.schema['properties'] as object);
      const validate = index[t.title]!.validator;
      fc.assert(
        fc.property(
          fc.constantFrom(...examples),
          fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !props.includes(k)),
          fc.jsonValue(),
          (ex, key, value) => {
            const inst = { ...(ex.instance as object), [key]: value } as Json;
            expect(validate(inst)).toBe(false);
            expect(validate.errors).toContainEqual(expect.objectContaining({ instancePath: '', keyword: 'additionalProperties' }));
          },
        ),
        { numRuns: 20 },
      );
    }
    expect(checked).toBeGreaterThan(15);
  });

  it('a ClassKeyed config with any labels missing still validates', () => {
    const classKeyed = r.types.filter((t) => t.title === 'InquiriumClassKeyed' || (typeof t.schema['$ref'] === 'string' && t.schema['$ref'].endsWith('#/$defs/ClassKeyed')));
    expect(classKeyed.length).toBeGreaterThan(1);
    for (const t of classKeyed) {
      const validate = index[t.title]!.validator;
      fc.assert(
        fc.property(arbitraryFor(r, t.file, t.schema), fc.subarray(['public', 'community', 'personal']), (cfg, drop) => {
          const c = structuredClone(cfg) as { by_class?: Record<string, unknown> };
          if (c.by_class) for (const label of drop) delete c.by_class[label];
          expect(validate(c), `${t.title}: ${JSON.stringify(validate.errors)}`).toBe(true);
        }),
        { numRuns: 30 },
      );
    }
  });
});
