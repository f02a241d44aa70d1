/**
 * Operator questions (P066 Decision 11). The model may PROPOSE a question; the host validates and shapes it before
 * anyone sees it, owns the widget, and runs the lifecycle:
 *
 *   pending → answered | timed_out | cancelled | superseded      (terminal states never change)
 *
 * That lifecycle is data (QUESTION_LIFECYCLE, question-lifecycle.ts): every state change goes through its table.
 * Only `answered` unblocks the operation with operator input. timed_out / cancelled / superseded fail closed,
 * unless the request declared a safe `default/on-timeout` (applied on timeout only). Answers are idempotent by the
 * request's idempotency key: the same key and answer again returns the same state; a different answer, or another
 * key, is refused.
 *
 * Questions belong to a tenant (`forTenant`), which alone can read, answer or cancel them; one tenant keeps at most
 * `maxOpenPerTenant` pending and `maxRetainedPerTenant` ended questions (QuestionLimits), and an answer's
 * `answered/by` is checked and recorded on the answered state.
 */
import type { Clock } from '../shared/clock.ts';
import { validationFailures, WopkitError, type WireAnswer } from '../shared/errors.ts';
import { toIso } from '../shared/clock.ts';
import { durationMs } from '../shared/duration.ts';
import { assertDto } from './dto.ts';
import { answerAllowed, normaliseAnswer, validateProposedQuestion, type Answer, type HostQuestionPolicy, type ValidationIssue } from './widget-kinds.ts';
import { canTransition, transition } from '../shared/state-machine.ts';
import { QUESTION_LIFECYCLE, type QuestionState } from './question-lifecycle.ts';
import { isJsonDoc, StoreCorruptError, type JsonDoc, type Tx, type Units } from '../storage/index.ts';
import { isInquiriumOperatorQuestionState } from '../../generated/guards/index.ts';
import type { InquiriumOperatorQuestionState } from '../../generated/ts/inquirium.operator-question.state.v1.ts';


export type { QuestionState } from './question-lifecycle.ts';
export const TERMINAL: ReadonlySet<QuestionState> = new Set(QUESTION_LIFECYCLE.terminal);

type Json = Record<string, unknown>;
// The registered widget kinds, the answers they allow and the host's refusal function live in widget-kinds.ts.
export { answerAllowed, MAX_QUESTION_TIMEOUT_MS, validateProposedQuestion, type Answer, type HostQuestionPolicy, type ValidationIssue } from './widget-kinds.ts';

export type QuestionErrorCode =
  | 'question-invalid' | 'question-unknown' | 'question-terminal' | 'answer-not-allowed' | 'idempotency-key-mismatch' | 'question-exists'
  | 'answerer-invalid' | 'answerer-mismatch';

/**
 * Invalid with issues → 400 validation_failed listing them; a malformed answerer → 400 at /answered~1by; unknown
 * → 404; an answerer other than the authenticated caller → 403; any other refusal → 409.
 */
function questionWire(code: QuestionErrorCode, issues: readonly ValidationIssue[]): WireAnswer {
  if (code === 'question-invalid' && issues.length > 0) {
    const failures = validationFailures(issues.map((i) => ({ instancePath: '', message: `${i.code}: ${i.message}` })));
    return { error: 'validation_failed', message: 'the proposed question was rejected by host validation', details: { failures } };
  }
  if (code === 'answerer-invalid') {
    return { error: 'validation_failed', message: 'the answer names no valid answerer', details: { failures: [{ instancePath: '/answered~1by', message: `must be a participant id of at most ${MAX_ACTOR_ID_LENGTH} characters` }] } };
  }
  const error = code === 'question-unknown' ? 'not_found' : code === 'answerer-mismatch' ? 'forbidden' : 'conflict';
  return { error, message: `question refused: ${code}` };
}

export class QuestionError extends WopkitError<QuestionErrorCode> {
  constructor(code: QuestionErrorCode, message: string, readonly issues: readonly ValidationIssue[] = []) {
    super(code, message, questionWire(code, issues));
  }
}

