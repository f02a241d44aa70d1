import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OperatorQuestions, projectToNotification, validateProposedQuestion, TERMINAL, QuestionError } from '../../../runtime/inquirium/operator-questions.ts';
import { checkDto } from '../../../runtime/inquirium/dto.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';
import { openMemoryStore } from '../../../runtime/storage/memory/index.ts';
import { answer, question } from './questions.ts';
import { unitsOf } from '../../../runtime/storage/index.ts';
import { questionsOn } from './question-requests.ts';

const policy = { displayCeiling: 'community' as const, secrets: ['sk-live-ABCDEFGHIJ'] };
/** The operator questions of the local tenant, on a fresh store. */
const questions = async (clock = new ManualClock()) => questionsOn(await openMemoryStore(), clock, policy);

describe('host validation of a proposed question', () => {
  it('accepts the seed example', () => expect(validateProposedQuestion(question(), policy)).toEqual([]));
  it('rejects an unknown widget kind and a raw input schema (schema gate)', () => {
    expect(validateProposedQuestion(question({ 'widget/kind': 'password-box' }), policy).length).toBeGreaterThan(0);
    expect(validateProposedQuestion(question({ 'widget.input/schema': { type: 'string' } }), policy).length).toBeGreaterThan(0);
    expect(validateProposedQuestion(question({ 'widget/kind': 'free-text-with-allowlist', prompt: { kind: 'free-text-with-allowlist', text: 'x' }, 'widget/payload': {} }), policy).length).toBeGreaterThan(0);
  });
  it('rejects secret-shaped text, registered secrets, undisplayable classification, missing timeout, a default outside the allow-list, an unpermitted operation', () => {
    const codes = (q: unknown, p = policy) => validateProposedQuestion(q, p).map((i) => i.code);
    expect(codes(question({ prompt: { kind: 'single-choice', text: 'Paste key sk-live-ABCDEFGHIJ?' } }))).toContain('secret-shaped-text');
    expect(codes(question({ prompt: { kind: 'single-choice', text: 'Is your password: hunter2?' } }))).toContain('secret-shaped-text');
    expect(codes(question({ classification: { input: 'personal', output: 'public' } }))).toContain('classification-not-displayable');
    const { timeout: _t, ...noTimeout } = question();
    expect(codes(noTimeout)).toContain('timeout-undefined');
    expect(codes(question({ 'default/on-timeout': { answer: 'maybe', 'reason/code': 'x' } }))).toContain('default-not-allowed');
    expect(codes(question(), { ...policy, permittedOperations: () => false } as never)).toContain('operation-not-permitted');
    expect(codes(question({ 'widget/payload': { options: [{ value: 'yes', title: 'Yes' }, { value: 'yes', title: 'Also yes' }] } }))).toContain('duplicate-option-values');
    // prompt.kind must equal widget/kind (the schema's if/then and the host both say so)
    expect(codes(question({ 'widget/kind': 'confirm', prompt: { kind: 'single-choice', text: 'x' }, 'widget/payload': {}, 'default/on-timeout': { answer: 'deny', 'reason/code': 'timeout-fail-closed' } })).length).toBeGreaterThan(0);
    // the operation it unblocks must be named
    const { 'operation/ref': _o, ...unnamed } = question();
    expect(codes(unnamed).length).toBeGreaterThan(0);
  });
  it('accepts every registered widget kind with a valid payload', () => {
    const kinds = [
      { 'widget/kind': 'multi-choice', prompt: { kind: 'multi-choice', text: 'Which?' }, 'widget/payload': { options: [{ value: 'a', title: 'A' }, { value: 'b', title: 'B' }], 'min/selected': 1, 'max/selected': 2 }, 'default/on-timeout': { answer: ['a'], 'reason/code': 'timeout-fail-closed' } },
      { 'widget/kind': 'confirm', prompt: { kind: 'confirm', text: 'Proceed?' }, 'widget/payload': {}, 'default/on-timeout': { answer: 'deny', 'reason/code': 'timeout-fail-closed' } },
      { 'widget/kind': 'free-text-with-allowlist', prompt: { kind: 'free-text-with-allowlist', text: 'Region?' }, 'widget/payload': { allowlist: ['eu', 'us'], match: 'case-insensitive' }, 'default/on-timeout': { answer: 'eu', 'reason/code': 'timeout-fail-closed' } },
    ];
    for (const k of kinds) expect(validateProposedQuestion(question(k), policy)).toEqual([]);
  });
});

