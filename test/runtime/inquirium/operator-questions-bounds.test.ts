/**
 * Issue 12 items 6 and 8b, operator questions: a question's timeout is a bounded duration, checked before the
 * question is opened; questions belong to a tenant, which alone sees, answers and cancels them; each tenant has a
 * bound on pending and on ended questions; `answered/by` is checked and recorded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDto } from '../../../runtime/inquirium/dto.ts';
import { LOCAL_TENANT, MAX_ACTOR_ID_LENGTH, MAX_QUESTION_TIMEOUT_MS, OperatorQuestions, QuestionError, validateProposedQuestion } from '../../../runtime/inquirium/operator-questions.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';
import { QuotaExceededError } from '../../../runtime/shared/quota.ts';
import { answer, question } from './questions.ts';

const ME = 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const OTHER = 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doM';
const nth = (n: number) => question({ 'question/ref': `question/n/${n}`, response: { 'target/ref': 'inquirium.operator-question.respond', method: 'POST', 'idempotency/key': `k-${n}` } });
const answerNth = (n: number, over: Record<string, unknown> = {}) => ({ ...answer('yes', `k-${n}`), 'question/ref': `question/n/${n}`, ...over });
const thrown = (f: () => unknown): unknown => { try { f(); } catch (e) { return e; } return undefined; };

const policy = { displayCeiling: 'community' as const };
const codes = (q: unknown) => validateProposedQuestion(q, policy).map((i) => i.code);

describe('question timeout bounds (item 6)', () => {
  it('accepts up to 30 days; refuses longer, zero, overflowing and non-ISO timeouts before opening anything', () => {
    expect(MAX_QUESTION_TIMEOUT_MS).toBe(30 * 86_400_000);
    expect(codes(question({ timeout: 'P30D' }))).toEqual([]);
    for (const [timeout, code] of [['P31D', 'timeout-too-long'], ['P9999999Y', 'timeout-too-long'], [`P${'9'.repeat(400)}Y`, 'timeout-too-long'], ['PT0S', 'timeout-undefined'], ['soon', 'schema-format']] as const) {
      expect([timeout.slice(0, 12), codes(question({ timeout }))]).toEqual([timeout.slice(0, 12), expect.arrayContaining([code])]);
      const q = new OperatorQuestions(new ManualClock(), policy);
      expect(() => q.propose(question({ timeout }))).toThrow(QuestionError);
      expect(() => q.state(question()['question/ref'])).toThrow(/no such question/);
    }
  });
});

describe('tenants (item 8b)', () => {
  it('a question belongs to the tenant that proposed it: another tenant cannot read, answer or cancel it, and may use the same ref', () => {
    const q = new OperatorQuestions(new ManualClock(), policy);
    expect(q.tenant).toBe(LOCAL_TENANT);
    const acme = q.forTenant('acme');
    expect(q.forTenant('acme')).toBe(acme);
    acme.propose(question());
    const globex = q.forTenant('globex');
    for (const act of [() => globex.state(question()['question/ref']), () => globex.answer(answer('yes')), () => globex.cancel(question()['question/ref'])]) {
      expect((thrown(act) as QuestionError).code).toBe('question-unknown');
    }
    expect(acme.state(question()['question/ref']).state).toBe('pending');
    globex.propose(question());
    expect(globex.answer(answer('no')).answer).toBe('no');
    expect(acme.state(question()['question/ref']).state).toBe('pending');
    expect((thrown(() => q.state(question()['question/ref'])) as QuestionError).code).toBe('question-unknown');
  });
});

describe('bounds (item 8b)', () => {
  it('pending questions: one past maxOpenPerTenant is a QuotaExceededError (429) and opens nothing; other tenants are unaffected', () => {
    const q = new OperatorQuestions(new ManualClock(), policy, { maxOpenPerTenant: 2, maxRetainedPerTenant: 10 });
    q.propose(nth(1));
    q.propose(nth(2));
    const err = thrown(() => q.propose(nth(3)));
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect((err as QuotaExceededError).toWire()).toEqual({ error: 'quota_exceeded', message: expect.any(String), details: { resource: 'open-operator-questions', limit: 2 } });
    expect((err as QuotaExceededError).status).toBe(429);
    expect((thrown(() => q.state('question/n/3')) as QuestionError).code).toBe('question-unknown');
    expect(q.history('question/n/3')).toEqual([]);
    q.forTenant('acme').propose(nth(3));
  });

  it('a timed-out question frees its place without anyone calling tick', () => {
    const clock = new ManualClock();
    const q = new OperatorQuestions(clock, policy, { maxOpenPerTenant: 1, maxRetainedPerTenant: 10 });
    q.propose(nth(1));
    expect(thrown(() => q.propose(nth(2)))).toBeInstanceOf(QuotaExceededError);
    clock.advance(5 * 60_000);
    q.propose(nth(2));
    expect(q.state('question/n/1').state).toBe('timed_out');
  });

  it('ended questions: past maxRetainedPerTenant the oldest ended one is forgotten with its history', () => {
    const q = new OperatorQuestions(new ManualClock(), policy, { maxOpenPerTenant: 10, maxRetainedPerTenant: 2 });
    for (const n of [1, 2, 3]) q.propose(nth(n));
    q.cancel('question/n/2');
    q.answer(answerNth(1));
    expect(q.history('question/n/2')).toHaveLength(2);
    q.cancel('question/n/3');
    // ended in the order 2, 1, 3: the first to end (2) is forgotten
    expect((thrown(() => q.state('question/n/2')) as QuestionError).code).toBe('question-unknown');
    expect(q.history('question/n/2')).toEqual([]);
    expect([q.state('question/n/1').state, q.state('question/n/3').state]).toEqual(['answered', 'cancelled']);
  });

  it('property: under any sequence of proposals, answers, cancels and clock moves, no tenant exceeds its bounds and every kept record is a valid state', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('propose' as const), tenant: fc.constantFrom('a', 'b'), n: fc.nat({ max: 12 }) }),
      fc.record({ kind: fc.constant('answer' as const), tenant: fc.constantFrom('a', 'b'), n: fc.nat({ max: 12 }) }),
      fc.record({ kind: fc.constant('cancel' as const), tenant: fc.constantFrom('a', 'b'), n: fc.nat({ max: 12 }) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 400_000 }) }),
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const clock = new ManualClock();
      const q = new OperatorQuestions(clock, policy, { maxOpenPerTenant: 3, maxRetainedPerTenant: 2 });
      for (const o of ops) {
        if (o.kind === 'wait') clock.advance(o.ms);
        else {
          const view = q.forTenant(o.tenant);
          const act = { propose: () => view.propose(nth(o.n)), answer: () => view.answer(answerNth(o.n)), cancel: () => view.cancel(`question/n/${o.n}`) }[o.kind];
          const err = thrown(act);
          if (err !== undefined) expect(err instanceof QuestionError || err instanceof QuotaExceededError).toBe(true);
        }
        q.tick();
        for (const t of ['a', 'b']) {
          const kept = Array.from({ length: 13 }, (_, n) => thrown(() => q.forTenant(t).state(`question/n/${n}`)) === undefined ? q.forTenant(t).state(`question/n/${n}`) : undefined).filter((x) => x !== undefined);
          for (const st of kept) expect(checkDto('inquirium.operator-question.state.v1', st)).toEqual([]);
          expect(kept.filter((st) => st.state === 'pending').length).toBeLessThanOrEqual(3);
          expect(kept.filter((st) => st.state !== 'pending').length).toBeLessThanOrEqual(2);
        }
      }
    }), { numRuns: 300 });
  });
});

describe('answered/by (item 8b)', () => {
  it('is recorded on the answered state (and its history): the named answerer, else the known caller, else nothing', () => {
    const q = new OperatorQuestions(new ManualClock(), policy);
    for (const n of [1, 2, 3]) q.propose(nth(n));
    expect(q.answer(answerNth(1, { 'answered/by': ME }), { participant: ME })['answered/by']).toBe(ME);
    expect(q.answer(answerNth(2), { participant: ME })['answered/by']).toBe(ME);
    expect(q.answer(answerNth(3))).not.toHaveProperty('answered/by');
    expect(q.history('question/n/1').at(-1)).toMatchObject({ state: 'answered', 'answered/by': ME });
    expect(checkDto('inquirium.operator-question.state.v1', q.state('question/n/1'))).toEqual([]);
  });

  it('refuses an answerer other than the known caller (403) and an over-long id (400 at /answered~1by); the question stays pending', () => {
    const q = new OperatorQuestions(new ManualClock(), policy);
    q.propose(nth(1));
    const mismatch = thrown(() => q.answer(answerNth(1, { 'answered/by': OTHER }), { participant: ME })) as QuestionError;
    expect([mismatch.code, mismatch.status]).toEqual(['answerer-mismatch', 403]);
    const long = `participant:did:key:z${'6'.repeat(MAX_ACTOR_ID_LENGTH)}`;
    const tooLong = thrown(() => q.answer(answerNth(1, { 'answered/by': long }))) as QuestionError;
    expect([tooLong.code, tooLong.status]).toEqual(['answerer-invalid', 400]);
    expect(tooLong.toWire().details).toEqual({ failures: [{ instancePath: '/answered~1by', message: expect.any(String) }] });
    expect(q.state('question/n/1').state).toBe('pending');
    // without a known caller, a well-formed answered/by is taken as given
    expect(q.answer(answerNth(1, { 'answered/by': OTHER }))['answered/by']).toBe(OTHER);
  });
});