/** The tenant a question belongs to when the caller names none (a library serving one operator). */
export const LOCAL_TENANT = 'local';
/** Longest participant id accepted as `answered/by`. */
export const MAX_ACTOR_ID_LENGTH = 256;

/** How much question state one tenant can make the host keep. */
export interface QuestionLimits {
  /** Pending questions one tenant may have; one more is refused (429 `quota_exceeded`) and nothing is opened. */
  readonly maxOpenPerTenant: number;
  /** Ended (answered, timed out, cancelled, superseded) questions kept readable per tenant; past it the oldest is forgotten. */
  readonly maxRetainedPerTenant: number;
}
export const DEFAULT_QUESTION_LIMITS: QuestionLimits = { maxOpenPerTenant: 100, maxRetainedPerTenant: 256 };

/** Who is answering, as the host authenticated the caller (absent: the library does not know). */
export interface Answerer {
  readonly participant?: string;
}

/** One question as kept: replaced whole on every transition, never mutated. */
export interface QuestionRecord {
  readonly tenant: string;
  readonly ref: string;
  readonly request: Json;
  readonly state: QuestionState;
  readonly answer?: string[];
  readonly answerRaw?: Answer;
  readonly answeredBy?: string;
  readonly defaultApplied?: Json;
  readonly supersededBy?: string;
  readonly reason?: string;
  readonly updatedAt: string;
  readonly deadline: number;
}

export interface QuestionOutcome {
  readonly state: QuestionState;
  /** Whether the blocked operation may proceed. */
  readonly unblocked: boolean;
  /** The input the operation proceeds with (operator answer, or the declared safe default on timeout). */
  readonly input?: Answer;
  readonly source?: 'operator' | 'declared-default';
}

/** Question refs are per tenant: the same ref in two tenants names two questions. */

const QUESTION_STATES: ReadonlySet<string> = new Set(QUESTION_LIFECYCLE.states);
const isQuestionState = (v: unknown): v is QuestionState => typeof v === 'string' && QUESTION_STATES.has(v);
const isText = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTextList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isText);
const isAnswer = (v: unknown): v is Answer => isText(v) || isTextList(v);

const corruptQuestion = (table: string, what: string): StoreCorruptError => new StoreCorruptError(table, `a stored ${what} is not one this runtime wrote`);

/** The questions table's decoder: a stored document back into the record `#transition` / `propose` wrote. */
export function questionRecordOf(doc: JsonDoc): QuestionRecord {
  const { tenant, ref, request, state, answer, answerRaw, answeredBy, defaultApplied, supersededBy, reason, updatedAt, deadline } = doc;
  if (!isText(tenant) || !isText(ref) || !isJsonDoc(request) || !isQuestionState(state) || !isText(updatedAt) || typeof deadline !== 'number' || !Number.isFinite(deadline)
    || (answer !== undefined && !isTextList(answer)) || (answerRaw !== undefined && !isAnswer(answerRaw)) || (answeredBy !== undefined && !isText(answeredBy))
    || (defaultApplied !== undefined && !isJsonDoc(defaultApplied)) || (supersededBy !== undefined && !isText(supersededBy)) || (reason !== undefined && !isText(reason))) {
    throw corruptQuestion('questions', 'operator question');
  }
  return {
    tenant, ref, request, state, updatedAt, deadline,
    ...(isTextList(answer) ? { answer } : {}),
    ...(isAnswer(answerRaw) ? { answerRaw } : {}),
    ...(isText(answeredBy) ? { answeredBy } : {}),
    ...(isJsonDoc(defaultApplied) ? { defaultApplied } : {}),
    ...(isText(supersededBy) ? { supersededBy } : {}),
    ...(isText(reason) ? { reason } : {}),
  };
}

