/** ModeKeyed<T>: its own suite (resolution, fallback, tracing, monotone rigor), independent of ClassKeyed. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkModeKeyedMonotone, resolveModeKeyed, resolveOnAxis, type ModeKeyed } from '../../../runtime/inquirium/keyed.ts';
import { escalationAxis, rigorAxis, ESCALATION_TRIGGERS, type EscalationThreshold, type VerificationRigor } from '../../../runtime/inquirium/safety-axes.ts';
import { MODES, modeAxis, type NodeMode } from '../../../runtime/inquirium/lattice.ts';

const RIGOR: readonly VerificationRigor[] = ['standard', 'elevated', 'strict'];
const rigor = fc.constantFrom(...RIGOR);
const modeAsk = fc.oneof(fc.constantFrom<unknown>(...MODES), fc.constant(undefined), fc.string());

describe('ModeKeyed<T>', () => {
  const cfg: ModeKeyed<VerificationRigor> = { default: 'standard', by_mode: { commons: 'standard', crisis: 'strict' } };
  it('resolves a configured mode and says so', () => {
    expect(resolveModeKeyed(cfg, 'commons', rigorAxis)).toEqual({ axis: 'mode', asked: 'commons', normalised: 'commons', chosenKey: 'commons', value: 'standard', reason: 'configured' });
  });
  it('falls back to the strictest value for a missing mode; an unknown mode is crisis', () => {
    expect(resolveModeKeyed(cfg, 'support', rigorAxis)).toMatchObject({ chosenKey: 'crisis', value: 'strict', reason: 'missing-key-most-restrictive-value' });
    expect(resolveModeKeyed(cfg, 'blackout', rigorAxis)).toMatchObject({ normalised: 'crisis', value: 'strict', reason: 'configured' });
    expect(resolveModeKeyed({ default: 'elevated' as VerificationRigor, by_mode: { commons: 'standard' } }, 'crisis', rigorAxis)).toMatchObject({ chosenKey: 'default', value: 'elevated' });
  });
  it('ClassKeyed and ModeKeyed share one resolution function', () => {
    fc.assert(
      fc.property(rigor, fc.dictionary(fc.constantFrom(...MODES), rigor), modeAsk, (def, byMode, ask) => {
        expect(resolveModeKeyed({ default: def, by_mode: byMode }, ask, rigorAxis)).toEqual(resolveOnAxis(modeAxis, def, byMode, ask, rigorAxis));
      }),
      { numRuns: 200 },
    );
  });
  it('a missing mode never resolves looser than any configured value or the default (property)', () => {
    fc.assert(
      fc.property(rigor, fc.dictionary(fc.constantFrom(...MODES), rigor), modeAsk, (def, byMode, ask) => {
        const res = resolveModeKeyed({ default: def, by_mode: byMode }, ask, rigorAxis);
        const key = modeAxis.normalise(ask);
        if (key in byMode) expect(res.value).toBe(byMode[key]);
        else for (const v of [def, ...Object.values(byMode)]) expect(RIGOR.indexOf(res.value)).toBeGreaterThanOrEqual(RIGOR.indexOf(v));
      }),
      { numRuns: 500 },
    );
  });
  it('rigor may only tighten as severity rises: violations name both modes', () => {
    expect(checkModeKeyedMonotone(cfg, rigorAxis)).toEqual([]);
    const bad = checkModeKeyedMonotone<VerificationRigor>({ default: 'strict', by_mode: { commons: 'strict', support: 'standard', crisis: 'elevated' } }, rigorAxis);
    expect(bad.map((v) => `${v.lowerKey}>${v.higherKey}`)).toEqual(['commons>support', 'commons>crisis']);
    expect(bad[0]).toMatchObject({ setting: 'verification_rigor', axis: 'mode' });
  });
  it('finds every planted rigor violation and accepts every monotone config (property)', () => {
    fc.assert(
      fc.property(fc.tuple(rigor, rigor, rigor), ([a, b, c]) => {
        const cfg2: ModeKeyed<VerificationRigor> = { default: 'strict', by_mode: { commons: a, support: b, crisis: c } };
        const v = [a, b, c];
        const expected: string[] = [];
        for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) if (RIGOR.indexOf(v[j]!) < RIGOR.indexOf(v[i]!)) expected.push(`${MODES[i]}>${MODES[j]}`);
        expect(checkModeKeyedMonotone(cfg2, rigorAxis).map((x) => `${x.lowerKey}>${x.higherKey}`)).toEqual(expected);
        const sorted = [...v].sort((x, y) => RIGOR.indexOf(x) - RIGOR.indexOf(y));
        expect(checkModeKeyedMonotone({ default: 'strict', by_mode: { commons: sorted[0]!, support: sorted[1]!, crisis: sorted[2]! } }, rigorAxis)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
  it('escalation sets: a missing mode gets the union of every configured set; a smaller set in a more severe mode is a violation', () => {
    const t: ModeKeyed<EscalationThreshold> = { default: { escalate: ['operator-decision'] }, by_mode: { commons: { escalate: ['boundary-risk'] }, crisis: { escalate: ['crisis-candidate'] } } };
    expect(resolveModeKeyed(t, 'support', escalationAxis)).toMatchObject({ value: { escalate: ['operator-decision', 'boundary-risk', 'crisis-candidate'] }, reason: 'missing-key-join-of-values', chosenKey: 'join' });
    const v = checkModeKeyedMonotone(t, escalationAxis).map((x) => `${x.lowerKey}>${x.higherKey}`);
    expect(v).toEqual(['commons>crisis', 'support>crisis']);
  });
  it('escalation monotonicity: subsets that grow with severity pass; any dropped reason is found (property)', () => {
    const set = fc.subarray([...ESCALATION_TRIGGERS]);
    fc.assert(
      fc.property(set, set, set, (a, b, c) => {
        const byMode: Record<NodeMode, EscalationThreshold> = { commons: { escalate: a }, support: { escalate: b }, crisis: { escalate: c } };
        const vals = [a, b, c];
        const expected: string[] = [];
        for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) if (!vals[i]!.every((x) => vals[j]!.includes(x))) expected.push(`${MODES[i]}>${MODES[j]}`);
        expect(checkModeKeyedMonotone({ default: { escalate: [...ESCALATION_TRIGGERS] }, by_mode: byMode }, escalationAxis).map((x) => `${x.lowerKey}>${x.higherKey}`)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
