import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OperatorQuestions, projectToNotification, validateProposedQuestion, TERMINAL, QuestionError } from '../../../runtime/inquirium/operator-questions.ts';
import { checkDto } from '../../../runtime/inquirium/dto.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';
import { answer, question } from './questions.ts';

const policy = { displayCeiling: 'community' as const, secrets: ['sk-live-ABCDEFGHIJ'] };

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
  it('pending → answered unblocks with the operator input; the same answer again is idempotent', () => {
    const q = new OperatorQuestions(new ManualClock(), policy);
    expect(q.propose(question()).state).toBe('pending');
    expect(q.outcome(question()['question/ref']).unblocked).toBe(false);
    expect(q.answer(answer('yes')).state).toBe('answered');
    expect(q.answer(answer('yes')).state).toBe('answered');
    expect(() => q.answer(answer('no'))).toThrow(QuestionError);
    expect(q.outcome(question()['question/ref'])).toEqual({ state: 'answered', unblocked: true, input: 'yes', source: 'operator' });
  });
  it('refuses an answer outside the allow-list or with another idempotency key', () => {
    const q = new OperatorQuestions(new ManualClock(), policy);
    q.propose(question());
    expect(() => q.answer(answer('maybe'))).toThrow(/allowed/);
    expect(() => q.answer(answer('yes', 'other-key'))).toThrow(/idempotency/);
  });
  it('times out fail-closed, unless a safe default is declared (then only on timeout)', () => {
    const clock = new ManualClock();
    const q = new OperatorQuestions(clock, policy);
    const { 'default/on-timeout': _d, ...noDefault } = question();
    q.propose(noDefault);
    clock.advance(5 * 60_000);
    expect(q.outcome(question()['question/ref'])).toEqual({ state: 'timed_out', unblocked: false });
    const q2 = new OperatorQuestions(clock, policy);
    q2.propose(question());
    clock.advance(5 * 60_000);
    expect(q2.outcome(question()['question/ref'])).toEqual({ state: 'timed_out', unblocked: true, input: 'no', source: 'declared-default' });
    expect(checkDto('inquirium.operator-question.state.v1', q2.state(question()['question/ref']))).toEqual([]);
  });
  it('cancelled and superseded never unblock, even with a declared default', () => {
    const q = new OperatorQuestions(new ManualClock(), policy);
    q.propose(question());
    q.cancel(question()['question/ref']);
    expect(q.outcome(question()['question/ref']).unblocked).toBe(false);
    const q2 = new OperatorQuestions(new ManualClock(), policy);
    q2.propose(question());
    expect(q2.supersede(question()['question/ref'], 'question/newer')['superseded/by']).toBe('question/newer');
    expect(q2.outcome(question()['question/ref']).unblocked).toBe(false);
  });
  it('never leaves a terminal state, and only answered (or a declared default on timeout) unblocks (property)', () => {
    const op = fc.oneof(
      fc.record({ k: fc.constant('answer' as const), v: fc.constantFrom('yes', 'no', 'maybe') }),
      fc.record({ k: fc.constant('cancel' as const) }),
      fc.record({ k: fc.constant('supersede' as const) }),
      fc.record({ k: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 400_000 }) }),
    );
    fc.assert(
      fc.property(fc.boolean(), fc.array(op, { maxLength: 12 }), (withDefault, ops) => {
        const clock = new ManualClock();
        const q = new OperatorQuestions(clock, policy);
        const { 'default/on-timeout': _d, ...nd } = question();
        q.propose(withDefault ? question() : nd);
        const ref = question()['question/ref'];
        let terminal: string | undefined;
        for (const o of ops) {
          try {
            if (o.k === 'answer') q.answer(answer(o.v));
            else if (o.k === 'cancel') q.cancel(ref);
            else if (o.k === 'supersede') q.supersede(ref, 'question/x');
            else clock.advance(o.ms);
          } catch (e) { expect(e).toBeInstanceOf(QuestionError); }
          const s = q.outcome(ref).state;
          if (terminal !== undefined) expect(s).toBe(terminal);
          if (TERMINAL.has(s)) terminal = s;
          const out = q.outcome(ref);
          if (out.unblocked) expect(s === 'answered' || (s === 'timed_out' && withDefault)).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('operator question records', () => {
  it('every transition is appended as a new state record; earlier records are never rewritten', () => {
    const clock = new ManualClock();
    const q = new OperatorQuestions(clock, policy);
    const ref = question()['question/ref'];
    q.propose(question());
    const first = structuredClone(q.history(ref)[0]);
    clock.advance(1000);
    q.answer(answer('yes'));
    q.answer(answer('yes')); // idempotent: no new record
    const h = q.history(ref);
    expect(h.map((r) => r.state)).toEqual(['pending', 'answered']);
    expect(h[0]).toEqual(first);
    for (const r of h) expect(checkDto('inquirium.operator-question.state.v1', r)).toEqual([]);
  });
  it('a free-text answer must come from the allow-list; a refused answer leaves the question pending', () => {
    const q = new OperatorQuestions(new ManualClock(), policy);
    q.propose(question({ 'widget/kind': 'free-text-with-allowlist', prompt: { kind: 'free-text-with-allowlist', text: 'Region?' }, 'widget/payload': { allowlist: ['eu', 'us'], match: 'case-insensitive' }, 'default/on-timeout': { answer: 'eu', 'reason/code': 'timeout-fail-closed' } }));
    expect(() => q.answer(answer('my passphrase is hunter2'))).toThrow(/inquirium.operator-question.answer.v1 is invalid/); // not even a token
    expect(() => q.answer(answer('fr'))).toThrow(/allowed/);
    expect(q.state(question()['question/ref']).state).toBe('pending'); // a refused answer changes nothing
    expect(q.answer(answer('eu')).state).toBe('answered');
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
