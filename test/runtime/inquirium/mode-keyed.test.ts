import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkModeKeyedMonotone, resolveModeKeyed, type ModeKeyed } from '../../../runtime/inquirium/keyed.ts';
import { escalationAxis, rigorAxis, type VerificationRigor } from '../../../runtime/inquirium/safety-axes.ts';
import { DEFAULT_ESCALATION_THRESHOLD, escalationFor } from '../../../runtime/inquirium/escalation-policy.ts';
import { MODES } from '../../../runtime/inquirium/lattice.ts';

describe('ModeKeyed<T>', () => {
  const cfg: ModeKeyed<VerificationRigor> = { default: 'standard', by_mode: { commons: 'standard', crisis: 'strict' } };
  it('resolves a configured mode and traces it', () => {
    expect(resolveModeKeyed(cfg, 'commons')).toMatchObject({ axis: 'mode', chosenKey: 'commons', value: 'standard', reason: 'configured' });
  });
  it('falls back to the most severe configured mode for a missing or unknown mode', () => {
    expect(resolveModeKeyed(cfg, 'support')).toMatchObject({ chosenKey: 'crisis', value: 'strict' });
    expect(resolveModeKeyed(cfg, 'blackout')).toMatchObject({ normalised: 'crisis', value: 'strict' });
  });
  it('rigor may only tighten as severity rises', () => {
    expect(checkModeKeyedMonotone(cfg, rigorAxis)).toEqual([]);
    const bad = checkModeKeyedMonotone({ default: 'strict', by_mode: { commons: 'strict', support: 'standard', crisis: 'elevated' } }, rigorAxis);
    expect(bad.map((v) => `${v.lowerKey}>${v.higherKey}`)).toEqual(['commons>support', 'commons>crisis']);
  });
  it('a missing mode never resolves looser than the most severe configured mode (property)', () => {
    const r = fc.constantFrom<VerificationRigor>('standard', 'elevated', 'strict');
    fc.assert(
      fc.property(r, fc.dictionary(fc.constantFrom(...MODES), r, { minKeys: 1 }), fc.constantFrom(...MODES), (def, byMode, ask) => {
        const res = resolveModeKeyed({ default: def, by_mode: byMode }, ask);
        if (!(ask in byMode)) {
          const top = MODES.filter((m) => m in byMode).at(-1)!;
          expect(res.value).toBe(byMode[top]);
        }
      }),
    );
  });
  it('the shipped escalation threshold is monotone in severity', () => {
    expect(checkModeKeyedMonotone(DEFAULT_ESCALATION_THRESHOLD, escalationAxis)).toEqual([]);
  });
  it('escalation is feed-only by default; boundary-risk escalates only in support/crisis; decisions become prompts', () => {
    expect(escalationFor({}, 'commons').level).toBe('feed');
    expect(escalationFor({ reason: 'runtime-selected' }, 'crisis').level).toBe('feed');
    expect(escalationFor({ reason: 'boundary-risk' }, 'commons').level).toBe('feed');
    expect(escalationFor({ reason: 'boundary-risk' }, 'crisis').level).toBe('notification');
    expect(escalationFor({ reason: 'operator-decision' }, 'commons').level).toBe('operator-prompt');
    expect(escalationFor({ reason: 'sustained-degradation' }, 'commons').level).toBe('notification');
  });
});
