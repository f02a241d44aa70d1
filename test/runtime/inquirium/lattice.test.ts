import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { classificationAxis, modeAxis, normaliseClassification } from '../../../runtime/inquirium/lattice.ts';

describe('classification lattice and mode order', () => {
  it('orders public < community < personal and treats unknown or missing as personal', () => {
    expect(classificationAxis.keys).toEqual(['public', 'community', 'personal']);
    for (const v of [undefined, null, 'secret', 'PUBLIC', 3, {}]) expect(normaliseClassification(v)).toBe('personal');
    expect(classificationAxis.join('public', 'community')).toBe('community');
    expect(classificationAxis.meet('personal', 'community')).toBe('community');
    expect(classificationAxis.join('public', 'bogus')).toBe('personal');
    expect(classificationAxis.atLeastAsRestrictive('personal', 'public')).toBe(true);
    expect(classificationAxis.atLeastAsRestrictive('public', 'community')).toBe(false);
  });
  it('orders modes commons < support < crisis and treats an unknown mode as crisis', () => {
    expect(modeAxis.keys).toEqual(['commons', 'support', 'crisis']);
    expect(modeAxis.normalise('war')).toBe('crisis');
    expect(modeAxis.join('commons', 'support')).toBe('support');
  });
  it('join and meet are commutative, associative, idempotent and absorptive (property)', () => {
    const v = fc.oneof(fc.constantFrom('public', 'community', 'personal'), fc.string());
    fc.assert(
      fc.property(v, v, v, (a, b, c) => {
        const { join, meet, normalise } = classificationAxis;
        expect(join(a, b)).toBe(join(b, a));
        expect(meet(a, b)).toBe(meet(b, a));
        expect(join(join(a, b), c)).toBe(join(a, join(b, c)));
        expect(join(a, a)).toBe(normalise(a));
        expect(join(a, meet(a, b))).toBe(normalise(a));
        expect(classificationAxis.atLeastAsRestrictive(join(a, b), a)).toBe(true);
      }),
    );
  });
  it('mode join and meet follow severity and agree with at-least-as-restrictive (property)', () => {
    const v = fc.oneof(fc.constantFrom('commons', 'support', 'crisis'), fc.string());
    fc.assert(
      fc.property(v, v, (a, b) => {
        const { join, meet, normalise, atLeastAsRestrictive, keys } = modeAxis;
        expect(keys.indexOf(join(a, b))).toBe(Math.max(keys.indexOf(normalise(a)), keys.indexOf(normalise(b))));
        expect(keys.indexOf(meet(a, b))).toBe(Math.min(keys.indexOf(normalise(a)), keys.indexOf(normalise(b))));
        expect(atLeastAsRestrictive(a, b)).toBe(join(a, b) === normalise(a));
      }),
    );
  });
  it('the orders are written once: every module derives from lattice.ts', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const root = 'runtime/inquirium';
    const files = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : []));
    for (const f of files(root).filter((f) => !f.endsWith('lattice.ts'))) {
      const src = readFileSync(f, 'utf8');
      expect(src, f).not.toMatch(/\[\s*'public'\s*,\s*'community'\s*,\s*'personal'\s*\]/);
      expect(src, f).not.toMatch(/\[\s*'commons'\s*,\s*'support'\s*,\s*'crisis'\s*\]/);
      expect(src, f).not.toMatch(/public:\s*0\s*,\s*community:\s*1/);
    }
  });
});

