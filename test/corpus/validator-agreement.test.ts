/**
 * Ajv is the reference oracle of our emitted validators (generated/validators/validators.js, and OpenWOP v2's
 * generated/validators/v2/validators.js). On instances built
 * from every corpus type (test/corpus/arbitrary.ts), on near misses made by small edits of those and of every valid
 * example, and on every example file:
 *  - the verdict equals Ajv's (compiled here from the schemas, allErrors: false, and allErrors: true);
 *  - the first error equals Ajv's first error (allErrors: false) in instancePath and keyword — with one documented
 *    exception, `contains` (see `firstErrorAgrees`);
 *  - the full `errors` list equals Ajv's allErrors list (instancePath, keyword, params, message, propertyName).
 * Also: the keyword order table is Ajv's, and each format function accepts exactly what ajv-formats accepts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved, type TypeInfo } from '../../generator/resolve.ts';
import { createAjv } from '../../generator/ajv.ts';
import type { Json } from '../../generator/model.ts';
import { KEYWORD_ORDER, FORMATS, DATE_TIME_CODE } from '../../generator/emit/validators/keywords.ts';
import { validatorIndex } from '../../generated/validators/validators.js';
import { validatorIndex as v2ValidatorIndex } from '../../generated/validators/v2/validators.js';
import { applyEdits, arbitraryFor, editArbitrary } from './arbitrary.ts';
import { oracleAjv } from './oracle.ts';
import { REPO } from '../generator/helpers.ts';

const corpus = loadCorpus(REPO);
const r = new Resolved(corpus);
const ajvFirst = oracleAjv(corpus, { allErrors: false });
const ajvAll = oracleAjv(corpus);
interface Err {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  propertyName?: string;
}
type V = ((d: unknown) => boolean) & { errors?: Err[] | null };
const ours = { ...validatorIndex, ...v2ValidatorIndex } as unknown as Record<string, { validator: V }>;
const RUNS_PER_TYPE = Number(process.env['AGREEMENT_RUNS'] ?? 64);
const EDITS_PER_EXAMPLE = Number(process.env['AGREEMENT_EDITS'] ?? 12);
let checked = 0;

/** What two error lists must share (schemaPath differs by design, see docs/validators.md). */
const comparable = (errors: readonly Err[] | null | undefined) =>
  (errors ?? []).map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, params: e.params, message: e.message, propertyName: e.propertyName }));

/**
 * First-error rule. Ours lists failures in Ajv's allErrors order, so the first is Ajv's first failure — except for a
 * failed `contains` outside any anyOf/oneOf/not/if/contains: Ajv's first-failure mode then reports the `contains` error
 * alone (it discards the items' failures it collected), while its allErrors mode (and ours) lists the items' failures
 * first. For that case we require the `contains` error at Ajv's pointer, preceded only by failures inside that array.
 */
function firstErrorAgrees(oursList: readonly Err[], ajvList: readonly Err[], where: string): void {
  const a = ajvList[0] as Err;
  const o = oursList[0] as Err;
  if (a.keyword === 'contains' && !(o.keyword === 'contains' && o.instancePath === a.instancePath)) {
    const at = oursList.findIndex((e) => e.keyword === 'contains' && e.instancePath === a.instancePath);
    expect(at, `${where}: contains error at "${a.instancePath}"`).toBeGreaterThan(0);
    for (const e of oursList.slice(0, at)) expect(e.instancePath.startsWith(`${a.instancePath}/`), where).toBe(true);
    return;
  }
  expect([o.instancePath, o.keyword], `${where}: first error`).toEqual([a.instancePath, a.keyword]);
}

/** Our validator of type t and Ajv agree on x: verdict, first error, every error. */
function agree(t: TypeInfo, x: unknown): void {
  checked++;
  const v = ours[t.title]!.validator;
  const first = ajvFirst.getSchema(t.ajvRef)!;
  const all = ajvAll.getSchema(t.ajvRef)!;
  const valid = v(x);
  const where = `${t.title} on ${JSON.stringify(x)?.slice(0, 300)}`;
  expect(valid, where).toBe(first(x));
  expect(valid, where).toBe(all(x));
  if (valid) {
    expect(v.errors, where).toBeNull();
    return;
  }
  const errors = v.errors as Err[];
  expect(comparable(errors), where).toEqual(comparable(all.errors as Err[]));
  firstErrorAgrees(errors, first.errors as Err[], where);
}

const typeOfExample = new Map([...r.entries.values()].map((e) => [`${e.file.family}/${e.file.major}/${e.target}`, e]));

