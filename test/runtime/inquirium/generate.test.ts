import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { builtinLocalRuntime, type InquiriumRuntimeOptions, type RuntimeRegistration } from '../../../runtime/inquirium/index.ts';
import { RuntimeInvokeError } from '../../../runtime/inquirium/adapters/types.ts';
import { checkDto } from '../../../runtime/inquirium/dto.ts';
import { InMemoryArtifactSink, PLURALITY_INSTRUCTION, type RegisteredRuntime } from '../../../runtime/inquirium/generate.ts';
import { DEFAULT_ASSISTANT_CONFIG, type AssistantConfig } from '../../../runtime/inquirium/config.ts';
import type { AcceptanceLayer } from '../../../runtime/inquirium/acceptance.ts';
import { acceptance, element, inquirium, OTHER_PARTICIPANT, PARTICIPANT, recordingRuntime, request } from './helpers.ts';

const ctx = { participant: PARTICIPANT, session: 'session:1' };
const make = (runtimes?: RuntimeRegistration[], extra: Partial<InquiriumRuntimeOptions> = {}) => inquirium({ ...(runtimes ? { runtimes } : {}), ...extra });
type Rt = Awaited<ReturnType<typeof make>>;
const decisionsOf = async (rt: Rt, i = 0) => (await rt.traces.recent())[i]!.body.decisions as { kind: string; outcome: string; 'reason/code': string; 'element/ref'?: string; classification?: string }[];
const granted = { policy: { scope: 'granted-context', trust_mode: 'classification_gated' } };
const detailConfig: AssistantConfig = { ...DEFAULT_ASSISTANT_CONFIG, trace_level: { default: 'decision_detail' } };

