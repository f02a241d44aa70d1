import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { QUESTION_LIFECYCLE } from '../../../runtime/inquirium/question-lifecycle.ts';
import { codeOf, runWith, tableEdges } from '../lifecycle-harness.ts';
import { question } from './questions.ts';

const lifecycle = { module: fileURLToPath(new URL('../../../runtime/inquirium/question-lifecycle.ts', import.meta.url)), exportName: 'QUESTION_LIFECYCLE' };
const load = async () => ({ ...(await import('../../../runtime/inquirium/operator-questions.ts')), ...(await import('../../../runtime/shared/clock.ts')) });

/** One question down every path the runtime has: answered, cancelled, superseded and timed out. */
async function everyPath(m: Awaited<ReturnType<typeof load>>): Promise<void> {
  const clock = new m.ManualClock();
  const qs = new m.OperatorQuestions(clock, { displayCeiling: 'community' });
  const q = (name: string) => question({ 'question/ref': `question/inquirium/op-1/${name}`, response: { 'target/ref': 'inquirium.operator-question.respond', method: 'POST', 'idempotency/key': `key-${name}` } });
  for (const name of ['a', 'b', 'c', 'd']) qs.propose(q(name));
  qs.answer({ schema: 'inquirium.operator-question.answer.v1', 'question/ref': 'question/inquirium/op-1/a', 'idempotency/key': 'key-a', answer: 'yes' });
  qs.cancel('question/inquirium/op-1/b');
  qs.supersede('question/inquirium/op-1/c', 'question/inquirium/op-1/e');
  clock.advance(5 * 60_000);
  if (!qs.tick().includes('question/inquirium/op-1/d')) throw new Error('the question did not time out');
}

describe('operator-question lifecycle (QUESTION_LIFECYCLE ↔ OperatorQuestions)', () => {
  it('every move the runtime makes is an edge of the table, and every edge is a move it makes', async () => {
    const { performed, error } = await runWith(lifecycle, load, everyPath);
    expect(error).toBeUndefined();
    expect(performed).toEqual(tableEdges(QUESTION_LIFECYCLE));
  });

  it.each(QUESTION_LIFECYCLE.transitions.map((t) => [`${t.from} → ${t.to}`, t] as const))('without %s in the table the runtime refuses that move', async (_, t) => {
    const { performed, error } = await runWith(lifecycle, load, everyPath, t);
    expect(codeOf(error)).toMatch(/^(illegal_transition|question-terminal)$/);
    expect(performed).not.toContain(`${t.from} → ${t.to}`);
  });

  it('new questions start in the table\'s initial state', () => {
    expect(QUESTION_LIFECYCLE.initial).toBe('pending');
  });
});
