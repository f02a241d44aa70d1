/**
 * The operator-question transition request (Solution 045 § Operator Questions And Escalation; schema
 * inquirium.operator-question.transition.request.v1): one entry point that moves a pending question to answered,
 * timed_out, cancelled or superseded, and rejects what Orbiplex's MVP rejects — a late transition and a conflicting
 * one — with a specific code, changing nothing.
 *
 *   late      the question's deadline passed before the transition arrived: the timeout (and its declared default)
 *             is applied as any read would apply it, then the transition is refused (`question-transition-late`);
 *   conflict  another transition ended the question first (on this host or another sharing the store): refused
 *             (`question-transition-conflict`); an identical repeat is not a conflict and returns the stored state;
 *   not due   a `timeout` before the deadline is refused (`question-transition-not-due`).
 *
 * The lifecycle itself (QUESTION_LIFECYCLE), the answer validation and the store's stale-read refusal stay in
 * `OperatorQuestions`; this module decides what a request means and names its refusals.
 */
import type { InquiriumOperatorQuestionTransitionRequest } from '../../generated/ts/inquirium.operator-question.transition.request.v1.ts';
import type { InquiriumOperatorQuestionState } from '../../generated/ts/inquirium.operator-question.state.v1.ts';
import { WopkitError } from '../shared/errors.ts';
import { assertDto } from './dto.ts';
import type { Tx } from '../storage/index.ts';
import { OperatorQuestions, QuestionError, type Answerer } from './operator-questions.ts';
import type { QuestionState } from './question-lifecycle.ts';
import { assertInquiriumOperatorQuestionState } from '../../generated/guards/index.ts';

export type TransitionRequest = InquiriumOperatorQuestionTransitionRequest;
export type TransitionKind = TransitionRequest['transition'];
type StateDto = InquiriumOperatorQuestionState;

export type QuestionTransitionErrorCode = 'question-transition-late' | 'question-transition-conflict' | 'question-transition-not-due';

/** A refused transition: 409 `conflict`, naming the state the question is in (nothing was changed by the refusal). */
export class QuestionTransitionError extends WopkitError<QuestionTransitionErrorCode> {
  constructor(code: QuestionTransitionErrorCode, readonly state: QuestionState) {
    super(code, `${code}: the question is ${state}`, { error: 'conflict', message: `transition refused: ${code}`, details: { code, state } });
  }
}

/** The terminal state each transition leads to. */
export const TRANSITION_TARGET: Readonly<Record<TransitionKind, QuestionState>> = {
  answer: 'answered',
  timeout: 'timed_out',
  cancel: 'cancelled',
  supersede: 'superseded',
};

const sameAnswer = (a: unknown, b: unknown): boolean => JSON.stringify(Array.isArray(a) ? [...a].sort() : a) === JSON.stringify(Array.isArray(b) ? [...b].sort() : b);

/** Whether the stored terminal state is what this request would have produced (an identical repeat). */
function isRepeat(req: TransitionRequest, s: StateDto): boolean {
  if (s.state !== TRANSITION_TARGET[req.transition]) return false;
  if (req.transition === 'answer') return sameAnswer(req.answer, s.answer);
  if (req.transition === 'supersede') return req['superseded/by'] === s['superseded/by'];
  return true;
}

/** A question's state as `OperatorQuestions` renders it, checked as the state DTO it is. */
function stateDto(state: unknown): StateDto {
  assertInquiriumOperatorQuestionState(state);
  return state;
}

/**
 * Applies transition requests to one tenant's questions. `questions` decides and records each move, and answers the
 * question's idempotency key (a request must echo it, whatever the transition); everything is read through it.
 */
export class QuestionTransitions {
  constructor(private readonly questions: OperatorQuestions) {}

  /** The view of `tenant`'s questions. */
  forTenant(tenant: string): QuestionTransitions {
    return tenant === this.questions.tenant ? this : new QuestionTransitions(this.questions.forTenant(tenant));
  }

  /** Apply one transition request; the question's new state DTO, or a refusal that changed nothing. */
  async apply(tx: Tx, request: unknown, by: Answerer = {}): Promise<StateDto> {
    const req = assertDto('inquirium.operator-question.transition.request.v1', request);
    const ref = req['question/ref'];
    // Reading the state applies a timeout that is due: a late transition finds the question timed out.
    const before = stateDto(await this.questions.state(tx, ref));
    await this.#checkKey(tx, ref, req['idempotency/key']);
    if (before.state !== 'pending') return this.#refuseOrRepeat(req, before);
    if (req.transition === 'timeout') throw new QuestionTransitionError('question-transition-not-due', before.state);
    try {
      return stateDto(await this.#move(tx, req, by));
    } catch (err) {
      // Lost a race: another request ended the question between our read above and the move's own read (a race
      // after the move's read is refused as stale at the commit, and the request's unit runs all this again).
      if (!(err instanceof QuestionError) || err.code !== 'question-terminal') throw err;
      return this.#refuseOrRepeat(req, stateDto(await this.questions.state(tx, ref)));
    }
  }

  #move(tx: Tx, req: TransitionRequest, by: Answerer): Promise<Record<string, unknown>> {
    const ref = req['question/ref'];
    switch (req.transition) {
      case 'answer':
        return this.questions.answer(tx, { schema: 'inquirium.operator-question.answer.v1', 'question/ref': ref, 'idempotency/key': req['idempotency/key'], answer: req.answer!, ...(req['answered/by'] !== undefined ? { 'answered/by': req['answered/by'] } : {}) }, by);
      case 'cancel':
        return this.questions.cancel(tx, ref, req['reason/code']);
      case 'supersede':
        return this.questions.supersede(tx, ref, req['superseded/by']!);
      case 'timeout':
        throw new QuestionTransitionError('question-transition-not-due', 'pending');
    }
  }

  #refuseOrRepeat(req: TransitionRequest, s: StateDto): StateDto {
    if (isRepeat(req, s)) return s;
    // A question that timed out was ended by its deadline, before this request: the request is late.
    throw new QuestionTransitionError(s.state === 'timed_out' ? 'question-transition-late' : 'question-transition-conflict', s.state);
  }

  async #checkKey(tx: Tx, ref: string, key: string): Promise<void> {
    if (key !== (await this.questions.idempotencyKey(tx, ref))) throw new QuestionError('idempotency-key-mismatch', 'the idempotency key does not match the question');
  }
}
