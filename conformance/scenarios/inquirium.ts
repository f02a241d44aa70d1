/** P066: local-only generate (no remote fallback, epistemic block, trace without content) and the operator-question lifecycle. */
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import type { Scenario } from '../scenario.ts';
import * as gate from './gates.ts';
import { unique } from './util.ts';

const request = (text: string) => ({ schema: 'inquirium.generate.request.v1', operation: 'generate', turns: [{ role: 'user', content: [{ type: 'text', text }] }], policy: { locality: 'local_only', trust_mode: 'strict_local', scope: 'assistant-session-only', on_context_denied: 'fail_closed' } });

export const inquiriumScenarios: Scenario[] = [
  {
    id: 'inquirium-local-only-generate',
    title: 'Local-only generate answers locally with an advisory epistemic block, never falls back to remote, traces no content',
    rfc: 'P066 Decisions 3, 8.1, 10',
    profile: 'inquirium',
    gate: gate.inquiriumGenerate,
    async run(t) {
      t.req('orbiplex.inquirium.p066.d2-inquirium-owns-invocation');
      const canary = `PROMPT-CANARY-${unique()}`;
      const r = await t.call<Record<string, any>>(ROUTES.inquiriumGenerate, { body: request(`Help me think this through ${canary}`) });
      t.equal(r.body.outcome, 'completed', 'outcome');
      t.req('orbiplex.inquirium.p066.d3-advise-only-local-only').equal(r.body.locality, 'local_only', 'locality');
      t.req('orbiplex.inquirium.p066.d8-1-bounded-claim').check(['advisory', 'hypothesis'].includes(r.body.epistemic?.stance), 'stance is advisory or hypothesis');
      t.req('orbiplex.inquirium.p066.d10-assistant-turn-trace').check(typeof r.body['trace/ref'] === 'string', 'trace/ref');
      t.req('orbiplex.inquirium.p066.d3-advise-only-local-only');
      const remote = await t.call<Record<string, any>>(ROUTES.generateRemoteOnly, { body: request('hello') });
      t.equal(remote.body.outcome, 'handler-unavailable', 'with only a remote runtime the outcome is handler-unavailable');
      t.check(remote.body.output === undefined, 'no output without a local runtime');
      t.req('orbiplex.inquirium.p066.d10-assistant-turn-trace');
      const traces = await t.call<{ records: { body: Record<string, unknown> }[] }>(ROUTES.traces, { query: { traceRef: r.body['trace/ref'] } });
      t.equal(traces.body.records.length, 1, 'one trace record for the turn');
      const text = JSON.stringify(traces.body.records);
      t.check(!text.includes(canary), 'prompt content in the trace');
      const answer = r.body.output?.[0]?.text as string | undefined;
      if (answer) t.check(!text.includes(answer), 'response content in the trace');
      t.check(traces.body.records.every((x) => x.body['policy'] !== undefined && (x.body['policy'] as Record<string, unknown>)['persist/prompt'] !== true), 'persist/prompt must stay false');
    },
  },
  {
    id: 'inquirium-operator-question-lifecycle',
    title: 'A host-validated question is pending until answered; answers are idempotent; invalid proposals and answers are refused',
    rfc: 'P066 Decision 11',
    profile: 'inquirium',
    gate: gate.inquiriumQuestions,
    async run(t) {
      t.req('orbiplex.inquirium.p066.d11-3-host-shapes-widget');
      const op = unique();
      const ref = `question/inquirium/${op}/remote-runtime-approval`;
      const key = `inquirium:${op}:remote-runtime-approval`;
      const q = {
        schema: 'inquirium.operator-question.request.v1', 'question/ref': ref, 'operation/ref': `operation/inquirium/${op}`, 'recipient/class': 'operator',
        'reason/code': 'operator-approval-required', prompt: { kind: 'single-choice', text: 'Use remote runtime for this public-only context?' },
        'widget/kind': 'single-choice', 'widget/payload': { options: [{ value: 'yes', title: 'Yes' }, { value: 'no', title: 'No' }] },
        'default/on-timeout': { answer: 'no', 'reason/code': 'timeout-fail-closed' }, timeout: 'PT5M', classification: { input: 'public', output: 'public' },
        response: { 'target/ref': 'inquirium.operator-question.respond', method: 'POST', 'idempotency/key': key },
        provenance: { 'source/component': 'inquirium-core', 'requested/by': 'runtime-selection', 'reason/code': 'remote-runtime-requires-operator-approval', origin: 'model-proposed' },
      };
      const raw = await t.call(ROUTES.questionPropose, { body: { ...q, 'question/ref': `${ref}-raw`, 'widget.input/schema': { type: 'string' } } }, { refusal: true });
      t.equal(raw.status, 400, 'a question carrying a raw input schema is refused');
      t.req('orbiplex.inquirium.p066.d11-5-question-lifecycle');
      const created = await t.call<{ state: string }>(ROUTES.questionPropose, { body: q });
      t.equal(created.body.state, 'pending', 'a new question is pending');
      t.req('orbiplex.inquirium.p066.d11-4-registered-widget-kinds');
      const bad = await t.call(ROUTES.inquiriumRespond, { body: { schema: 'inquirium.operator-question.answer.v1', 'question/ref': ref, 'idempotency/key': key, answer: 'maybe' } }, { refusal: true });
      t.check(bad.status >= 400 && bad.status < 500, 'an answer outside the allow-list is refused');
      t.req('orbiplex.inquirium.p066.d11-5-question-lifecycle');
      const still = await t.call<{ state: string }>(ROUTES.questionRead, { query: { ref } });
      t.equal(still.body.state, 'pending', 'a refused answer leaves the question pending');
      const answer = { schema: 'inquirium.operator-question.answer.v1', 'question/ref': ref, 'idempotency/key': key, answer: 'yes' };
      const a1 = await t.call<{ state: string; answer: string }>(ROUTES.inquiriumRespond, { body: answer });
      t.equal([a1.body.state, a1.body.answer], ['answered', 'yes'], 'answered with the operator input');
      const a2 = await t.call<{ state: string }>(ROUTES.inquiriumRespond, { body: answer });
      t.equal(a2.body.state, 'answered', 'the same answer again is idempotent');
      const changed = await t.call(ROUTES.inquiriumRespond, { body: { ...answer, answer: 'no' } }, { refusal: true });
      t.check(changed.status >= 400 && changed.status < 500, 'a terminal question cannot change its answer');
      const cancelled = await t.call(ROUTES.questionCancel, { body: { 'question/ref': ref } }, { refusal: true });
      t.check(cancelled.status >= 400 && cancelled.status < 500, 'an answered question cannot be cancelled');
    },
  },
];
