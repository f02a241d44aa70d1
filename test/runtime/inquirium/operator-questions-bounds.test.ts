/**
 * Issue 12 items 6 and 8b, operator questions: a question's timeout is a bounded duration, checked before the
 * question is opened.
 */
import { describe, expect, it } from 'vitest';
import { MAX_QUESTION_TIMEOUT_MS, OperatorQuestions, QuestionError, validateProposedQuestion } from '../../../runtime/inquirium/operator-questions.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';
import { question } from './questions.ts';

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
