import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AssistantConfigError, configViolations, DEFAULT_ASSISTANT_CONFIG, loadAssistantConfig } from '../../../runtime/inquirium/config.ts';
import { DtoValidationError } from '../../../runtime/inquirium/dto.ts';

describe('assistant config loading', () => {
  it('the shipped defaults are monotone on every safety axis and validate as inquirium.assistant-config.v1', () => {
    expect(configViolations(DEFAULT_ASSISTANT_CONFIG)).toEqual([]);
    expect(loadAssistantConfig({ schema: 'inquirium.assistant-config.v1', ...DEFAULT_ASSISTANT_CONFIG }).config).toEqual(DEFAULT_ASSISTANT_CONFIG);
  });
  it('a non-monotone safety setting is rejected at load time, naming the setting and the keys', () => {
    const doc = { schema: 'inquirium.assistant-config.v1', egress: { default: 'deny', by_class: { public: 'deny', personal: 'allow_accepting_remote' } } };
    let err: unknown;
    try {
      loadAssistantConfig(doc);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AssistantConfigError);
    expect((err as AssistantConfigError).violations.map((v) => `${v.setting}:${v.lowerKey}<${v.higherKey}`)).toEqual(['egress:public<personal', 'egress:community<personal']);
  });
  it('an explicit operator acknowledgement of that setting lets it load, and the violations stay visible', () => {
    const doc = { schema: 'inquirium.assistant-config.v1', verification_rigor: { default: 'strict', by_mode: { commons: 'strict', crisis: 'standard' } } };
    expect(() => loadAssistantConfig(doc)).toThrow(AssistantConfigError);
    expect(() => loadAssistantConfig(doc, { acknowledge: ['egress'] })).toThrow(AssistantConfigError);
    const loaded = loadAssistantConfig(doc, { acknowledge: ['verification_rigor'] });
    expect(loaded.acknowledged.map((v) => v.setting)).toEqual(['verification_rigor', 'verification_rigor']);
  });
  it('a given setting is kept as written (default and its keyed entries), an absent one takes the shipped default (property)', () => {
    const given = {
      retention: { default: { max_age: 'P7D', on_expiry: 'excise' }, by_class: { public: { max_age: 'P7D' } } },
      trace_level: { default: 'metadata_only' },
      egress: { default: 'deny' },
      verification_rigor: { default: 'strict', by_mode: { commons: 'elevated' } },
      escalation_threshold: { default: { escalate: ['operator-decision', 'sustained-degradation', 'boundary-risk', 'pre-egress-confirmation', 'crisis-candidate'] } },
    } as const;
    const settings = ['retention', 'trace_level', 'egress', 'verification_rigor', 'escalation_threshold'] as const satisfies readonly (keyof typeof given)[];
    fc.assert(
      fc.property(fc.subarray([...settings]), (chosen) => {
        const doc = { schema: 'inquirium.assistant-config.v1', ...Object.fromEntries(chosen.map((k) => [k, given[k]])) };
        const { config } = loadAssistantConfig(doc);
        for (const k of settings) expect(config[k], k).toEqual(chosen.includes(k) ? given[k] : DEFAULT_ASSISTANT_CONFIG[k]);
      }),
      { numRuns: 40 },
    );
  });
  it('a malformed document is refused by the schema before any check', () => {
    expect(() => loadAssistantConfig({ schema: 'inquirium.assistant-config.v1', retention: { by_class: {} } })).toThrow(DtoValidationError);
  });
});
