import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OperatorQuestions } from '../../../runtime/inquirium/operator-questions.ts';
import { QuestionTransitions, QuestionTransitionError, TRANSITION_TARGET, type TransitionRequest } from '../../../runtime/inquirium/question-transitions.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';
import { question } from './questions.ts';
import { BACKENDS, type TwoHosts } from './two-hosts.ts';
import { unitsOf } from '../../../runtime/storage/index.ts';
import { questionsOn, type QuestionRequests } from './question-requests.ts';

const policy = { displayCeiling: 'community' as const, secrets: [] };
const KEY = question().response['idempotency/key'];
let n = 0;
const fresh = (withDefault = true) => {
  const ref = `question/issue38/${++n}`;
  const { 'default/on-timeout': _d, ...nd } = question({ 'question/ref': ref });
  return { ref, request: withDefault ? question({ 'question/ref': ref }) : nd };
};
type Kind = TransitionRequest['transition'];
const tr = (ref: string, kind: Kind, v = 'yes'): TransitionRequest => ({
  schema: 'inquirium.operator-question.transition.request.v1', 'question/ref': ref, transition: kind, 'idempotency/key': KEY,
  ...(kind === 'answer' ? { answer: v } : {}), ...(kind === 'supersede' ? { 'superseded/by': `${ref}/newer` } : {}),
});
const arbTransition = fc.oneof(
  fc.record({ kind: fc.constant<Kind>('answer'), v: fc.constantFrom('yes', 'no') }),
  fc.record({ kind: fc.constantFrom<Kind>('cancel', 'supersede', 'timeout'), v: fc.constant('yes') }),
);

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(`operator-question transition request (${backend.name})`, () => {
    let hosts: TwoHosts;
    const clock = new ManualClock();
    beforeAll(async () => { hosts = await backend.open('qtransition'); });
    afterAll(() => hosts?.done());
    const both = () => [questionsOn(hosts.a, clock, policy), questionsOn(hosts.b, clock, policy)] as const;
    const transitions = (q: QuestionRequests) => q.transitions();

    it('moves a pending question by each transition; a timeout before the deadline is refused as not due', async () => {
      const [qa] = both();
      const t = transitions(qa);
      for (const kind of ['answer', 'cancel', 'supersede'] as const) {
        const { ref, request } = fresh();
        await qa.propose(request);
        expect((await t.apply(tr(ref, kind))).state).toBe(TRANSITION_TARGET[kind]);
      }
      const { ref, request } = fresh();
      await qa.propose(request);
      await expect(t.apply(tr(ref, 'timeout'))).rejects.toMatchObject({ code: 'question-transition-not-due', status: 409 });
      expect((await qa.state(ref)).state).toBe('pending');
      clock.advance(6 * 60_000);
      expect((await t.apply(tr(ref, 'timeout')))).toMatchObject({ state: 'timed_out', 'default/applied': { answer: 'no' } });
    });

    it('refuses a wrong idempotency key whatever the transition, changing nothing', async () => {
      const [qa] = both();
      const { ref, request } = fresh();
      await qa.propose(request);
      await expect(transitions(qa).apply({ ...tr(ref, 'cancel'), 'idempotency/key': 'other' })).rejects.toMatchObject({ code: 'idempotency-key-mismatch' });
      expect((await qa.history(ref)).map((h) => h.state)).toEqual(['pending']);
    });

    it('two racers on one transition, on two hosts: exactly one wins and the other gets the conflict error (property)', async () => {
      await fc.assert(
        fc.asyncProperty(arbTransition.filter((x) => x.kind !== 'timeout'), arbTransition.filter((x) => x.kind !== 'timeout'), async (x, y) => {
          fc.pre(x.kind !== y.kind || x.v !== y.v); // identical requests are a repeat, not a conflict (next test)
          const [qa, qb] = both();
          const { ref, request } = fresh();
          await qa.propose(request);
          const out = await Promise.allSettled([transitions(qa).apply(tr(ref, x.kind, x.v)), transitions(qb).apply(tr(ref, y.kind, y.v))]);
          const won = out.filter((o) => o.status === 'fulfilled');
          const lost = out.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
          expect(won).toHaveLength(1);
          expect(lost).toHaveLength(1);
          expect(lost[0]!.reason).toBeInstanceOf(QuestionTransitionError);
          expect(lost[0]!.reason).toMatchObject({ code: 'question-transition-conflict', status: 409 });
          const history = (await qb.history(ref)).map((h) => h.state);
          expect(history).toEqual(['pending', (won[0] as PromiseFulfilledResult<{ state: string }>).value.state]);
        }),
        { numRuns: backend.name === 'in-memory' ? 60 : 20 },
      );
    });

    it('an identical repeat from another host returns the stored state and records nothing more', async () => {
      const [qa, qb] = both();
      const { ref, request } = fresh();
      await qa.propose(request);
      const [x, y] = await Promise.all([transitions(qa).apply(tr(ref, 'answer', 'no')), transitions(qb).apply(tr(ref, 'answer', 'no'))]);
      expect(x).toEqual(y);
      expect((await qa.history(ref)).map((h) => h.state)).toEqual(['pending', 'answered']);
    });

    it('a late transition changes nothing: refused as late, the question as the deadline left it (property)', async () => {
      await fc.assert(
        fc.asyncProperty(arbTransition, fc.boolean(), fc.boolean(), fc.integer({ min: 1, max: 3_600_000 }), async (x, withDefault, readFirst, lateBy) => {
          const [qa, qb] = both();
          const { ref, request } = fresh(withDefault);
          await qa.propose(request);
          clock.advance(5 * 60_000 + lateBy);
          // With readFirst, another host has already seen the deadline pass; otherwise the late request is the first.
          const seen = readFirst ? await qa.state(ref) : undefined;
          const result = await transitions(qb).apply(tr(ref, x.kind, x.v)).then((s) => ({ ok: s }), (e: unknown) => ({ err: e }));
          if (x.kind === 'timeout') expect(result).toMatchObject({ ok: { state: 'timed_out' } });
          else expect(result).toMatchObject({ err: { code: 'question-transition-late', state: 'timed_out' } });
          const after = await qa.state(ref);
          expect(after).toMatchObject({ state: 'timed_out', ...(withDefault ? { 'default/applied': { answer: 'no' } } : {}) });
          if (seen !== undefined) expect(after).toEqual(seen);
          expect((await qa.history(ref)).map((h) => h.state)).toEqual(['pending', 'timed_out']);
          expect((await qa.outcome(ref)).source).toBe(withDefault ? 'declared-default' : undefined);
        }),
        { numRuns: backend.name === 'in-memory' ? 60 : 20 },
      );
    });
  });
}
