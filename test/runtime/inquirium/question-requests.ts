/**
 * Operator questions as requests use them: each call one request, its own unit of work on the store (what the host's
 * request boundary does around a route). The tick is the background's and opens its own units.
 */
import { OperatorQuestions, type Answerer, type HostQuestionPolicy, type QuestionLimits } from '../../../runtime/inquirium/operator-questions.ts';
import { QuestionTransitions } from '../../../runtime/inquirium/question-transitions.ts';
import type { Clock } from '../../../runtime/shared/clock.ts';
import { unitOfWork, unitsOf, type StoragePort, type Tx } from '../../../runtime/storage/index.ts';

export interface QuestionRequests {
  readonly tenant: string;
  readonly raw: OperatorQuestions;
  forTenant(tenant: string): QuestionRequests;
  propose(request: unknown): ReturnType<OperatorQuestions['propose']>;
  answer(answer: unknown, by?: Answerer): ReturnType<OperatorQuestions['answer']>;
  cancel(ref: string, reason?: string): ReturnType<OperatorQuestions['cancel']>;
  supersede(ref: string, byRef: string): ReturnType<OperatorQuestions['supersede']>;
  state(ref: string): ReturnType<OperatorQuestions['state']>;
  outcome(ref: string): ReturnType<OperatorQuestions['outcome']>;
  history(ref: string): ReturnType<OperatorQuestions['history']>;
  idempotencyKey(ref: string): ReturnType<OperatorQuestions['idempotencyKey']>;
  tick(): ReturnType<OperatorQuestions['tick']>;
  /** Transition requests on these questions, each one request. */
  transitions(): { apply(request: unknown, by?: Answerer): ReturnType<QuestionTransitions['apply']> };
}

/** `q` with every request-time call one request on `port` (an answer or end keeps a due timeout when it refuses, as the routes do). */
export function questionRequests(q: OperatorQuestions, port: StoragePort): QuestionRequests {
  const request = <T>(work: (tx: Tx) => Promise<T>, commitOnThrow = false) => unitOfWork(port, work, { commitOnThrow });
  return {
    tenant: q.tenant,
    raw: q,
    forTenant: (tenant) => questionRequests(q.forTenant(tenant), port),
    propose: (r) => request((tx) => q.propose(tx, r)),
    answer: (a, by) => request((tx) => q.answer(tx, a, by), true),
    cancel: (ref, reason) => request((tx) => q.cancel(tx, ref, reason), true),
    supersede: (ref, byRef) => request((tx) => q.supersede(tx, ref, byRef), true),
    state: (ref) => request((tx) => q.state(tx, ref)),
    outcome: (ref) => request((tx) => q.outcome(tx, ref)),
    history: (ref) => request((tx) => q.history(tx, ref)),
    idempotencyKey: (ref) => request((tx) => q.idempotencyKey(tx, ref)),
    tick: () => q.tick(),
    transitions: () => ({ apply: (r, by) => request((tx) => new QuestionTransitions(q).apply(tx, r, by)) }),
  };
}

/** Operator questions over `port`, as requests use them. */
export const questionsOn = (port: StoragePort, clock: Clock, policy: HostQuestionPolicy, limits?: QuestionLimits, tenant?: string): QuestionRequests =>
  questionRequests(new OperatorQuestions(unitsOf(port), clock, policy, limits, tenant), port);
