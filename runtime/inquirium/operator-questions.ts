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
import { TenantBound } from '../shared/quota.ts';
import { TimerHeap } from '../shared/timer-heap.ts';
import { toIso } from '../shared/clock.ts';
import { durationMs } from '../shared/duration.ts';
import { assertDto } from './dto.ts';
import { answerAllowed, normaliseAnswer, validateProposedQuestion, type Answer, type HostQuestionPolicy, type ValidationIssue } from './widget-kinds.ts';
import { canTransition, transition } from '../shared/state-machine.ts';
import { QUESTION_LIFECYCLE, type QuestionState } from './question-lifecycle.ts';

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
interface QuestionRecord {
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
  /** The deadline timer of a pending question. */
  readonly timer?: number;
}

export interface QuestionOutcome {
  readonly state: QuestionState;
  /** Whether the blocked operation may proceed. */
  readonly unblocked: boolean;
  /** The input the operation proceeds with (operator answer, or the declared safe default on timeout). */
  readonly input?: Answer;
  readonly source?: 'operator' | 'declared-default';
}

/**
 * What the questions tell a durable store (absent: in memory only): every transition (the record as kept, without
 * its timer, and the state DTO appended to its history) and every ended question retired past the bound.
 */
export interface QuestionPersistence {
  transitioned(tenant: string, ref: string, record: Readonly<Record<string, unknown>>, stateDto: Json): void;
  forgotten(tenant: string, ref: string): void;
}

/** A stored question, as `restore` takes it back. */
export interface StoredQuestion {
  readonly tenant: string;
  readonly ref: string;
  readonly record: Readonly<Record<string, unknown>>;
  readonly history: readonly Json[];
}

/** The state every tenant's view shares: questions, their appended state records, deadlines and bounds. */
class QuestionBook {
  persistence: QuestionPersistence | undefined;
  readonly questions = new Map<string, QuestionRecord>();
  /** Every transition as a state record, appended (question-state-append-only). */
  readonly history = new Map<string, Json[]>();
  /** Deadlines of pending questions, by key; a pending question is timed out when its deadline pops. */
  readonly deadlines = new TimerHeap<string>();
  readonly open: TenantBound<string>;
  readonly ended: TenantBound<string>;
  constructor(limits: QuestionLimits) {
    this.open = new TenantBound('open-operator-questions', limits.maxOpenPerTenant, 'refuse');
    this.ended = new TenantBound('ended-operator-questions', limits.maxRetainedPerTenant, 'evict-oldest');
  }
}

/** Question refs are per tenant: the same ref in two tenants names two questions. */
const keyOf = (tenant: string, ref: string): string => `${tenant}\u0000${ref}`;

/** The state DTO (inquirium.operator-question.state.v1) of a record; throws, changing nothing, if it would be invalid. */
function render(r: QuestionRecord): Json {
  return assertDto('inquirium.operator-question.state.v1', {
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
  });
}

/**
 * The operator questions of one tenant. `forTenant` gives another tenant's view of the same book; a tenant sees,
 * answers and cancels only its own questions (another tenant's ref is unknown to it — CTI-1). The view a
 * constructor returns is the LOCAL_TENANT one. Bounds (`QuestionLimits`) apply per tenant.
 *
 * Every transition builds the next record, renders and validates its state DTO, and only then replaces the old
 * record: a transition that would produce an invalid record throws and leaves everything as it was.
 */
export class OperatorQuestions {
  readonly #book: QuestionBook;
  readonly #views: Map<string, OperatorQuestions>;
  readonly tenant: string;

  constructor(
    private readonly clock: Clock,
    private readonly policy: HostQuestionPolicy,
    private readonly limits: QuestionLimits = DEFAULT_QUESTION_LIMITS,
    /** @internal another tenant's view of an existing book (see forTenant). */
    shared?: { readonly tenant: string; readonly book: QuestionBook; readonly views: Map<string, OperatorQuestions> },
  ) {
    this.tenant = shared?.tenant ?? LOCAL_TENANT;
    this.#book = shared?.book ?? new QuestionBook(limits);
    this.#views = shared?.views ?? new Map([[this.tenant, this]]);
  }

  /** The view of `tenant`'s questions over the same book. */
  forTenant(tenant: string): OperatorQuestions {
    let v = this.#views.get(tenant);
    if (v === undefined) this.#views.set(tenant, (v = new OperatorQuestions(this.clock, this.policy, this.limits, { tenant, book: this.#book, views: this.#views })));
    return v;
  }

