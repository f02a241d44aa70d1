/**
 * The operator-question lifecycle (P066 Decision 11) as data: `OperatorQuestions` opens a question in `initial` and
 * moves it only through `transition(QUESTION_LIFECYCLE, …)`, and the site draws this same table.
 */
import type { InquiriumOperatorQuestionState } from '../../generated/ts/inquirium.operator-question.state.v1.ts';
import { defineStateMachine } from '../shared/state-machine.ts';

export type QuestionState = InquiriumOperatorQuestionState['state'];

export const QUESTION_LIFECYCLE = defineStateMachine<QuestionState>({
  id: 'question-lifecycle',
  title: 'Operator-question lifecycle',
  source: 'P066 Decision 11 (operator questions); schema inquirium.operator-question.state.v1',
  states: ['pending', 'answered', 'timed_out', 'cancelled', 'superseded'],
  initial: 'pending',
  terminal: ['answered', 'timed_out', 'cancelled', 'superseded'],
  transitions: [
    { from: 'pending', to: 'answered', on: 'allowed answer, matching idempotency key' },
    { from: 'pending', to: 'timed_out', on: 'deadline passes (declared default applied)' },
    { from: 'pending', to: 'cancelled', on: 'cancel' },
    { from: 'pending', to: 'superseded', on: 'a newer question replaces it' },
  ],
});