describe('our validators agree with Ajv', () => {
  it('on every example file', () => {
    for (const ex of corpus.examples) agree(typeOfExample.get(`${ex.family}/${ex.major}/${ex.target}`)!, ex.instance);
  });

  it('on instances built from every corpus type and on near misses of them', () => {
    let types = 0;
    for (const t of r.types) {
      let arb: fc.Arbitrary<Json>;
      try {
        arb = arbitraryFor(r, t.file, t.schema);
      } catch {
        arb = fc.jsonValue() as fc.Arbitrary<Json>; // a shape arbitrary.ts cannot build: arbitrary JSON still probes it
      }
      types++;
      const nearMiss = fc.tuple(arb, fc.array(editArbitrary, { minLength: 1, maxLength: 3 })).map(([x, edits]) => applyEdits(x, edits));
      fc.assert(fc.property(fc.oneof(arb, nearMiss, nearMiss), (x) => agree(t, x)), { numRuns: RUNS_PER_TYPE });
    }
    expect(types).toBe(r.types.length);
  });

  it('on near misses of every valid example', () => {
    for (const ex of corpus.examples.filter((e) => e.kind === 'valid')) {
      const t = typeOfExample.get(`${ex.family}/${ex.major}/${ex.target}`)!;
      fc.assert(
        fc.property(fc.array(editArbitrary, { minLength: 1, maxLength: 2 }), (edits) => agree(t, applyEdits(ex.instance, edits))),
        { numRuns: EDITS_PER_EXAMPLE },
      );
    }
  });

  it('checked at least 10,000 instances in all', () => {
    expect(checked).toBeGreaterThanOrEqual(10_000);
  });
});

describe('the emitter follows Ajv', () => {
  it('keyword order: our groups and keywords in the order of ajv.RULES', () => {
    const rules = (createAjv() as unknown as { RULES: { rules: { type?: string; rules: { keyword: string }[] }[] } }).RULES.rules;
    const groupOrder = rules.map((g) => g.type ?? 'any').filter((g) => KEYWORD_ORDER.some(([ours]) => ours === g));
    expect(KEYWORD_ORDER.map(([g]) => g)).toEqual(groupOrder);
    for (const [g, kws] of KEYWORD_ORDER) {
      const ajvGroup = rules.find((x) => (x.type ?? 'any') === g)!;
      expect(ajvGroup.rules.map((x) => x.keyword).filter((k) => kws.includes(k)), g).toEqual(kws);
    }
  });

  const formatFn = (name: string) => {
    const f = FORMATS[name]!;
    return new Function(`${f.dateTime ? DATE_TIME_CODE : ''}\n${f.code}\nreturn ${f.fn};`)() as (s: string) => boolean;
  };
  const reference = (name: string): ((s: string) => boolean) => {
    const f = (fullFormats as Record<string, unknown>)[name];
    if (f instanceof RegExp) return (s) => f.test(s);
    if (typeof f === 'function') return f as (s: string) => boolean;
    return (f as { validate: (s: string) => boolean }).validate;
  };
  const digit = fc.integer({ min: 0, max: 9 }).map(String);
  const digits = (n: number) => fc.array(digit, { minLength: n, maxLength: n }).map((d) => d.join(''));
  const pick = (...xs: string[]) => fc.constantFrom(...xs);
  // Near-valid strings for each format: the right shape with wrong numbers, odd separators and offsets, and noise.
  const NEAR: Record<string, fc.Arbitrary<string>> = {
    date: fc.tuple(digits(4), pick('-', '/'), digits(2), pick('-', ''), digits(2)).map((p) => p.join('')),
    time: fc.tuple(digits(2), pick(':'), digits(2), pick(':', '.'), digits(2), pick('', '.5', '.123', '.'), pick('Z', 'z', '', '+01:00', '-2359', '+24:00', '+05', '+05:', 'Zx')).map((p) => p.join('')),
    duration: fc.tuple(pick('P', 'p', ''), pick('', '1Y', '2M', '3W', '10D'), pick('', 'T', 'T1H', 'T5M30S', 'T1S', 'TH'), pick('', '1W', 'x')).map((p) => p.join('')),
    uuid: fc.oneof(fc.uuid(), fc.string({ maxLength: 40 }), fc.uuid().map((u) => `urn:uuid:${u.toUpperCase()}`)),
    email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 20 }), fc.emailAddress().map((e) => e.replace('@', '@@'))),
    uri: fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.tuple(fc.webUrl(), pick('', ' ', '%', '[', ']', '%4', '#%zz', '::')).map((p) => p.join('')), fc.tuple(pick('a:', 'urn:', 'x+y:', '1a:', ':', 'a:/', 'a://'), fc.string({ maxLength: 8 })).map((p) => p.join(''))),
  };
  NEAR['date-time'] = fc.tuple(NEAR['date']!, pick('T', 't', ' ', '\u2028', '\u00a0', 'x', 'TT'), NEAR['time']!).map((p) => p.join(''));
  for (const name of Object.keys(FORMATS)) {
    it(`format ${name} accepts exactly what ajv-formats (full) accepts`, () => {
      const ours = formatFn(name);
      const ref = reference(name);
      fc.assert(fc.property(fc.oneof(NEAR[name]!, fc.string({ maxLength: 30 })), (s) => {
        expect(ours(s), JSON.stringify(s)).toBe(ref(s));
      }), { numRuns: 3000 });
    });
  }
});
