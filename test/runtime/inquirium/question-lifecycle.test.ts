import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { QUESTION_LIFECYCLE } from '../../../runtime/inquirium/question-lifecycle.ts';
import { lifecycleTests } from '../lifecycle-harness.ts';
import { question } from './questions.ts';
import type { Tx } from '../../../runtime/storage/index.ts';

const lifecycle = { module: fileURLToPath(new URL('../../../runtime/inquirium/question-lifecycle.ts', import.meta.url)), exportName: 'QUESTION_LIFECYCLE' };
const load = async () => ({ ...(await import('../../../runtime/inquirium/operator-questions.ts')), ...(await import('../../../runtime/shared/clock.ts')), ...(await import('../../../runtime/storage/memory/index.ts')), ...(await import('../../../runtime/storage/index.ts')) });

/** One question down every path the runtime has: answered, cancelled, superseded and timed out. */
async function everyPath(m: Awaited<ReturnType<typeof load>>): Promise<void> {
  const clock = new m.ManualClock();
  // The modules as loaded (the harness swaps the table and the transition function in them): each call one request.
  const port = await m.openMemoryStore();
  const qs = new m.OperatorQuestions(m.unitsOf(port), clock, { displayCeiling: 'community' });
  const request = <T>(work: (tx: Tx) => Promise<T>) => m.unitOfWork(port, work);
  const q = (name: string) => question({ 'question/ref': `question/inquirium/op-1/${name}`, response: { 'target/ref': 'inquirium.operator-question.respond', method: 'POST', 'idempotency/key': `key-${name}` } });
  for (const name of ['a', 'b', 'c', 'd']) await request((tx) => qs.propose(tx, q(name)));
  await request((tx) => qs.answer(tx, { schema: 'inquirium.operator-question.answer.v1', 'question/ref': 'question/inquirium/op-1/a', 'idempotency/key': 'key-a', answer: 'yes' }));
  await request((tx) => qs.cancel(tx, 'question/inquirium/op-1/b'));
  await request((tx) => qs.supersede(tx, 'question/inquirium/op-1/c', 'question/inquirium/op-1/e'));
  clock.advance(5 * 60_000);
  if (!(await qs.tick()).includes('question/inquirium/op-1/d')) throw new Error('the question did not time out');
}

describe('operator-question lifecycle (QUESTION_LIFECYCLE ↔ OperatorQuestions)', () => {
  lifecycleTests(QUESTION_LIFECYCLE, lifecycle, load, everyPath, ['illegal_transition', 'question-terminal']);

  it('a proposed question starts in the table\'s initial state', async () => {
    const m = await load();
    const port = await m.openMemoryStore();
    const qs = new m.OperatorQuestions(m.unitsOf(port), new m.ManualClock(), { displayCeiling: 'community' });
    expect((await m.unitOfWork(port, (tx) => qs.propose(tx, question()))).state).toBe(QUESTION_LIFECYCLE.initial);
  });
});