describe('operator question lifecycle', () => {
  it('pending → answered unblocks with the operator input; the same answer again is idempotent', async () => {
    const q = await questions();
    expect((await q.propose(question())).state).toBe('pending');
    expect((await q.outcome(question()['question/ref'])).unblocked).toBe(false);
    expect((await q.answer(answer('yes'))).state).toBe('answered');
    expect((await q.answer(answer('yes'))).state).toBe('answered');
    await expect(q.answer(answer('no'))).rejects.toThrow(QuestionError);
    expect(await q.outcome(question()['question/ref'])).toEqual({ state: 'answered', unblocked: true, input: 'yes', source: 'operator' });
  });
  it('refuses an answer outside the allow-list or with another idempotency key; a second proposal of one ref is refused', async () => {
    const q = await questions();
    await q.propose(question());
    await expect(q.answer(answer('maybe'))).rejects.toThrow(/allowed/);
    await expect(q.answer(answer('yes', 'other-key'))).rejects.toThrow(/idempotency/);
    await expect(q.propose(question())).rejects.toMatchObject({ code: 'question-exists' });
  });
  it('times out fail-closed, unless a safe default is declared (then only on timeout)', async () => {
    const clock = new ManualClock();
    const q = await questions(clock);
    const { 'default/on-timeout': _d, ...noDefault } = question();
    await q.propose(noDefault);
    clock.advance(5 * 60_000 - 1);
    expect(await q.outcome(question()['question/ref'])).toEqual({ state: 'pending', unblocked: false });
    clock.advance(1);
    expect(await q.outcome(question()['question/ref'])).toEqual({ state: 'timed_out', unblocked: false });
    const q2 = await questions(clock);
    await q2.propose(question());
    clock.advance(5 * 60_000);
    expect(await q2.outcome(question()['question/ref'])).toEqual({ state: 'timed_out', unblocked: true, input: 'no', source: 'declared-default' });
    expect(checkDto('inquirium.operator-question.state.v1', await q2.state(question()['question/ref']))).toEqual([]);
  });
  it('the background tick times out overdue questions of every tenant once, without anyone reading them', async () => {
    const clock = new ManualClock();
    const q = await questions(clock);
    await q.propose(question());
    await q.forTenant('globex').propose(question());
    await q.forTenant('acme').propose(question({ timeout: 'PT1H' }));
    clock.advance(5 * 60_000);
    expect(await q.tick()).toEqual([question()['question/ref'], question()['question/ref']]);
    expect(await q.tick()).toEqual([]);
    expect((await q.forTenant('globex').history(question()['question/ref'])).map((r) => r.state)).toEqual(['pending', 'timed_out']);
    expect((await q.forTenant('acme').state(question()['question/ref'])).state).toBe('pending');
  });
  it('cancelled and superseded never unblock, even with a declared default', async () => {
    const q = await questions();
    await q.propose(question());
    await q.cancel(question()['question/ref']);
    expect((await q.outcome(question()['question/ref'])).unblocked).toBe(false);
    const q2 = await questions();
    await q2.propose(question());
    expect((await q2.supersede(question()['question/ref'], 'question/newer'))['superseded/by']).toBe('question/newer');
    expect((await q2.outcome(question()['question/ref'])).unblocked).toBe(false);
  });
  it('two answers at once (two hosts on one store): one decides, the other sees the question answered', async () => {
    const port = await openMemoryStore();
    const [a, b] = [questionsOn(port, new ManualClock(), policy), questionsOn(port, new ManualClock(), policy)];
    await a.propose(question());
    const out = await Promise.allSettled([a.answer(answer('yes')), b.answer(answer('no'))]);
    const winner = (await a.state(question()['question/ref'])).answer;
    expect(['yes', 'no']).toContain(winner);
    expect(out.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(out.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'question-terminal' } });
    expect((await a.history(question()['question/ref'])).map((r) => r.state)).toEqual(['pending', 'answered']);
  });
  it('never leaves a terminal state, and only answered (or a declared default on timeout) unblocks (property)', async () => {
    const op = fc.oneof(
      fc.record({ k: fc.constant('answer' as const), v: fc.constantFrom('yes', 'no', 'maybe') }),
      fc.record({ k: fc.constant('cancel' as const) }),
      fc.record({ k: fc.constant('supersede' as const) }),
      fc.record({ k: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 400_000 }) }),
      fc.record({ k: fc.constant('tick' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(op, { maxLength: 12 }), async (withDefault, ops) => {
        const clock = new ManualClock();
        const q = await questions(clock);
        const { 'default/on-timeout': _d, ...nd } = question();
        await q.propose(withDefault ? question() : nd);
        const ref = question()['question/ref'];
        let terminal: string | undefined;
        for (const o of ops) {
          try {
            if (o.k === 'answer') await q.answer(answer(o.v));
            else if (o.k === 'cancel') await q.cancel(ref);
            else if (o.k === 'supersede') await q.supersede(ref, 'question/x');
            else if (o.k === 'tick') await q.tick();
            else clock.advance(o.ms);
          } catch (e) { expect(e).toBeInstanceOf(QuestionError); }
          const out = await q.outcome(ref);
          const s = out.state;
          if (terminal !== undefined) expect(s).toBe(terminal);
          if (TERMINAL.has(s)) terminal = s;
          if (out.unblocked) expect(s === 'answered' || (s === 'timed_out' && withDefault)).toBe(true);
        }
        // the history is the states it went through, each appended once
        const states = (await q.history(ref)).map((r) => String(r.state));
        expect(states[0]).toBe('pending');
        expect(states.length).toBeLessThanOrEqual(2);
        if (terminal !== undefined) expect(states).toEqual(['pending', terminal]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('operator question records', () => {
  it('every transition is appended as a new state record; earlier records are never rewritten', async () => {
    const clock = new ManualClock();
    const q = await questions(clock);
    const ref = question()['question/ref'];
    await q.propose(question());
    const first = structuredClone((await q.history(ref))[0]);
    clock.advance(1000);
    await q.answer(answer('yes'));
    await q.answer(answer('yes')); // idempotent: no new record
    const h = await q.history(ref);
    expect(h.map((r) => r.state)).toEqual(['pending', 'answered']);
    expect(h[0]).toEqual(first);
    for (const r of h) expect(checkDto('inquirium.operator-question.state.v1', r)).toEqual([]);
  });
  it('a free-text answer must come from the allow-list; a refused answer leaves the question pending', async () => {
    const q = await questions();
    await q.propose(question({ 'widget/kind': 'free-text-with-allowlist', prompt: { kind: 'free-text-with-allowlist', text: 'Region?' }, 'widget/payload': { allowlist: ['eu', 'us'], match: 'case-insensitive' }, 'default/on-timeout': { answer: 'eu', 'reason/code': 'timeout-fail-closed' } }));
    await expect(q.answer(answer('my passphrase is hunter2'))).rejects.toThrow(/inquirium.operator-question.answer.v1 is invalid/); // not even a token
    await expect(q.answer(answer('fr'))).rejects.toThrow(/allowed/);
    expect((await q.state(question()['question/ref'])).state).toBe('pending'); // a refused answer changes nothing
    expect((await q.answer(answer('eu'))).state).toBe('answered');
  });
});

describe('notification projection', () => {
  it('maps the interaction fields into notification-create.v1 per the table; the default is not rendered', () => {
    const n = projectToNotification(question());
    expect(n).toMatchObject({
      schema: 'notification-create.v1',
      'subject/ref': 'question/inquirium/op-7f3a/remote-runtime-approval',
      'correlation/id': 'operation/inquirium/op-7f3a',
      'body/text': 'Use remote runtime for this public-only context?',
      'reason/code': 'operator-approval-required',
    });
    expect((n.actions as Record<string, unknown>[])[0]).toMatchObject({ kind: 'single-choice', 'target/ref': 'inquirium.operator-question.respond', 'input/schema': 'inquirium.operator-question.widget.single-choice.v1' });
    expect(JSON.stringify(n)).not.toContain('timeout-fail-closed');
    expect(checkDto('notification-create.v1', n)).toEqual([]);
  });
});