/** The question history's decoder: each stored record is the state DTO a transition rendered and validated. */
export function questionStateOf(doc: JsonDoc): InquiriumOperatorQuestionState {
  if (!isInquiriumOperatorQuestionState(doc)) throw corruptQuestion('question_history', 'operator question state');
  return doc;
}

/** The idempotency key a question's request declared (every answer and transition must echo it). */
const requestKeyOf = (r: QuestionRecord): unknown => {
  const response = r.request['response'];
  return isObject(response) ? response['idempotency/key'] : undefined;
};

/** The state DTO (inquirium.operator-question.state.v1) of a record; throws, changing nothing, if it would be invalid. */
function render(r: QuestionRecord): Json {
  return { ...assertDto('inquirium.operator-question.state.v1', {
    schema: 'inquirium.operator-question.state.v1',
    'question/ref': r.ref,
    'operation/ref': r.request['operation/ref'],
    state: r.state,
    ...(r.state === 'answered' ? { answer: r.answerRaw } : {}),
    ...(r.state === 'answered' && r.answeredBy !== undefined ? { 'answered/by': r.answeredBy } : {}),
    ...(r.defaultApplied !== undefined ? { 'default/applied': r.defaultApplied } : {}),
    ...(r.supersededBy !== undefined ? { 'superseded/by': r.supersededBy } : {}),
    ...(r.reason !== undefined && r.state !== 'answered' ? { 'reason/code': r.reason } : {}),
    'updated/at': r.updatedAt,
  }) };
}


/**
 * The operator questions of one tenant, in the store. `forTenant` gives another tenant's view; a tenant sees,
 * answers and cancels only its own questions (another tenant's ref is unknown to it — CTI-1). The view a
 * constructor returns is the LOCAL_TENANT one. Bounds (`QuestionLimits`) apply per tenant and are counted in the
 * store, in the transaction that opens or ends a question.
 *
 * Every transition builds the next record, renders and validates its state DTO, and only then plans the
 * replacement of the record it read — which the store refuses as stale if the question moved meanwhile (on this
 * host or another), and the transition is decided again from a fresh read. A pending question past its deadline
 * is timed out by whoever reads it first (a read, an answer, the host's background work).
 */
export class OperatorQuestions {
  readonly tenant: string;
  readonly #o: { readonly units: Units; readonly clock: Clock; readonly policy: HostQuestionPolicy; readonly limits: QuestionLimits };

  constructor(units: Units, clock: Clock, policy: HostQuestionPolicy, limits: QuestionLimits = DEFAULT_QUESTION_LIMITS, tenant = LOCAL_TENANT) {
    this.tenant = tenant;
    this.#o = { units, clock, policy, limits };
  }

  /** The view of `tenant`'s questions. */
  forTenant(tenant: string): OperatorQuestions {
    return tenant === this.tenant ? this : new OperatorQuestions(this.#o.units, this.#o.clock, this.#o.policy, this.#o.limits, tenant);
  }

  #now(): number {
    return this.#o.clock.now();
  }

