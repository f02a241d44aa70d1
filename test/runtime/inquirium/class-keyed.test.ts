/** ClassKeyed<T>: its own suite (resolution, fallback, tracing, monotonicity), independent of ModeKeyed. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkClassKeyedMonotone, resolveClassKeyed, type ClassKeyed, type SafetyAxis } from '../../../runtime/inquirium/keyed.ts';
import { egressAxis, retentionAxis, rigorAxis, traceLevelAxis, type Egress, type RetentionProfile, type TraceLevel } from '../../../runtime/inquirium/safety-axes.ts';
import { CLASSIFICATIONS, classificationAxis, type Classification } from '../../../runtime/inquirium/lattice.ts';
import { checkDto } from '../../../runtime/inquirium/dto.ts';

/** Independent oracle for value orders: index in a list, least → most restrictive. */
const byIndex = <T extends string>(list: readonly T[]): SafetyAxis<T> => ({ name: 'oracle', compare: (a, b) => list.indexOf(a) - list.indexOf(b) });
const LEVELS = ['l0', 'l1', 'l2', 'l3', 'l4'] as const;
type Level = (typeof LEVELS)[number];
const levelAxis = byIndex(LEVELS);
const level = fc.constantFrom(...LEVELS);
const byClassArb = <T>(v: fc.Arbitrary<T>) => fc.dictionary(fc.constantFrom(...CLASSIFICATIONS), v);
const askArb = fc.oneof(fc.constantFrom<unknown>(...CLASSIFICATIONS), fc.constant(undefined), fc.constant(null), fc.string(), fc.integer());

