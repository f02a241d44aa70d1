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
import { openMemoryStore } from '../../../runtime/storage/memory/index.ts';
import type { StoragePort } from '../../../runtime/storage/port.ts';
import { QuotaExceededError } from '../../../runtime/shared/quota.ts';
import { answer, question } from './questions.ts';
import { unitsOf } from '../../../runtime/storage/index.ts';
import { questionsOn } from './question-requests.ts';

const ME = 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const OTHER = 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doM';
const nth = (n: number) => question({ 'question/ref': `question/n/${n}`, response: { 'target/ref': 'inquirium.operator-question.respond', method: 'POST', 'idempotency/key': `k-${n}` } });
const answerNth = (n: number, over: Record<string, unknown> = {}) => ({ ...answer('yes', `k-${n}`), 'question/ref': `question/n/${n}`, ...over });
const thrown = async (f: () => unknown): Promise<unknown> => { try { await f(); } catch (e) { return e; } return undefined; };

const policy = { displayCeiling: 'community' as const };
const questions = async (clock = new ManualClock(), limits?: { maxOpenPerTenant: number; maxRetainedPerTenant: number }) => questionsOn(await openMemoryStore(), clock, policy, limits);
/** The refs a tenant's questions table keeps, by state. */
const kept = async (port: StoragePort, tenant: string) => (await port.reads.all('SELECT ref, state FROM questions WHERE tenant = ? ORDER BY ref', [tenant], 1000)).map((r) => ({ ref: String(r.ref), state: String(r.state) }));
const codes = (q: unknown) => validateProposedQuestion(q, policy).map((i) => i.code);

describe('question timeout bounds (item 6)', () => {
  it('accepts up to 30 days; refuses longer, zero, overflowing and non-ISO timeouts before opening anything', async () => {
    expect(MAX_QUESTION_TIMEOUT_MS).toBe(30 * 86_400_000);
    expect(codes(question({ timeout: 'P30D' }))).toEqual([]);
    for (const [timeout, code] of [['P31D', 'timeout-too-long'], ['P9999999Y', 'timeout-too-long'], [`P${'9'.repeat(400)}Y`, 'timeout-too-long'], ['PT0S', 'timeout-undefined'], ['soon', 'schema-format']] as const) {
      expect([timeout.slice(0, 12), codes(question({ timeout }))]).toEqual([timeout.slice(0, 12), expect.arrayContaining([code])]);
      const q = await questions();
      await expect(q.propose(question({ timeout }))).rejects.toThrow(QuestionError);
      await expect(q.state(question()['question/ref'])).rejects.toThrow(/no such question/);
    }
  });
});

describe('tenants (item 8b)', () => {
  it('a question belongs to the tenant that proposed it: another tenant cannot read, answer or cancel it, and may use the same ref', async () => {
    const q = await questions();
    expect(q.tenant).toBe(LOCAL_TENANT);
    const acme = q.forTenant('acme');
    expect(acme.tenant).toBe('acme');
    await acme.propose(question());
    const globex = q.forTenant('globex');
    for (const act of [() => globex.state(question()['question/ref']), () => globex.answer(answer('yes')), () => globex.cancel(question()['question/ref'])]) {
      expect(((await thrown(act)) as QuestionError).code).toBe('question-unknown');
    }
    expect((await acme.state(question()['question/ref'])).state).toBe('pending');
    await globex.propose(question());
    expect((await globex.answer(answer('no'))).answer).toBe('no');
    expect((await acme.state(question()['question/ref'])).state).toBe('pending');
    expect(((await thrown(() => q.state(question()['question/ref']))) as QuestionError).code).toBe('question-unknown');
  });
});

