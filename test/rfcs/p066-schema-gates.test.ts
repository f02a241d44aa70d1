import { describe, expect, it } from 'vitest';
import {
  validateInquiriumAssistantUiPreferences, validateInquiriumGenerateRequest, validateInquiriumGenerateResponse, validateInquiriumInquiryFeedback,
} from '../../generated/validators/validators.js';
import { readFileSync } from 'node:fs';

const schema = (f: string) => JSON.parse(readFileSync(`schemas/inquirium/v1/${f}.schema.json`, 'utf8'));
const request = { schema: 'inquirium.generate.request.v1', operation: 'generate', turns: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };

describe('P066 schema gates', () => {
  it('plurality defaults to preserve and only preserve | collapse are representable', () => {
    expect(schema('inquirium.generate.request.v1').$defs.GeneratePolicy.properties.plurality.default).toBe('preserve');
    expect(validateInquiriumGenerateRequest({ ...request, policy: { plurality: 'collapse' } })).toBe(true);
    expect(validateInquiriumGenerateRequest({ ...request, policy: { plurality: 'majority' } })).toBe(false);
  });
  it('non-dopamine UI: initiation is only never; streak_count and nudge_after are rejected', () => {
    const prefs = { schema: 'inquirium.assistant-ui-preferences.v1', initiation: 'never' };
    expect(validateInquiriumAssistantUiPreferences(prefs)).toBe(true);
    expect(validateInquiriumAssistantUiPreferences({ ...prefs, initiation: 'daily' })).toBe(false);
    expect(validateInquiriumAssistantUiPreferences({ ...prefs, streak_count: 3 })).toBe(false);
    expect(validateInquiriumAssistantUiPreferences({ ...prefs, nudge_after: 'P1D' })).toBe(false);
  });
  it('feedback targets one result with verified | refuted | amended, and amended needs a note', () => {
    const fb = { schema: 'inquirium.inquiry-feedback.v1', 'feedback/id': 'feedback:1', 'result/ref': 'result:1', 'session/ref': 'session:1', 'participant/ref': 'participant:did:key:z6Mk', verdict: 'verified', 'recorded/at': '2026-06-04T10:00:00Z' };
    expect(validateInquiriumInquiryFeedback(fb)).toBe(true);
    expect(validateInquiriumInquiryFeedback({ ...fb, verdict: 'liked' })).toBe(false);
    expect(validateInquiriumInquiryFeedback({ ...fb, verdict: 'amended' })).toBe(false);
    expect(validateInquiriumInquiryFeedback({ ...fb, verdict: 'amended', note: 'the date was wrong' })).toBe(true);
  });
  it('a generate response cannot be authoritative and cannot carry effects', () => {
    const ok = { schema: 'inquirium.generate.response.v1', operation: 'generate', outcome: 'completed', output: [{ type: 'text', text: 'x' }], epistemic: { stance: 'advisory', confidence: 'unstated', grounded_in: [], caveats: [] }, 'runtime/ref': 'runtime/a', 'model.binding/ref': 'model.binding/a', locality: 'local_only', 'trace/ref': 'tr:1' };
    expect(validateInquiriumGenerateResponse(ok)).toBe(true);
    expect(validateInquiriumGenerateResponse({ ...ok, epistemic: { ...ok.epistemic, stance: 'authoritative' } })).toBe(false);
    expect(validateInquiriumGenerateResponse({ ...ok, effects: [] })).toBe(false);
  });
});