  /** Validate a proposed question and open it (pending), within the tenant's open-question bound. */
  async propose(tx: Tx, request: unknown): Promise<Json> {
    const issues = validateProposedQuestion(request, this.#o.policy);
    if (issues.length > 0) throw new QuestionError('question-invalid', 'the proposed question was rejected by host validation', issues);
    const req = request as Json;
    const ref = String(req['question/ref']);
    // The tenant's questions past their deadline are timed out first (they no longer count as open), then the
    // question opens — in the caller's unit. A ref already taken is refused here, or at the commit when another
    // request took it meanwhile.
    if ((await tx.read.questionGet({ tenant: this.tenant, ref })) !== undefined) throw new QuestionError('question-exists', 'a question with this ref exists');
    for (const q of await tx.read.pendingQuestionsOf({ tenant: this.tenant, limit: this.#o.limits.maxOpenPerTenant })) await this.#record(tx, q.ref);
    const now = this.#now();
    const next: QuestionRecord = { tenant: this.tenant, ref, request: structuredClone(req), state: QUESTION_LIFECYCLE.initial, updatedAt: toIso(now), deadline: now + durationMs(String(req.timeout))! };
    const dto = render(next);
    tx.add('question.open', { tenant: this.tenant, ref, deadlineMs: next.deadline, openedMs: now, record: next, stateDto: dto, limit: this.#o.limits.maxOpenPerTenant });
    return dto;
  }

  /**
   * The question's record as read through `tx`, a pending one past its deadline timed out first (planned into `tx`);
   * QuestionError when unknown.
   */
  async #record(tx: Tx, ref: string): Promise<QuestionRecord> {
    const row = await tx.read.questionGet({ tenant: this.tenant, ref });
    if (row === undefined) throw new QuestionError('question-unknown', 'no such question');
    const r = questionRecordOf(row.doc);
    const now = this.#now();
    if (r.state !== 'pending' || r.deadline > now) return r;
    const declared = r.request['default/on-timeout'];
    const def = isObject(declared) ? declared : undefined;
    return this.#transition(tx, r, { ...r, state: 'timed_out', reason: 'timeout', updatedAt: toIso(now), ...(def !== undefined ? { defaultApplied: def } : {}) });
  }

  /**
   * Record an operator answer (idempotent per idempotency key). `answered/by`, when sent, must be a participant id
   * of at most MAX_ACTOR_ID_LENGTH characters and, when the caller is known (`by`), that caller; the answerer
   * (`answered/by`, else the caller) is recorded on the answered state.
   */
  async answer(tx: Tx, answerDto: unknown, by: Answerer = {}): Promise<Json> {
    const a = assertDto('inquirium.operator-question.answer.v1', answerDto);
    const claimed = a['answered/by'];
    if (claimed !== undefined && (claimed.length === 0 || claimed.length > MAX_ACTOR_ID_LENGTH)) throw new QuestionError('answerer-invalid', 'answered/by is not a valid participant id');
    if (claimed !== undefined && by.participant !== undefined && claimed !== by.participant) throw new QuestionError('answerer-mismatch', 'answered/by names someone other than the caller');
    // A timeout found due is planned first; the answer's own transition is the last thing planned (a request that
    // keeps the timeout when the answer is refused commits on a throw: routes/inquirium.ts).
    const r = await this.#record(tx, a['question/ref']);
    const key = requestKeyOf(r);
    if (a['idempotency/key'] !== key) throw new QuestionError('idempotency-key-mismatch', 'the idempotency key does not match the question');
    if (r.state === 'answered' && JSON.stringify(normaliseAnswer(r.request, a.answer)) === JSON.stringify(r.answer)) return render(r);
    if (!canTransition(QUESTION_LIFECYCLE, r.state, 'answered')) throw new QuestionError('question-terminal', `the question is already ${r.state}`);
    if (!answerAllowed(r.request, a.answer)) throw new QuestionError('answer-not-allowed', 'the answer is not one of the allowed answers');
    const answeredBy = claimed ?? by.participant;
    return render(this.#transition(tx, r, { ...r, state: 'answered', answer: normaliseAnswer(r.request, a.answer), answerRaw: a.answer, ...(answeredBy !== undefined ? { answeredBy } : {}), updatedAt: toIso(this.#now()) }));
  }

  cancel(tx: Tx, ref: string, reason = 'operation-cancelled'): Promise<Json> {
    return this.#end(tx, ref, 'cancelled', reason);
  }
  supersede(tx: Tx, ref: string, byRef: string): Promise<Json> {
    return this.#end(tx, ref, 'superseded', 'superseded-by-newer-question', byRef);
  }
  async #end(tx: Tx, ref: string, state: 'cancelled' | 'superseded', reason: string, byRef?: string): Promise<Json> {
    const r = await this.#record(tx, ref);
    if (!canTransition(QUESTION_LIFECYCLE, r.state, state)) throw new QuestionError('question-terminal', `the question is already ${r.state}`);
    return render(this.#transition(tx, r, { ...r, state, ...(byRef !== undefined ? { supersededBy: byRef } : {}), reason, updatedAt: toIso(this.#now()) }));
  }

  /**
   * Replace `prev` by `next` (validated first) and append its state record, from the state `prev` was read in (a
   * stale read is refused by the store). A question leaving pending frees its open place and becomes the tenant's
   * newest ended question, which may retire the oldest.
   */
  #transition(tx: Tx, prev: QuestionRecord, next: QuestionRecord): QuestionRecord {
    transition(QUESTION_LIFECYCLE, prev.state, next.state);
    const dto = render(next);
    tx.add('question.transition', { tenant: next.tenant, ref: next.ref, from: prev.state, to: next.state, atMs: this.#now(), record: next, stateDto: dto, retained: this.#o.limits.maxRetainedPerTenant });
    return next;
  }

  /** The appended state records of a question, oldest first. */
  async history(tx: Tx, ref: string): Promise<readonly InquiriumOperatorQuestionState[]> {
    return (await tx.read.questionHistory({ tenant: this.tenant, ref, limit: MAX_HISTORY })).map(questionStateOf);
  }

  /** The idempotency key the question `ref` of this tenant declared (undefined for an unknown question). */
  async idempotencyKey(tx: Tx, ref: string): Promise<unknown> {
    const row = await tx.read.questionGet({ tenant: this.tenant, ref });
    return row === undefined ? undefined : requestKeyOf(questionRecordOf(row.doc));
  }

  /**
   * Time out pending questions (of every tenant) past their deadline, applying a declared default; each in its own
   * transaction, by whichever host gets there first. The refs this call timed out.
   */
  async tick(): Promise<string[]> {
    const out: string[] = [];
    for (const q of await this.#o.units((tx) => tx.read.overdueQuestions({ nowMs: this.#now(), limit: QUESTIONS_PER_TICK }))) {
      try {
        const view = this.forTenant(q.tenant);
        const r = await this.#o.units((tx) => view.#record(tx, q.ref));
        if (r.state === 'timed_out') out.push(q.ref);
      } catch (err) {
        if (!(err instanceof QuestionError)) throw err; // retired meanwhile
      }
    }
    return out;
  }

  /** The state DTO (inquirium.operator-question.state.v1). */
  async state(tx: Tx, ref: string): Promise<Json> {
    return render(await this.#record(tx, ref));
  }

  /** What the blocked operation may do now. */
  async outcome(tx: Tx, ref: string): Promise<QuestionOutcome> {
    const r = await this.#record(tx, ref);
    if (r.state === 'answered') return { state: r.state, unblocked: true, input: r.answerRaw!, source: 'operator' };
    if (r.state === 'timed_out' && r.defaultApplied !== undefined) return { state: r.state, unblocked: true, input: r.defaultApplied.answer as Answer, source: 'declared-default' };
    return { state: r.state, unblocked: false };
  }
}

/** Overdue questions one tick times out (the rest wait for the next tick). */
export const QUESTIONS_PER_TICK = 256;
/** The longest history a question can have: pending, then one terminal state (and repeated idempotent answers change nothing). */
const MAX_HISTORY = 64;

/**
 * The host-owned projection of a question into a notification (P066 mapping table). The interaction stays the
 * authoritative blocker; the timeout default is host-enforced, never rendered as an answer.
 */
export function projectToNotification(request: unknown): Json {
  const req = assertDto('inquirium.operator-question.request.v1', request);
  const response = req.response;
  const kind = String(req['widget/kind']);
  return { ...assertDto('notification-create.v1', {
    schema: 'notification-create.v1',
    'subject/ref': req['question/ref'],
    'correlation/id': req['operation/ref'],
    'body/text': req.prompt.text,
    'reason/code': req['reason/code'],
    actions: [{ kind, 'target/ref': response['target/ref'], 'input/schema': `inquirium.operator-question.widget.${kind}.v1`, 'idempotency/key': response['idempotency/key'] }],
  }) };
}