describe('generate pipeline (Phase 1: advise-only, local-only)', () => {
  it('answers through a local runtime with an advisory epistemic block and a trace ref; the response validates', async () => {
    const rt = await make();
    const res = await rt.generate(request('Help me think this through.'), ctx);
    expect(res).toMatchObject({ outcome: 'completed', locality: 'local_only', 'runtime/ref': 'runtime/builtin-local', epistemic: { stance: 'advisory', confidence: 'unstated', grounded_in: [] } });
    expect(checkDto('inquirium.generate.response.v1', res)).toEqual([]);
    expect(res['trace/ref']).toMatch(/^tr:/);
    expect((await rt.traces.recent()).map((t) => t.body['trace/id'])).toEqual([res['trace/ref']]);
  });
  it('with only a remote candidate it returns handler-unavailable and never calls the remote', async () => {
    const cloud = recordingRuntime('cloud', 'http_remote', () => 'remote', acceptance('personal', 'http_remote', 'personal'));
    const rt = await make([cloud], { config: detailConfig });
    const res = await rt.generate(request('hi'), ctx);
    expect(res).toMatchObject({ outcome: 'handler-unavailable', 'reason/code': 'no-local-candidate' });
    expect(res.output).toBeUndefined();
    expect(cloud.calls).toEqual([]);
    const sel = (await decisionsOf(rt)).filter((d) => d.kind === 'runtime-selection');
    expect(sel.map((d) => d['reason/code'])).toEqual(['not-local', 'no-local-candidate']);
    expect((await rt.traces.recent())[0]!.body.policy).toMatchObject({ locality: 'local_only', 'egress/allowed': false });
  });
  it('a healthy local runtime beside a remote one: the local one answers; with the local one down: unavailable, not remote', async () => {
    const cloud = recordingRuntime('cloud', 'http_remote', () => 'remote', acceptance('public', 'http_remote'));
    const local = recordingRuntime('local', 'http_local', () => 'local');
    expect(await (await make([cloud, local])).generate(request('x'), ctx)).toMatchObject({ outcome: 'completed', 'runtime/ref': 'runtime/local' });
    const down: RegisteredRuntime = { ...local, candidate: { ...local.candidate, health: { ...local.candidate.health, status: 'unhealthy' } } };
    expect(await (await make([cloud, down])).generate(request('x', { policy: { locality: 'local_only' } }), ctx)).toMatchObject({ outcome: 'handler-unavailable' });
    expect(cloud.calls).toEqual([]);
  });
  it('refuses context in the session-only scope instead of reading it', async () => {
    const local = recordingRuntime('local', 'http_local');
    const rt = await make([local]);
    const res = await rt.generate(request('x', { context_assembly: { schema: 'inquirium.context-assembly.request.v1', sources: [{ 'source/kind': 'memarium', 'grant/ref': 'grant:1' }] } }), ctx);
    expect(res).toMatchObject({ outcome: 'policy-denied', 'reason/code': 'context-outside-session-scope' });
    const res2 = await rt.generate(request('x'), { ...ctx, elements: [element('m1', 'public', { 'grant/ref': 'grant:1', content: [{ type: 'text', text: 'memarium fact' }] })] });
    expect(res2.outcome).toBe('policy-denied');
    expect(local.calls).toEqual([]);
  });
  it('no relationship, Memarium, messaging, artifact or dataset context is read in the Phase 1 scope, whatever the request asks', async () => {
    for (const kind of ['relationship', 'memarium', 'messaging', 'artifact', 'dataset'] as const) {
      const local = recordingRuntime('local', 'http_local');
      const rt = await make([local]);
      const source = { 'source/kind': kind, 'grant/ref': 'grant:1', ...(kind === 'artifact' || kind === 'dataset' ? { 'lease/ref': 'lease:1' } : {}) };
      const viaRequest = await rt.generate(request('x', { context_assembly: { schema: 'inquirium.context-assembly.request.v1', sources: [source] } }), ctx);
      const viaHost = await rt.generate(request('x'), { ...ctx, elements: [element(`${kind}-1`, 'public', { 'source/kind': kind, 'grant/ref': 'grant:1', content: [{ type: 'text', text: `${kind.toUpperCase()}-CONTENT` }] })] });
      expect([viaRequest.outcome, viaHost.outcome], kind).toEqual(['policy-denied', 'policy-denied']);
      expect(local.calls, kind).toEqual([]);
      expect(await rt.transcript.query({ participant: PARTICIPANT }), kind).toEqual([]);
    }
  });
  it('the default Phase 1 request reaches the model with only the turn and the plurality instruction: no other context', async () => {
    const local = recordingRuntime('local', 'http_local');
    await (await make([local])).generate(request('only this'), ctx);
    expect(local.calls[0]!.messages).toEqual([{ role: 'system', content: PLURALITY_INSTRUCTION }, { role: 'user', content: 'only this' }]);
    await (await make([local])).generate(request('collapse', { policy: { plurality: 'collapse' } }), ctx);
    expect(local.calls[1]!.messages).toEqual([{ role: 'user', content: 'collapse' }]);
  });
  it('rejects malformed requests (effects and unknown fields are unrepresentable)', async () => {
    const rt = await make();
    await expect(rt.generate({ ...request('x'), effects: [] }, ctx)).rejects.toThrow(/additional/);
    await expect(rt.generate({ schema: 'inquirium.generate.request.v1' }, ctx)).rejects.toThrow();
    expect(await rt.traces.recent()).toEqual([]);
  });
  it('records turn and result facts; the result points to the trace, the trace never to the transcript', async () => {
    const rt = await make();
    const res = await rt.generate(request('What should I pack?'), ctx);
    const facts = await rt.transcript.query({ participant: PARTICIPANT });
    expect(facts.map((f) => f.kind)).toEqual(['turn', 'result']);
    expect(facts[1]!.body['trace/ref']).toBe(res['trace/ref']);
    const trace = (await rt.traces.recent())[0]!.body;
    expect(trace['turn/id']).toBe(facts[0]!.id);
    expect(trace['participant/ref']).toBe(PARTICIPANT);
    const traceText = JSON.stringify(trace);
    expect(traceText).not.toContain(facts[1]!.id); // no result id anywhere in the trace
    expect(Object.keys(trace).some((k) => k.startsWith('transcript') || k.startsWith('result'))).toBe(false);
    expect(await rt.transcript.query({ participant: OTHER_PARTICIPANT })).toEqual([]);
  });
  it('random prompt and response canaries never appear in trace records (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 12, maxLength: 30, unit: fc.constantFrom('Q', 'X', 'Z', '7', '9') }), fc.constantFrom<'commons' | 'crisis'>('commons', 'crisis'), async (canary, mode) => {
        const echo = recordingRuntime('echo', 'http_local', () => `RESP-${canary}`);
        const rt = await make([echo], { config: detailConfig, mode });
        await rt.generate(request(`PROMPT-${canary}`), { ...ctx, elements: [] });
        await rt.generate(request(`CTX-${canary}`, granted), { ...ctx, elements: [element('e1', 'public', { 'grant/ref': 'grant:1', content: [{ type: 'text', text: `ELEMENT-${canary}` }] })] });
        expect(echo.calls.length).toBe(2);
        expect(JSON.stringify(echo.calls)).toContain(`ELEMENT-${canary}`); // the canary did reach the model…
        expect(JSON.stringify(await rt.traces.recent())).not.toContain(canary); // …and never the trace
      }),
      { numRuns: 60 },
    );
  });
  it('content is persisted only under explicit policy, as classified artifacts referenced from the trace, never inlined', async () => {
    const echo = recordingRuntime('echo', 'http_local', () => 'RESPONSE-CANARY');
    const artifacts = new InMemoryArtifactSink();
    const rt = await make([echo], { persist: { prompt: true, response: true }, artifacts });
    await rt.generate(request('PROMPT-CANARY'), ctx);
    const body = (await rt.traces.recent())[0]!.body;
    expect(body.policy).toMatchObject({ 'persist/prompt': true, 'persist/response': true });
    expect(body['output/shape']!['artifact/refs']).toEqual([...artifacts.items.keys()]);
    expect([...artifacts.items.values()].map((a) => [a.kind, a.classification])).toEqual([['prompt', 'personal'], ['response', 'personal']]);
    expect([...artifacts.items.values()][0]!.text).toContain('PROMPT-CANARY');
    expect(JSON.stringify(await rt.traces.recent())).not.toMatch(/CANARY/);
    // without the policy: nothing persisted, flags false
    const rt2 = await make([echo], { artifacts: new InMemoryArtifactSink() });
    await rt2.generate(request('PROMPT-CANARY'), ctx);
    expect((await rt2.traces.recent())[0]!.body.policy).toMatchObject({ 'persist/prompt': false, 'persist/response': false });
  });
  it('a failing adapter gives a typed failed outcome with the mapped code, and still a trace', async () => {
    const broken: RegisteredRuntime = { ...builtinLocalRuntime(), adapter: { runtimeRef: 'runtime/builtin-local', toolSurface: false, invoke: async () => { throw new RuntimeInvokeError('adapter-timeout', 't'); } } };
    const rt = await make([broken]);
    const res = await rt.generate(request('x'), ctx);
    expect(res).toMatchObject({ outcome: 'failed', 'reason/code': 'adapter-timeout', diagnostics: { 'error/code': 'adapter-timeout' } });
    expect((await rt.traces.recent())[0]!.body).toMatchObject({ status: 'failed', 'trace/id': res['trace/ref'] });
    expect(await rt.transcript.query({ participant: PARTICIPANT })).toEqual([]);
  });
  it('output is bounded: an over-long answer is cut to max_tokens and the cut is traced', async () => {
    const chatty = recordingRuntime('chatty', 'http_local', () => 'word '.repeat(100));
    const rt = await make([chatty]);
    const res = await rt.generate(request('x', { parameters: { max_tokens: 5 } }), ctx);
    expect(chatty.calls[0]!.maxTokens).toBe(5);
    expect((res.output![0] as { text: string }).text).toBe('word word word word word');
    expect(res.usage).toMatchObject({ output_tokens: 5 });
    expect((await decisionsOf(rt)).some((d) => d.kind === 'redaction' && d['reason/code'] === 'output-above-max-tokens')).toBe(true);
    // max_tokens above the host cap is capped
    const rt2 = await make([chatty], { maxOutputTokens: 3 });
    await rt2.generate(request('x', { parameters: { max_tokens: 1000 } }), ctx);
    expect(chatty.calls[1]!.maxTokens).toBe(3);
  });
});