  /** Validate a proposed question and open it (pending), within the tenant's open-question bound. */
  propose(request: unknown): Json {
    const issues = validateProposedQuestion(request, this.policy);
    if (issues.length > 0) throw new QuestionError('question-invalid', 'the proposed question was rejected by host validation', issues);
    const req = request as Json;
    const ref = String(req['question/ref']);
    this.tick(); // questions past their deadline no longer count as open
    if (this.#book.questions.has(keyOf(this.tenant, ref))) throw new QuestionError('question-exists', 'a question with this ref exists');
    this.#book.open.check(this.tenant);
    const now = this.clock.now();
    return this.#commit(undefined, { tenant: this.tenant, ref, request: structuredClone(req), state: QUESTION_LIFECYCLE.initial, updatedAt: toIso(now), deadline: now + durationMs(String(req.timeout))! });
  }

  #get(ref: string): QuestionRecord {
    const r = this.#book.questions.get(keyOf(this.tenant, ref));
    if (r === undefined) throw new QuestionError('question-unknown', 'no such question');
    return r;
  }

  /**
   * Record an operator answer (idempotent per idempotency key). `answered/by`, when sent, must be a participant id
   * of at most MAX_ACTOR_ID_LENGTH characters and, when the caller is known (`by`), that caller; the answerer
   * (`answered/by`, else the caller) is recorded on the answered state.
   */
  answer(answerDto: unknown, by: Answerer = {}): Json {
    const a = assertDto<{ 'question/ref': string; 'idempotency/key': string; answer: Answer; 'answered/by'?: string }>('inquirium.operator-question.answer.v1', answerDto);
    const claimed = a['answered/by'];
    if (claimed !== undefined && (claimed.length === 0 || claimed.length > MAX_ACTOR_ID_LENGTH)) throw new QuestionError('answerer-invalid', 'answered/by is not a valid participant id');
    if (claimed !== undefined && by.participant !== undefined && claimed !== by.participant) throw new QuestionError('answerer-mismatch', 'answered/by names someone other than the caller');
    this.tick();
    const r = this.#get(a['question/ref']);
    const key = (r.request.response as Json)['idempotency/key'];
    if (a['idempotency/key'] !== key) throw new QuestionError('idempotency-key-mismatch', 'the idempotency key does not match the question');
    if (r.state === 'answered' && JSON.stringify(normaliseAnswer(r.request, a.answer)) === JSON.stringify(r.answer)) return render(r);
    if (!canTransition(QUESTION_LIFECYCLE, r.state, 'answered')) throw new QuestionError('question-terminal', `the question is already ${r.state}`);
    if (!answerAllowed(r.request, a.answer)) throw new QuestionError('answer-not-allowed', 'the answer is not one of the allowed answers');
    const answeredBy = claimed ?? by.participant;
    const { timer: _pending, ...rest } = r;
    return this.#commit(r, { ...rest, state: 'answered', answer: normaliseAnswer(r.request, a.answer), answerRaw: a.answer, ...(answeredBy !== undefined ? { answeredBy } : {}), updatedAt: toIso(this.clock.now()) });
  }