describe('ClassKeyed<T>', () => {
  const cfg: ClassKeyed<Egress> = { default: 'allow_accepting_remote', by_class: { public: 'allow_accepting_remote', personal: 'deny' } };
  it('returns the configured value with a trace of what was asked, what answered and why', () => {
    expect(resolveClassKeyed(cfg, 'public', egressAxis)).toEqual({ axis: 'classification', asked: 'public', normalised: 'public', chosenKey: 'public', value: 'allow_accepting_remote', reason: 'configured' });
  });
  it('a missing key gets the most restrictive value among default and every configured entry', () => {
    expect(resolveClassKeyed(cfg, 'community', egressAxis)).toMatchObject({ normalised: 'community', chosenKey: 'personal', value: 'deny', reason: 'missing-key-most-restrictive-value' });
    // the strictest value can be the default, even when a key is configured
    const d: ClassKeyed<Egress> = { default: 'deny', by_class: { public: 'allow_accepting_remote' } };
    expect(resolveClassKeyed(d, 'personal', egressAxis)).toMatchObject({ chosenKey: 'default', value: 'deny', reason: 'missing-key-most-restrictive-value' });
  });
  it('an entry present with no value (undefined) is no entry: it never answers as a value', () => {
    const holey: ClassKeyed<Egress> = { default: 'deny', by_class: { public: undefined, community: 'allow_accepting_remote' } };
    expect(resolveClassKeyed(holey, 'public', egressAxis)).toMatchObject({ chosenKey: 'default', value: 'deny', reason: 'missing-key-most-restrictive-value' });
    expect(resolveClassKeyed(holey, 'public')).toMatchObject({ chosenKey: 'community', value: 'allow_accepting_remote', reason: 'missing-key-most-restrictive-key' });
    expect(resolveClassKeyed({ default: 'deny', by_class: { personal: undefined } }, 'public')).toMatchObject({ chosenKey: 'default', value: 'deny', reason: 'default' });
  });
  it('an unknown or missing label resolves as personal', () => {
    expect(resolveClassKeyed(cfg, 'top-secret', egressAxis)).toMatchObject({ asked: 'top-secret', normalised: 'personal', value: 'deny' });
    expect(resolveClassKeyed(cfg, undefined, egressAxis)).toMatchObject({ normalised: 'personal', value: 'deny' });
  });
  it('uses default when nothing is keyed', () => {
    expect(resolveClassKeyed({ default: 'deny' as Egress }, 'public', egressAxis)).toMatchObject({ chosenKey: 'default', value: 'deny', reason: 'default' });
  });
  it('behaviour-shaping values without an order fall back to the most restrictive configured key', () => {
    const prompt: ClassKeyed<string> = { default: 'template-default', by_class: { public: 'template-public', community: 'template-community' } };
    expect(resolveClassKeyed(prompt, 'personal')).toMatchObject({ chosenKey: 'community', value: 'template-community', reason: 'missing-key-most-restrictive-key' });
    expect(resolveClassKeyed({ default: 'template-default' }, 'personal')).toMatchObject({ chosenKey: 'default', reason: 'default' });
  });
  it('resolve never returns a value less restrictive than the fallback for a missing key (property)', () => {
    fc.assert(
      fc.property(level, byClassArb(level), askArb, (def, byClass, ask) => {
        const r = resolveClassKeyed<Level>({ default: def, by_class: byClass }, ask, levelAxis);
        const key = classificationAxis.normalise(ask);
        if (key in byClass) {
          expect(r.value).toBe(byClass[key]);
        } else {
          // oracle: the strictest of default and every configured value
          const strictest = [def, ...Object.values(byClass)].reduce((a, b) => (LEVELS.indexOf(b) > LEVELS.indexOf(a) ? b : a));
          for (const v of [def, ...Object.values(byClass)]) expect(LEVELS.indexOf(r.value)).toBeGreaterThanOrEqual(LEVELS.indexOf(v));
          expect(r.value).toBe(strictest);
          expect(r.normalised).toBe(key);
        }
      }),
      { numRuns: 500 },
    );
  });
  it('the monotonicity validator reports the keys of a violation, fallbacks included', () => {
    const v = checkClassKeyedMonotone<TraceLevel>({ default: 'metadata_only', by_class: { public: 'metadata_only', personal: 'decision_detail' } }, traceLevelAxis);
    // community is missing and resolves to the strictest value (metadata_only): only personal is looser
    expect(v.map((x) => [x.lowerKey, x.higherKey])).toEqual([['public', 'personal'], ['community', 'personal']]);
    expect(v[0]).toMatchObject({ setting: 'trace_level', axis: 'classification', lowerValue: 'metadata_only', higherValue: 'decision_detail' });
    expect(v[0]!.message).toContain('personal');
  });
  it('finds every planted violation and accepts every monotone config (property)', () => {
    fc.assert(
      fc.property(fc.array(level, { minLength: 3, maxLength: 3 }), fc.subarray([...CLASSIFICATIONS]), level, (vals, present, def) => {
        const sorted = [...vals].sort((a, b) => LEVELS.indexOf(a) - LEVELS.indexOf(b));
        // a monotone config: values rise with the label; default at least as strict as any (so fallbacks stay monotone)
        const monotone: ClassKeyed<Level> = { default: sorted[2]!, by_class: Object.fromEntries(CLASSIFICATIONS.map((c, i) => [c, sorted[i]!])) };
        expect(checkClassKeyedMonotone(monotone, levelAxis)).toEqual([]);
        // plant: arbitrary values on a subset of keys; oracle computes violations on the resolved values
        const byClass = Object.fromEntries(present.map((c, i) => [c, vals[i]!])) as Partial<Record<Classification, Level>>;
        const resolved = CLASSIFICATIONS.map((c) => (c in byClass ? byClass[c]! : [def, ...Object.values(byClass)].reduce((a, b) => (LEVELS.indexOf(b) > LEVELS.indexOf(a) ? b : a))));
        const expected: string[] = [];
        for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) if (LEVELS.indexOf(resolved[j]!) < LEVELS.indexOf(resolved[i]!)) expected.push(`${CLASSIFICATIONS[i]}<${CLASSIFICATIONS[j]}`);
        const found = checkClassKeyedMonotone({ default: def, by_class: byClass }, levelAxis).map((x) => `${x.lowerKey}<${x.higherKey}`);
        expect(found).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
  it('retention: longer retention for more sensitive data is a violation; shorter or excise-on-expiry is fine', () => {
    const long: ClassKeyed<RetentionProfile> = { default: { max_age: 'P30D' }, by_class: { public: { max_age: 'P30D' }, community: { max_age: 'P30D' }, personal: { max_age: 'P365D' } } };
    expect(checkClassKeyedMonotone(long, retentionAxis).map((x) => x.higherKey)).toEqual(['personal', 'personal']);
    expect(checkClassKeyedMonotone({ default: { max_age: 'P30D' }, by_class: { public: { max_age: 'P365D' }, personal: { max_age: 'P7D', on_expiry: 'excise' } } }, retentionAxis)).toEqual([]);
  });
  it('egress: allowing egress for personal but denying it for public is a violation', () => {
    expect(checkClassKeyedMonotone<Egress>({ default: 'deny', by_class: { public: 'deny', community: 'deny', personal: 'allow_accepting_remote' } }, egressAxis)).toHaveLength(2);
  });
  it('every generated ClassKeyed config is a valid assistant-config egress/trace_level block', () => {
    fc.assert(
      fc.property(fc.constantFrom<Egress>('deny', 'allow_accepting_remote'), byClassArb(fc.constantFrom<Egress>('deny', 'allow_accepting_remote')), (def, byClass) => {
        expect(checkDto('inquirium.assistant-config.v1', { schema: 'inquirium.assistant-config.v1', egress: { default: def, by_class: byClass } })).toEqual([]);
      }),
      { numRuns: 50 },
    );
    expect(checkDto('inquirium.assistant-config.v1', { schema: 'inquirium.assistant-config.v1', egress: { default: 'deny', by_class: { secret: 'deny' } } })).not.toEqual([]);
  });
  it('rigor is not a class-keyed setting in the schema (mode-keyed only)', () => {
    expect(rigorAxis.name).toBe('verification_rigor');
    expect(checkDto('inquirium.assistant-config.v1', { schema: 'inquirium.assistant-config.v1', verification_rigor: { default: 'strict', by_class: { public: 'standard' } } })).not.toEqual([]);
  });
});