describe('generate pipeline: keyed settings and mode', () => {
  it('every keyed resolution is a trace decision (rigor by mode; trace level and egress by label)', async () => {
    const rt = await make();
    await rt.generate(request('x'), ctx);
    const keyed = (await decisionsOf(rt)).filter((d) => d.kind.endsWith('-keyed-resolution'));
    expect(keyed).toEqual([
      { kind: 'mode-keyed-resolution', outcome: 'verification-rigor-from-commons', 'reason/code': 'configured', 'decided/by': 'host-policy' },
      { kind: 'class-keyed-resolution', outcome: 'trace-level-from-default', 'reason/code': 'default', 'decided/by': 'host-policy', classification: 'personal' },
      { kind: 'class-keyed-resolution', outcome: 'egress-from-personal', 'reason/code': 'configured', 'decided/by': 'host-policy', classification: 'personal' },
    ]);
  });
  it('a more severe mode only adds verification caveats; the stance stays advisory and confidence unstated', async () => {
    const rt = await make();
    const commons = await rt.generate(request('x'), ctx);
    rt.setMode('crisis');
    const crisis = await rt.generate(request('x'), ctx);
    expect(commons.epistemic!.caveats).toHaveLength(1);
    expect(crisis.epistemic).toMatchObject({ stance: 'advisory', confidence: 'unstated' });
    expect(crisis.epistemic!.caveats).toHaveLength(2);
    expect((await decisionsOf(rt, 1))[0]).toMatchObject({ outcome: 'verification-rigor-from-crisis' });
  });
  it('trace level metadata_only keeps per-candidate rejections out; decision_detail keeps them', async () => {
    const cloud = recordingRuntime('cloud', 'http_remote');
    const local = recordingRuntime('local', 'http_local');
    const meta = await make([cloud, local]);
    await meta.generate(request('x'), ctx);
    expect((await decisionsOf(meta)).filter((d) => d.outcome === 'reject-candidate')).toEqual([]);
    expect((await meta.traces.recent())[0]!.body.policy).toMatchObject({ 'trace/level': 'metadata_only' });
    const detail = await make([cloud, local], { config: detailConfig });
    await detail.generate(request('x'), ctx);
    expect((await decisionsOf(detail)).filter((d) => d.outcome === 'reject-candidate').map((d) => d['reason/code'])).toEqual(['not-local']);
  });
  it('remote_allowed reaches an acknowledged remote only for public data with egress allowed for public', async () => {
    const cloud = recordingRuntime('cloud', 'http_remote', () => 'remote answer', acceptance('public', 'http_remote'));
    const rt = await make([cloud]);
    const personal = await rt.generate(request('x', { policy: { locality: 'remote_allowed' } }), ctx);
    expect(personal).toMatchObject({ outcome: 'handler-unavailable', 'reason/code': 'no-eligible-candidate' });
    const pub = await rt.generate(request('x', { policy: { locality: 'remote_allowed' } }), { ...ctx, turnClassification: 'public' });
    expect(pub).toMatchObject({ outcome: 'completed', locality: 'remote' });
    expect((await rt.traces.recent())[1]!.body.policy).toMatchObject({ 'egress/allowed': true });
    expect(cloud.calls).toHaveLength(1);
  });
});