  cancel(ref: string, reason = 'operation-cancelled'): Json {
    return this.#end(ref, 'cancelled', reason);
  }
  supersede(ref: string, byRef: string): Json {
    return this.#end(ref, 'superseded', 'superseded-by-newer-question', byRef);
  }
  #end(ref: string, state: 'cancelled' | 'superseded', reason: string, byRef?: string): Json {
    this.tick();
    const r = this.#get(ref);
    if (!canTransition(QUESTION_LIFECYCLE, r.state, state)) throw new QuestionError('question-terminal', `the question is already ${r.state}`);
    const { timer: _pending, ...rest } = r;
    return this.#commit(r, { ...rest, state, ...(byRef !== undefined ? { supersededBy: byRef } : {}), reason, updatedAt: toIso(this.clock.now()) });
  }

  /**
   * Replace `prev` by `next` (validated first), append its state record, and keep the bounds: a question leaving
   * pending frees its open place and becomes the tenant's newest ended question, which may retire the oldest.
   * `timerPopped`: the deadline timer already fired (a timeout), so there is nothing to cancel.
   */
  #commit(prev: QuestionRecord | undefined, next: QuestionRecord, timerPopped = false): Json {
    if (prev !== undefined) transition(QUESTION_LIFECYCLE, prev.state, next.state);
    const dto = render(next);
    const book = this.#book;
    const key = keyOf(next.tenant, next.ref);
    if (prev === undefined) {
      book.open.add(next.tenant, next.ref);
      next = { ...next, timer: book.deadlines.schedule(next.deadline, key) };
    } else if (prev.state === 'pending' && next.state !== 'pending') {
      if (!timerPopped && prev.timer !== undefined) book.deadlines.cancel(prev.timer);
      book.open.delete(next.tenant, next.ref);
      for (const old of book.ended.add(next.tenant, next.ref)) {
        book.questions.delete(keyOf(next.tenant, old));
        book.history.delete(keyOf(next.tenant, old));
        book.persistence?.forgotten(next.tenant, old);
      }
    }
    book.questions.set(key, next);
    const h = book.history.get(key) ?? [];
    h.push(dto);
    book.history.set(key, h);
    if (book.persistence !== undefined) {
      const { timer: _handle, ...kept } = next;
      book.persistence.transitioned(next.tenant, next.ref, kept, dto);
    }
    return dto;
  }

  /** Write every later transition (of every tenant) through `persistence`. */
  persistTo(persistence: QuestionPersistence): void {
    this.#book.persistence = persistence;
  }

  /**
   * Put back questions loaded from a durable store at start (every tenant; no write-back): pending ones keep their
   * deadline and open place, ended ones their retained place.
   */
  restore(questions: Iterable<StoredQuestion>): void {
    const book = this.#book;
    for (const q of questions) {
      const key = keyOf(q.tenant, q.ref);
      let r = q.record as unknown as QuestionRecord;
      if (r.state === 'pending') {
        book.open.add(q.tenant, q.ref);
        r = { ...r, timer: book.deadlines.schedule(r.deadline, key) };
      } else book.ended.add(q.tenant, q.ref);
      book.questions.set(key, r);
      book.history.set(key, [...q.history]);
    }
  }

  /** The appended state records of a question, oldest first. */
  history(ref: string): readonly Json[] {
    return [...(this.#book.history.get(keyOf(this.tenant, ref)) ?? [])];
  }

  /**
   * Time out every pending question (of every tenant) past its deadline, applying a declared default. Returns the
   * refs timed out. Costs O(questions due · log pending), not O(every question kept).
   */
  tick(): string[] {
    const now = this.clock.now();
    const out: string[] = [];
    for (const key of this.#book.deadlines.popDue(now)) {
      const r = this.#book.questions.get(key);
      if (r === undefined || r.state !== 'pending') continue;
      const def = r.request['default/on-timeout'] as Json | undefined;
      const { timer: _popped, ...rest } = r;
      this.#commit(r, { ...rest, state: 'timed_out', reason: 'timeout', updatedAt: toIso(now), ...(def !== undefined ? { defaultApplied: def } : {}) }, true);
      out.push(r.ref);
    }
    return out;
  }

  /** The state DTO (inquirium.operator-question.state.v1). */
  state(ref: string): Json {
    return render(this.#get(ref));
  }

  /** What the blocked operation may do now. */
  outcome(ref: string): QuestionOutcome {
    this.tick();
    const r = this.#get(ref);
    if (r.state === 'answered') return { state: r.state, unblocked: true, input: r.answerRaw!, source: 'operator' };
    if (r.state === 'timed_out' && r.defaultApplied !== undefined) return { state: r.state, unblocked: true, input: r.defaultApplied.answer as Answer, source: 'declared-default' };
    return { state: r.state, unblocked: false };
  }
}

/**
 * The host-owned projection of a question into a notification (P066 mapping table). The interaction stays the
 * authoritative blocker; the timeout default is host-enforced, never rendered as an answer.
 */
export function projectToNotification(request: unknown): Json {
  const req = assertDto<Json>('inquirium.operator-question.request.v1', request);
  const response = req.response as Json;
  const kind = String(req['widget/kind']);
  return assertDto('notification-create.v1', {
    schema: 'notification-create.v1',
    'subject/ref': req['question/ref'],
    'correlation/id': req['operation/ref'],
    'body/text': (req.prompt as Json).text,
    'reason/code': req['reason/code'],
    actions: [{ kind, 'target/ref': response['target/ref'], 'input/schema': `inquirium.operator-question.widget.${kind}.v1`, 'idempotency/key': response['idempotency/key'] }],
  });
}
