/**
 * Every generated validator is a Standard Schema v1 (docs/validators.md): `~standard` is `{ version: 1, vendor,
 * validate }`, `validate(x)` returns `{ value: x }` exactly when the validator accepts x, else one issue per entry of
 * `errors` with the same message and, as `path`, the keys of its `instancePath` (`~1`/`~0` decoded, array indexes as
 * numbers); the types infer the generated type. A tRPC procedure takes `validateMemoryEntry` as its input with no
 * adapter, over tRPC's fetch adapter (an HTTP request in, a response out).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import fc from 'fast-check';
import { initTRPC, StandardSchemaV1Error, type inferRouterInputs } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { validateCapabilities, validateMemoryEntry, validatorIndex, type StandardSchemaV1, type Validator } from '../../generated/validators/validators.js';
import { validateMemoryEntry as fromItsModule } from '../../generated/validators/by-type/MemoryEntry.js';
import { validatorIndex as v2ValidatorIndex } from '../../generated/validators/v2/validators.js';
import type { Capabilities, MemoryEntry } from '../../generated/ts/index.ts';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved } from '../../generator/resolve.ts';
import type { Json } from '../../generator/model.ts';
import { applyEdits, arbitraryFor, editArbitrary } from '../corpus/arbitrary.ts';

const corpus = loadCorpus(process.cwd());
const r = new Resolved(corpus);
const example = (target: string, name: string): Json => corpus.examples.find((e) => e.target === target && e.path.endsWith(`/valid/${name}`))!.instance;

/** The JSON pointer of a Standard Schema path (what Ajv's instancePath spells). */
const pointerOf = (path: readonly (PropertyKey | StandardSchemaV1.PathSegment)[]): string =>
  path.map((k) => `/${String(typeof k === 'object' ? k.key : k).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** Each segment that is a number indexes an array of the instance, and each string segment names an object key. */
function segmentsFit(instance: unknown, path: readonly PropertyKey[]): boolean {
  let at: unknown = instance;
  for (const k of path) {
    if (typeof k === 'number' ? !Array.isArray(at) : typeof k !== 'string' || Array.isArray(at) || typeof at !== 'object' || at === null) return false;
    at = (at as Record<PropertyKey, unknown>)[k];
  }
  return true;
}

/** The Standard Schema result of `v` for `x`, checked against the validator's own verdict and errors. */
function agree(v: Validator<unknown>, x: unknown): void {
  const result = v['~standard'].validate(x);
  if (result instanceof Promise) throw new Error('validate must be synchronous');
  const valid = v(x);
  if (valid) {
    expect(result).toEqual({ value: x });
    expect((result as { value: unknown }).value).toBe(x);
    return;
  }
  const errors = v.errors ?? [];
  expect(result.issues).toBeDefined();
  const issues = result.issues!;
  expect(issues.map((i) => i.message)).toEqual(errors.map((e) => e.message));
  expect(issues.map((i) => pointerOf(i.path ?? []))).toEqual(errors.map((e) => e.instancePath));
  for (const i of issues) expect(segmentsFit(x, (i.path ?? []) as PropertyKey[]), JSON.stringify(i.path)).toBe(true);
}

describe('Standard Schema v1', () => {
  it('every validator has ~standard: version 1, vendor wopkit, a validate function (not enumerable, so errors stay Ajv-shaped)', () => {
    const all = Object.values(validatorIndex);
    expect(all.length).toBeGreaterThan(100);
    for (const { validator } of all) {
      expect(validator['~standard']).toMatchObject({ version: 1, vendor: 'wopkit' });
      expect(typeof validator['~standard'].validate).toBe('function');
      expect(Object.keys(validator)).toEqual(['errors']);
    }
    expect(fromItsModule).toBe(validateMemoryEntry);
  });

  it('issue paths are the decoded keys of instancePath: array indexes as numbers, "/" and "~" in keys, "0" as a key', () => {
    const entry = example('memory-entry', 'with-ttl.json') as Record<string, Json>;
    expect(validateMemoryEntry['~standard'].validate({ ...entry, tags: ['ok', ''] })).toEqual({ issues: [{ message: 'must NOT have fewer than 1 characters', path: ['tags', 1] }] });
    const caps = example('capabilities', 'minimal.json') as Record<string, Json>;
    const result = validateCapabilities['~standard'].validate({ ...caps, schemaVersions: { 'a/b~c': -1, '0': 1.5 } }) as StandardSchemaV1.FailureResult;
    expect(result.issues.map((i) => i.path)).toEqual([
      ['schemaVersions', '0'],
      ['schemaVersions', 'a/b~c'],
    ]);
    expect(validateCapabilities.errors!.map((e) => e.instancePath)).toEqual(['/schemaVersions/0', '/schemaVersions/a~1b~0c']);
    expect(validateMemoryEntry['~standard'].validate(7)).toEqual({ issues: [{ message: 'must be object', path: [] }] });
  });

  it('agrees with the validator on every example and on instances built from every type and near misses of them (property)', () => {
    for (const ex of corpus.examples) {
      const t = [...r.entries.values()].find((e) => e.file.family === ex.family && e.file.major === ex.major && e.target === ex.target);
      if (t?.title && validatorIndex[t.title as keyof typeof validatorIndex]) agree(validatorIndex[t.title as keyof typeof validatorIndex].validator as Validator<unknown>, ex.instance);
    }
    const each = { ...validatorIndex, ...v2ValidatorIndex } as Record<string, { validator: unknown }>;
    for (const t of r.types) {
      const v = each[t.title]!.validator as Validator<unknown>;
      let arb: fc.Arbitrary<Json>;
      try {
        arb = arbitraryFor(r, t.file, t.schema);
      } catch {
        arb = fc.jsonValue() as fc.Arbitrary<Json>;
      }
      const nearMiss = fc.tuple(arb, fc.array(editArbitrary, { minLength: 1, maxLength: 3 })).map(([x, edits]) => applyEdits(x, edits));
      fc.assert(fc.property(fc.oneof(arb, nearMiss), (x) => agree(v, x)), { numRuns: 15 });
    }
  });

  it('types: the output (and input) of each validator is its generated type', () => {
    expectTypeOf<StandardSchemaV1.InferOutput<typeof validateMemoryEntry>>().toEqualTypeOf<MemoryEntry>();
    expectTypeOf<StandardSchemaV1.InferInput<typeof validateMemoryEntry>>().toEqualTypeOf<MemoryEntry>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof validateCapabilities>>().toEqualTypeOf<Capabilities>();
    expectTypeOf(validateMemoryEntry).toExtend<StandardSchemaV1<MemoryEntry>>();
  });
});

describe('a tRPC route takes the validator as its input (Standard Schema, no adapter)', () => {
  const t = initTRPC.create({
    // The issues travel in the error body, so the client sees where its input failed.
    errorFormatter: ({ shape, error }) => ({ ...shape, data: { ...shape.data, issues: error.cause instanceof StandardSchemaV1Error ? error.cause.issues : null } }),
  });
  const router = t.router({ writeEntry: t.procedure.input(validateMemoryEntry).mutation(({ input }) => ({ stored: input.id, tags: input.tags.length })) });
  const post = (body: unknown) =>
    fetchRequestHandler({
      endpoint: '/trpc',
      router,
      req: new Request('http://host.test/trpc/writeEntry', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });

  it('its input type is MemoryEntry', () => {
    expectTypeOf<inferRouterInputs<typeof router>['writeEntry']>().toEqualTypeOf<MemoryEntry>();
  });

  it('accepts a valid MemoryEntry', async () => {
    const entry = example('memory-entry', 'with-ttl.json') as MemoryEntry;
    const res = await post(entry);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: { data: { stored: entry.id, tags: entry.tags.length } } });
  });

  it('rejects an invalid body with 400 and issues whose paths are validateMemoryEntry.errors\' pointers', async () => {
    const bad = { ...(example('memory-entry', 'with-ttl.json') as Record<string, Json>), id: '', tags: ['a', 7], createdAt: 'yesterday' };
    const res = await post(bad);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { data: { code: string; issues: { message: string; path: PropertyKey[] }[] } } };
    expect(body.error.data.code).toBe('BAD_REQUEST');
    expect(validateMemoryEntry(bad)).toBe(false);
    const pointers = validateMemoryEntry.errors!.map((e) => e.instancePath);
    expect(pointers).toEqual(['/id', '/tags/1', '/createdAt']);
    expect(body.error.data.issues.map((i) => pointerOf(i.path))).toEqual(pointers);
    expect(body.error.data.issues.map((i) => i.path)).toEqual([['id'], ['tags', 1], ['createdAt']]);
  });
});