describe('generate pipeline: granted context (Phase 2)', () => {
  const text = (t: string) => [{ type: 'text' as const, text: t }];
  it('includes accepted elements, drops the rest with trace under drop_with_trace, and labels the result with the join', async () => {
    const local = recordingRuntime('local', 'http_local', () => 'ok', acceptance('community'));
    const rt = await make([local]);
    const res = await rt.generate(request('x', { policy: { scope: 'granted-context', on_context_denied: 'drop_with_trace' } }), {
      ...ctx,
      turnClassification: 'public',
      elements: [
        element('pub', 'public', { 'grant/ref': 'g', content: text('PUBLIC-TEXT') }),
        element('com', 'community', { 'grant/ref': 'g', content: text('COMMUNITY-TEXT') }),
        element('per', 'personal', { 'grant/ref': 'g', content: text('PERSONAL-TEXT') }),
        element('unk', 'mystery', { 'grant/ref': 'g', content: text('UNKNOWN-TEXT') }),
        element('nogrant', 'public', { content: text('UNGRANTED-TEXT') }),
      ],
    });
    expect(res.outcome).toBe('completed');
    const sent = JSON.stringify(local.calls[0]!.messages);
    expect(sent).toContain('PUBLIC-TEXT');
    expect(sent).toContain('COMMUNITY-TEXT');
    for (const t of ['PERSONAL-TEXT', 'UNKNOWN-TEXT', 'UNGRANTED-TEXT']) expect(sent).not.toContain(t);
    expect(res.epistemic!.grounded_in).toEqual(['pub', 'com']);
    const el = (await decisionsOf(rt)).filter((d) => d.kind === 'context-element').map((d) => [d['element/ref'], d.outcome, d['reason/code'], d.classification]);
    expect(el).toEqual([
      ['pub', 'include', 'within-acceptance', 'public'],
      ['com', 'include', 'within-acceptance', 'community'],
      ['per', 'drop', 'above-acceptance', 'personal'],
      ['unk', 'drop', 'above-acceptance', 'personal'],
      ['nogrant', 'drop', 'no-operator-grant', 'public'],
    ]);
    expect((await rt.transcript.query({ participant: PARTICIPANT, kind: 'result' }))[0]!.classification).toBe('community');
  });
  it('fails closed with context-denied when an element is above acceptance and nothing reaches the model', async () => {
    const local = recordingRuntime('local', 'http_local', () => 'ok', acceptance('community'));
    const rt = await make([local]);
    const res = await rt.generate(request('x', { policy: { scope: 'granted-context' } }), { ...ctx, elements: [element('per', 'personal', { 'grant/ref': 'g', content: text('P') })] });
    expect(res).toMatchObject({ outcome: 'context-denied', 'reason/code': 'element-above-acceptance' });
    expect(local.calls).toEqual([]);
    expect((await decisionsOf(rt)).find((d) => d.kind === 'context-element')).toMatchObject({ outcome: 'fail', classification: 'personal' });
  });
  it('declassifies through the host declassifier when trust mode and element allow it; the projection, not the original, is sent', async () => {
    const local = recordingRuntime('local', 'http_local', () => 'ok', acceptance('community'));
    const rt = await make([local], { declassifier: (e, to) => `PROJECTION(${e['element/id']}→${to})` });
    const res = await rt.generate(request('x', granted), { ...ctx, turnClassification: 'public', elements: [element('per', 'personal', { 'grant/ref': 'g', declassifiable: true, content: text('ORIGINAL-SECRET') })] });
    expect(res.outcome).toBe('completed');
    const sent = JSON.stringify(local.calls[0]!.messages);
    expect(sent).toContain('PROJECTION(per→community)');
    expect(sent).not.toContain('ORIGINAL-SECRET');
    expect((await decisionsOf(rt)).find((d) => d.kind === 'context-element')).toMatchObject({ outcome: 'declassify', 'reason/code': 'declassified-to-ceiling' });
    // without a declassifier the same element cannot be declassified: fail closed
    const rt2 = await make([local]);
    expect((await rt2.generate(request('x', granted), { ...ctx, elements: [element('per', 'personal', { 'grant/ref': 'g', declassifiable: true, content: text('ORIGINAL-SECRET') })] })).outcome).toBe('context-denied');
  });
  it('an element dropped by an earlier layer is never re-admitted, whatever Inquirium would decide (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ drop: fc.boolean(), label: fc.constantFrom('public', 'community') }), { minLength: 1, maxLength: 6 }), async (spec) => {
        const local = recordingRuntime('local', 'http_local', () => 'ok', acceptance('personal'));
        const rt = await make([local]);
        const middleware: AcceptanceLayer = { name: 'middleware', decide: (e) => (spec[Number(e['element/id'].slice(1))]!.drop ? { outcome: 'drop', reason: 'middleware-redacted' } : { outcome: 'include', reason: 'middleware-ok' }) };
        const elements = spec.map((s, i) => element(`e${i}`, s.label, { 'grant/ref': 'g', content: text(`TEXT-${i}-END`) }));
        const res = await rt.generate(request('x', { policy: { scope: 'granted-context' } }), { ...ctx, elements, priorLayers: [middleware] });
        expect(res.outcome).toBe('completed');
        const sent = JSON.stringify(local.calls[0]!.messages);
        spec.forEach((s, i) => expect(sent.includes(`TEXT-${i}-END`)).toBe(!s.drop));
        const el = (await decisionsOf(rt)).filter((d) => d.kind === 'context-element');
        spec.forEach((s, i) => expect(el[i]).toMatchObject({ outcome: s.drop ? 'drop' : 'include', 'reason/code': s.drop ? 'middleware-redacted' : 'within-acceptance' }));
      }),
      { numRuns: 100 },
    );
  });
});
