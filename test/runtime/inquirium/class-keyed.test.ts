import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkClassKeyedMonotone, resolveClassKeyed, type ClassKeyed } from '../../../runtime/inquirium/keyed.ts';
import { egressAxis, rigorAxis, traceLevelAxis, retentionAxis, type Egress } from '../../../runtime/inquirium/safety-axes.ts';
import { CLASSIFICATIONS } from '../../../runtime/inquirium/lattice.ts';
import { checkDto } from '../../../runtime/inquirium/dto.ts';

describe('ClassKeyed<T>', () => {
  const cfg: ClassKeyed<Egress> = { default: 'allow_accepting_remote', by_class: { public: 'allow_accepting_remote', personal: 'deny' } };
  it('returns the configured value with a trace of what was asked and why', () => {
    expect(resolveClassKeyed(cfg, 'public')).toEqual({ axis: 'classification', asked: 'public', normalised: 'public', chosenKey: 'public', value: 'allow_accepting_remote', reason: 'configured' });
  });
  it('falls back to the most restrictive configured class when the key is missing', () => {
    expect(resolveClassKeyed(cfg, 'community')).toMatchObject({ chosenKey: 'personal', value: 'deny', reason: 'missing-key-most-restrictive-fallback' });
  });
  it('treats an unknown classification as personal', () => {
    expect(resolveClassKeyed(cfg, 'top-secret')).toMatchObject({ normalised: 'personal', value: 'deny' });
    expect(resolveClassKeyed(cfg, undefined)).toMatchObject({ normalised: 'personal', value: 'deny' });
  });
  it('uses default only when nothing is keyed', () => {
    expect(resolveClassKeyed({ default: 'deny' as Egress }, 'public')).toMatchObject({ chosenKey: 'default', value: 'deny', reason: 'default' });
  });
  it('resolve never returns a value less restrictive than the fallback for a missing key (property)', () => {
    const egress = fc.constantFrom<Egress>('allow_accepting_remote', 'deny');
    fc.assert(
      fc.property(egress, fc.dictionary(fc.constantFrom(...CLASSIFICATIONS), egress), fc.constantFrom(...CLASSIFICATIONS, 'unknown'), (def, byClass, ask) => {
        const c: ClassKeyed<Egress> = { default: def, by_class: byClass };
        const r = resolveClassKeyed(c, ask);
        if (r.reason === 'missing-key-most-restrictive-fallback') {
          const configured = CLASSIFICATIONS.filter((k) => k in byClass);
          const mostRestrictiveValue = byClass[configured[configured.length - 1]!]!;
          expect(egressAxis.compare(r.value, mostRestrictiveValue)).toBeGreaterThanOrEqual(0);
        }
        expect(checkDto('inquirium.assistant-config.v1', { schema: 'inquirium.assistant-config.v1', egress: c })).toEqual([]);
      }),
    );
  });
  it('the monotonicity validator reports the keys of a violation, fallbacks included', () => {
    // community is missing, so it resolves to personal's value and violates against public as well
    const v = checkClassKeyedMonotone({ default: 'metadata_only', by_class: { public: 'metadata_only', personal: 'decision_detail' } }, traceLevelAxis);
    expect(v.map((x) => [x.lowerKey, x.higherKey])).toEqual([['public', 'community'], ['public', 'personal']]);
    expect(v[0]!.message).toContain('community');
  });
  it('finds every planted violation and accepts every monotone config (property)', () => {
    const rigor = fc.constantFrom('standard', 'elevated', 'strict' as const);
    fc.assert(
      fc.property(fc.tuple(rigor, rigor, rigor), ([a, b, c]) => {
        const cfg2 = { default: a, by_class: { public: a, community: b, personal: c } } as const;
        const v = [a, b, c];
        const pairs: [number, number][] = [[0, 1], [0, 2], [1, 2]];
        const expected = pairs.filter(([i, j]) => rigorAxis.compare(v[j]!, v[i]!) < 0).length;
        expect(checkClassKeyedMonotone(cfg2, rigorAxis)).toHaveLength(expected);
      }),
    );
  });
  it('retention: longer retention for more sensitive data is a violation', () => {
    expect(checkClassKeyedMonotone({ default: { max_age: 'P30D' }, by_class: { public: { max_age: 'P30D' }, community: { max_age: 'P30D' }, personal: { max_age: 'P365D' } } }, retentionAxis)).toHaveLength(2);
    expect(checkClassKeyedMonotone({ default: { max_age: 'P30D' }, by_class: { public: { max_age: 'P365D' }, personal: { max_age: 'P7D', on_expiry: 'excise' } } }, retentionAxis)).toHaveLength(0);
  });
});
