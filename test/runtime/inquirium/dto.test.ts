/** Every DTO the runtime produces, on every path, validates against the generated validators. */
import { describe, expect, it } from 'vitest';
import { projectToNotification, type DtoId } from '../../../runtime/inquirium/index.ts';
import { RuntimeInvokeError } from '../../../runtime/inquirium/adapters/types.ts';
import { checkDto } from '../../../runtime/inquirium/dto.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';
import { acceptance, element, inquirium, PARTICIPANT, recordingRuntime, request } from './helpers.ts';
import { answer, question } from './questions.ts';
import { questionRequests } from './question-requests.ts';
import { openMemoryStore, unitOfWork } from '../../../runtime/storage/index.ts';

describe('produced DTOs', () => {
  it('responses for every outcome, traces, transcript facts, question states, notifications, candidates and reports all validate', async () => {
    const produced: [DtoId, unknown][] = [];
    const clock = new ManualClock();
    const local = recordingRuntime('local', 'http_local', () => 'an answer', acceptance('community'));
    const broken = { ...recordingRuntime('broken', 'http_local'), adapter: { runtimeRef: 'runtime/broken', toolSurface: false, invoke: async () => { throw new RuntimeInvokeError('adapter-http-error', 'x'); } } };
    const port = await openMemoryStore();
    const rt = await inquirium({ clock, runtimes: [local], port });
    const qs = questionRequests(rt.questions, port);
    const ctx = { participant: PARTICIPANT, session: 'session:1' };
    const outcomes = new Set<string>();
    const gen = async (r: typeof rt, req: unknown, c: Parameters<typeof rt.generate>[1] = ctx) => {
      const res = await r.generate(req, c);
      outcomes.add(res.outcome);
      produced.push(['inquirium.generate.response.v1', res]);
    };
    await gen(rt, request('plain'));
    await gen(rt, request('scope', { context_assembly: { schema: 'inquirium.context-assembly.request.v1', sources: [{ 'source/kind': 'memarium', 'grant/ref': 'g' }] } }));
    await gen(rt, request('ctx', { policy: { scope: 'granted-context', on_context_denied: 'drop_with_trace' } }), { ...ctx, elements: [element('a', 'public', { 'grant/ref': 'g', content: [{ type: 'text', text: 'x' }] }), element('b', 'personal', { 'grant/ref': 'g' })] });
    await gen(rt, request('deny', { policy: { scope: 'granted-context' } }), { ...ctx, elements: [element('b', 'personal', { 'grant/ref': 'g' })] });
    const none = await inquirium({ clock, runtimes: [recordingRuntime('cloud', 'http_remote')] });
    await gen(none, request('none'));
    const failing = await inquirium({ clock, runtimes: [broken] });
    await gen(failing, request('fail'));
    expect([...outcomes].sort()).toEqual(['completed', 'context-denied', 'failed', 'handler-unavailable', 'policy-denied']);

    for (const r of [rt, none, failing]) for (const t of await r.traces.recent()) produced.push(['inquirium.assistant-turn-trace.v1', t.body]);
    const facts = await rt.transcript.query({ participant: PARTICIPANT });
    const result = facts.find((f) => f.kind === 'result')!;
    await rt.feedback({ schema: 'inquirium.inquiry-feedback.v1', 'feedback/id': 'feedback:1', 'result/ref': result.id, 'session/ref': 'session:1', 'participant/ref': PARTICIPANT, verdict: 'refuted', 'recorded/at': '2026-01-01T00:00:00Z' });
    const kindToId = { turn: 'inquirium.inquiry-turn.v1', result: 'inquirium.inquiry-result.v1', feedback: 'inquirium.inquiry-feedback.v1' } as const;
    for (const f of await rt.transcript.query({ participant: PARTICIPANT })) produced.push([kindToId[f.kind], f.body]);

    await qs.propose(question());
    await qs.answer(answer('no'));
    const q2 = question({ 'question/ref': 'question/inquirium/op-2/x', response: { ...question().response, 'idempotency/key': 'k2' } });
    await qs.propose(q2);
    clock.advance(10 * 60_000);
    await rt.tick();
    const q3 = question({ 'question/ref': 'question/inquirium/op-3/x' });
    await qs.propose(q3);
    await qs.cancel('question/inquirium/op-3/x');
    const q4 = question({ 'question/ref': 'question/inquirium/op-4/x' });
    await qs.propose(q4);
    await qs.supersede('question/inquirium/op-4/x', 'question/inquirium/op-5/x');
    const states = new Set<string>();
    for (const ref of [question()['question/ref'], 'question/inquirium/op-2/x', 'question/inquirium/op-3/x', 'question/inquirium/op-4/x']) {
      for (const s of await qs.history(ref)) {
        states.add(String(s.state));
        produced.push(['inquirium.operator-question.state.v1', s]);
      }
    }
    expect([...states].sort()).toEqual(['answered', 'cancelled', 'pending', 'superseded', 'timed_out']);
    produced.push(['notification-create.v1', projectToNotification(question())]);
    const raised = await unitOfWork(port, (tx) => rt.escalate(tx, { reason: 'operator-decision', code: 'approval-needed', subject: 'runtime/x', correlation: 'operation/x', text: 'x' }, question({ 'question/ref': 'question/inquirium/op-6/x' })));
    expect(raised.level).toBe('operator-prompt');
    if (raised.level === 'operator-prompt') produced.push(['notification-create.v1', raised.notification]);

    for (const r of rt.runtimes) produced.push(['inquirium.runtime-candidate.v1', r.candidate]);
    for (const report of await rt.certifyBaseline()) produced.push(['inquirium.baseline-assistant-conformance-report.v1', report]);

    expect(new Set(produced.map(([id]) => id))).toEqual(new Set(['inquirium.generate.response.v1', 'inquirium.assistant-turn-trace.v1', 'inquirium.inquiry-turn.v1', 'inquirium.inquiry-result.v1', 'inquirium.inquiry-feedback.v1', 'inquirium.operator-question.state.v1', 'notification-create.v1', 'inquirium.runtime-candidate.v1', 'inquirium.baseline-assistant-conformance-report.v1']));
    for (const [id, value] of produced) expect(checkDto(id, value), `${id}: ${JSON.stringify(value).slice(0, 200)}`).toEqual([]);
  });
});