describe('bounds (item 8b)', () => {
  it('pending questions: one past maxOpenPerTenant is a QuotaExceededError (429) and opens nothing; other tenants are unaffected', async () => {
    const q = await questions(new ManualClock(), { maxOpenPerTenant: 2, maxRetainedPerTenant: 10 });
    await q.propose(nth(1));
    await q.propose(nth(2));
    const err = await thrown(() => q.propose(nth(3)));
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect((err as QuotaExceededError).toWire()).toEqual({ error: 'quota_exceeded', message: expect.any(String), details: { resource: 'open-operator-questions', limit: 2 } });
    expect((err as QuotaExceededError).status).toBe(429);
    expect(((await thrown(() => q.state('question/n/3'))) as QuestionError).code).toBe('question-unknown');
    expect(await q.history('question/n/3')).toEqual([]);
    await q.forTenant('acme').propose(nth(3));
  });

  it('a timed-out question frees its place without anyone calling tick', async () => {
    const clock = new ManualClock();
    const q = await questions(clock, { maxOpenPerTenant: 1, maxRetainedPerTenant: 10 });
    await q.propose(nth(1));
    expect(await thrown(() => q.propose(nth(2)))).toBeInstanceOf(QuotaExceededError);
    clock.advance(5 * 60_000);
    await q.propose(nth(2));
    expect((await q.state('question/n/1')).state).toBe('timed_out');
  });

  it('ended questions: past maxRetainedPerTenant the oldest ended one is forgotten with its history', async () => {
    const clock = new ManualClock();
    const q = await questions(clock, { maxOpenPerTenant: 10, maxRetainedPerTenant: 2 });
    for (const n of [1, 2, 3]) await q.propose(nth(n));
    await q.cancel('question/n/2');
    clock.advance(1);
    await q.answer(answerNth(1));
    expect(await q.history('question/n/2')).toHaveLength(2);
    clock.advance(1);
    await q.cancel('question/n/3');
    // ended in the order 2, 1, 3: the first to end (2) is forgotten
    expect(((await thrown(() => q.state('question/n/2'))) as QuestionError).code).toBe('question-unknown');
    expect(await q.history('question/n/2')).toEqual([]);
    expect([(await q.state('question/n/1')).state, (await q.state('question/n/3')).state]).toEqual(['answered', 'cancelled']);
  });

  it('property: under any sequence of proposals, answers, cancels and clock moves, no tenant exceeds its bounds and every kept record is a valid state', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('propose' as const), tenant: fc.constantFrom('a', 'b'), n: fc.nat({ max: 12 }) }),
      fc.record({ kind: fc.constant('answer' as const), tenant: fc.constantFrom('a', 'b'), n: fc.nat({ max: 12 }) }),
      fc.record({ kind: fc.constant('cancel' as const), tenant: fc.constantFrom('a', 'b'), n: fc.nat({ max: 12 }) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 400_000 }) }),
    );
    await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
      const clock = new ManualClock();
      const port = await openMemoryStore();
      const q = questionsOn(port, clock, policy, { maxOpenPerTenant: 3, maxRetainedPerTenant: 2 });
      for (const o of ops) {
        if (o.kind === 'wait') clock.advance(o.ms);
        else {
          const view = q.forTenant(o.tenant);
          const act = { propose: () => view.propose(nth(o.n)), answer: () => view.answer(answerNth(o.n)), cancel: () => view.cancel(`question/n/${o.n}`) }[o.kind];
          const err = await thrown(act);
          if (err !== undefined) expect(err instanceof QuestionError || err instanceof QuotaExceededError).toBe(true);
        }
        await q.tick();
        for (const t of ['a', 'b']) {
          const rows = await kept(port, t);
          expect(rows.filter((r) => r.state === 'pending').length).toBeLessThanOrEqual(3);
          expect(rows.filter((r) => r.state !== 'pending').length).toBeLessThanOrEqual(2);
          for (const r of rows) expect(checkDto('inquirium.operator-question.state.v1', await q.forTenant(t).state(r.ref))).toEqual([]);
        }
      }
      await port.close();
    }), { numRuns: 150 });
  });
});

describe('answered/by (item 8b)', () => {
  it('is recorded on the answered state (and its history): the named answerer, else the known caller, else nothing', async () => {
    const q = await questions();
    for (const n of [1, 2, 3]) await q.propose(nth(n));
    expect((await q.answer(answerNth(1, { 'answered/by': ME }), { participant: ME }))['answered/by']).toBe(ME);
    expect((await q.answer(answerNth(2), { participant: ME }))['answered/by']).toBe(ME);
    expect(await q.answer(answerNth(3))).not.toHaveProperty('answered/by');
    expect((await q.history('question/n/1')).at(-1)).toMatchObject({ state: 'answered', 'answered/by': ME });
    expect(checkDto('inquirium.operator-question.state.v1', await q.state('question/n/1'))).toEqual([]);
  });

  it('refuses an answerer other than the known caller (403) and an over-long id (400 at /answered~1by); the question stays pending', async () => {
    const q = await questions();
    await q.propose(nth(1));
    const mismatch = (await thrown(() => q.answer(answerNth(1, { 'answered/by': OTHER }), { participant: ME }))) as QuestionError;
    expect([mismatch.code, mismatch.status]).toEqual(['answerer-mismatch', 403]);
    const long = `participant:did:key:z${'6'.repeat(MAX_ACTOR_ID_LENGTH)}`;
    const tooLong = (await thrown(() => q.answer(answerNth(1, { 'answered/by': long })))) as QuestionError;
    expect([tooLong.code, tooLong.status]).toEqual(['answerer-invalid', 400]);
    expect(tooLong.toWire().details).toEqual({ failures: [{ instancePath: '/answered~1by', message: expect.any(String) }] });
    expect((await q.state('question/n/1')).state).toBe('pending');
    // without a known caller, a well-formed answered/by is taken as given
    expect((await q.answer(answerNth(1, { 'answered/by': OTHER })))['answered/by']).toBe(OTHER);
  });
});
