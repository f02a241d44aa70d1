/**
 * Operator questions (P066 Decision 11). The model may PROPOSE a question; the host validates and shapes it before
 * anyone sees it, owns the widget, and runs the lifecycle:
 *
 *   pending → answered | timed_out | cancelled | superseded      (terminal states never change)
 *
 * Only `answered` unblocks the operation with operator input. timed_out / cancelled / superseded fail closed,
 * unless the request declared a safe `default/on-timeout` (applied on timeout only). Answers are idempotent by the
 * request's idempotency key: the same key and answer again returns the same state; a different answer, or another
 * key, is refused.
 */
import type { Clock } from '../shared/clock.ts';
import { validationFailures, WopkitError, type WireAnswer } from '../shared/errors.ts';
import { toIso } from '../shared/clock.ts';
import { durationMs } from '../shared/duration.ts';
import { assertDto, checkDto } from './dto.ts';
import { classificationAxis, type Classification } from './lattice.ts';

export type QuestionState = 'pending' | 'answered' | 'timed_out' | 'cancelled' | 'superseded';
export const TERMINAL: ReadonlySet<QuestionState> = new Set(['answered', 'timed_out', 'cancelled', 'superseded']);

type Json = Record<string, unknown>;
export type Answer = string | readonly string[];

export interface ValidationIssue {
  readonly code: string;
  readonly message: string;
}

export interface HostQuestionPolicy {
  /** Operations a question may unblock in this workflow (operation/ref values). */
  readonly permittedOperations?: (operationRef: string) => boolean;
  /** Highest classification the operator surface may display. */
  readonly displayCeiling: Classification;
  /** Registered secret values (SR-1 registry) — a question must not contain any. */
  readonly secrets?: readonly string[];
}

/** Shapes that look like secrets even when nobody registered them. */
const SECRET_SHAPES = [/\b(?:sk|pk|rk)-[A-Za-z0-9_-]{12,}/, /\bAKIA[0-9A-Z]{16}\b/, /-----BEGIN [A-Z ]*PRIVATE KEY-----/, /\b(?:ghp|gho|github_pat)_[A-Za-z0-9_]{20,}/, /\bpass(?:word|phrase)\s*[:=]/i];

function allowedAnswers(req: Json): Set<string> | 'free-text' {
  const payload = req['widget/payload'] as Json;
  switch (req['widget/kind']) {
    case 'single-choice':
    case 'multi-choice':
      return new Set((payload.options as { value: string }[]).map((o) => o.value));
    case 'confirm':
      return new Set(['confirm', 'deny']);
    case 'free-text-with-allowlist':
      return new Set((payload.allowlist as string[]).map((s) => (payload.match === 'case-insensitive' ? s.toLowerCase() : s)));
    default:
      return new Set();
  }
}

function normaliseAnswer(req: Json, answer: Answer): string[] {
  const payload = req['widget/payload'] as Json;
  const list = typeof answer === 'string' ? [answer] : [...answer];
  return req['widget/kind'] === 'free-text-with-allowlist' && payload.match === 'case-insensitive' ? list.map((s) => s.toLowerCase()) : list;
}

/** Whether an answer is allowed by the request's widget (allow-list, arity). */
export function answerAllowed(req: Json, answer: Answer): boolean {
  const allowed = allowedAnswers(req) as Set<string>;
  const values = normaliseAnswer(req, answer);
  const kind = req['widget/kind'];
  if (kind !== 'multi-choice' && (typeof answer !== 'string')) return false;
  if (kind === 'multi-choice') {
    const p = req['widget/payload'] as { 'min/selected'?: number; 'max/selected'?: number };
    if (values.length < (p['min/selected'] ?? 1) || values.length > (p['max/selected'] ?? values.length)) return false;
    if (new Set(values).size !== values.length) return false;
  }
  return values.every((v) => allowed.has(v));
}

/** Host validation before display. Returns every issue found (empty = may be shown). */
export function validateProposedQuestion(request: unknown, policy: HostQuestionPolicy): ValidationIssue[] {
  const schemaIssues = checkDto('inquirium.operator-question.request.v1', request);
  if (schemaIssues.length > 0) return schemaIssues.map((f) => ({ code: `schema-${f.keyword}`, message: `${f.instancePath || '/'} ${f.message}` }));
  const req = request as Json;
  const issues: ValidationIssue[] = [];
  const text = JSON.stringify([req.prompt, req['widget/payload']]);
  if ((policy.secrets ?? []).some((s) => s.length >= 8 && text.includes(s)) || SECRET_SHAPES.some((r) => r.test(text))) {
    issues.push({ code: 'secret-shaped-text', message: 'the question text or options carry secret-shaped content' });
  }
  const cls = req.classification as { input: Classification; output: Classification };
  if (!classificationAxis.atLeastAsRestrictive(policy.displayCeiling, classificationAxis.join(cls.input, cls.output))) {
    issues.push({ code: 'classification-not-displayable', message: `the question is classified above what the operator surface may show (${policy.displayCeiling})` });
  }
  if (req.timeout === undefined || durationMs(String(req.timeout)) === null || durationMs(String(req.timeout))! <= 0) {
    issues.push({ code: 'timeout-undefined', message: 'a question needs a positive ISO-8601 timeout so it can fail closed' });
  }
  const def = req['default/on-timeout'] as { answer: Answer } | undefined;
  if (def !== undefined && !answerAllowed(req, def.answer)) issues.push({ code: 'default-not-allowed', message: 'the timeout default is not one of the allowed answers' });
  if (policy.permittedOperations !== undefined && !policy.permittedOperations(String(req['operation/ref']))) {
    issues.push({ code: 'operation-not-permitted', message: 'the question would unblock an operation this workflow does not permit' });
  }
  if ((req['prompt'] as Json).kind !== req['widget/kind']) issues.push({ code: 'prompt-kind-mismatch', message: 'prompt.kind must equal widget/kind' });
  if (req['widget/kind'] === 'single-choice' || req['widget/kind'] === 'multi-choice') {
    const values = ((req['widget/payload'] as Json).options as { value: string }[]).map((o) => o.value);
    if (new Set(values).size !== values.length) issues.push({ code: 'duplicate-option-values', message: 'option values must be unique within one widget' });
  }
  if (req['widget/kind'] === 'multi-choice') {
    const p = req['widget/payload'] as { options: unknown[]; 'min/selected'?: number; 'max/selected'?: number };
    const min = p['min/selected'] ?? 1;
    const max = p['max/selected'] ?? p.options.length;
    if (min > max || max > p.options.length) issues.push({ code: 'multi-choice-bounds', message: 'min/selected ≤ max/selected ≤ number of options' });
  }
  return issues;
}

export type QuestionErrorCode = 'question-invalid' | 'question-unknown' | 'question-terminal' | 'answer-not-allowed' | 'idempotency-key-mismatch' | 'question-exists';

/** Invalid with issues → 400 validation_failed listing them; unknown → 404; any other refusal → 409. */
function questionWire(code: QuestionErrorCode, issues: readonly ValidationIssue[]): WireAnswer {
  if (code === 'question-invalid' && issues.length > 0) {
    const failures = validationFailures(issues.map((i) => ({ instancePath: '', message: `${i.code}: ${i.message}` })));
    return { error: 'validation_failed', message: 'the proposed question was rejected by host validation', details: { failures } };
  }
  return { error: code === 'question-unknown' ? 'not_found' : 'conflict', message: `question refused: ${code}` };
}

export class QuestionError extends WopkitError<QuestionErrorCode> {
  constructor(code: QuestionErrorCode, message: string, readonly issues: readonly ValidationIssue[] = []) {
    super(code, message, questionWire(code, issues));
  }
}

interface Record_ {
  readonly request: Json;
  state: QuestionState;
  answer?: string[];
  answerRaw?: Answer;
  defaultApplied?: Json;
  supersededBy?: string;
  reason?: string;
  updatedAt: string;
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

export class OperatorQuestions {
  readonly #q = new Map<string, Record_>();
  /** Every transition as a state record, appended (question-state-append-only). */
  readonly #history = new Map<string, Json[]>();
  constructor(private readonly clock: Clock, private readonly policy: HostQuestionPolicy) {}

  /** Validate a proposed question and open it (pending). */
  propose(request: unknown): Json {
    const issues = validateProposedQuestion(request, this.policy);
    if (issues.length > 0) throw new QuestionError('question-invalid', 'the proposed question was rejected by host validation', issues);
    const req = request as Json;
    const ref = String(req['question/ref']);
    if (this.#q.has(ref)) throw new QuestionError('question-exists', 'a question with this ref exists');
    const now = this.clock.now();
    this.#q.set(ref, { request: structuredClone(req), state: 'pending', updatedAt: toIso(now), deadline: now + durationMs(String(req.timeout))! });
    return this.#record(ref);
  }

  #get(ref: string): Record_ {
    const r = this.#q.get(ref);
    if (r === undefined) throw new QuestionError('question-unknown', 'no such question');
    return r;
  }

  /** Record an operator answer (idempotent per idempotency key). */
  answer(answerDto: unknown): Json {
    const a = assertDto<{ 'question/ref': string; 'idempotency/key': string; answer: Answer }>('inquirium.operator-question.answer.v1', answerDto);
    this.tick();
    const r = this.#get(a['question/ref']);
    const key = (r.request.response as Json)['idempotency/key'];
    if (a['idempotency/key'] !== key) throw new QuestionError('idempotency-key-mismatch', 'the idempotency key does not match the question');
    if (r.state === 'answered' && JSON.stringify(normaliseAnswer(r.request, a.answer)) === JSON.stringify(r.answer)) return this.state(a['question/ref']);
    if (TERMINAL.has(r.state)) throw new QuestionError('question-terminal', `the question is already ${r.state}`);
    if (!answerAllowed(r.request, a.answer)) throw new QuestionError('answer-not-allowed', 'the answer is not one of the allowed answers');
    r.state = 'answered';
    r.answer = normaliseAnswer(r.request, a.answer);
    r.answerRaw = a.answer;
    r.updatedAt = toIso(this.clock.now());
    return this.#record(a['question/ref']);
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
    if (TERMINAL.has(r.state)) throw new QuestionError('question-terminal', `the question is already ${r.state}`);
    r.state = state;
    if (byRef !== undefined) r.supersededBy = byRef;
    r.reason = reason;
    r.updatedAt = toIso(this.clock.now());
    return this.#record(ref);
  }

  #record(ref: string): Json {
    const s = this.state(ref);
    const h = this.#history.get(ref) ?? [];
    h.push(s);
    this.#history.set(ref, h);
    return s;
  }

  /** The appended state records of a question, oldest first. */
  history(ref: string): readonly Json[] {
    return [...(this.#history.get(ref) ?? [])];
  }

  /** Time out every pending question past its deadline (applying a declared default). Returns refs timed out. */
  tick(): string[] {
    const now = this.clock.now();
    const out: string[] = [];
    for (const [ref, r] of this.#q) {
      if (r.state !== 'pending' || now < r.deadline) continue;
      r.state = 'timed_out';
      r.reason = 'timeout';
      r.updatedAt = toIso(now);
      const def = r.request['default/on-timeout'] as Json | undefined;
      if (def !== undefined) r.defaultApplied = def;
      this.#record(ref);
      out.push(ref);
    }
    return out;
  }

  /** The state DTO (inquirium.operator-question.state.v1). */
  state(ref: string): Json {
    const r = this.#get(ref);
    return assertDto('inquirium.operator-question.state.v1', {
      schema: 'inquirium.operator-question.state.v1',
      'question/ref': ref,
      'operation/ref': r.request['operation/ref'],
      state: r.state,
      ...(r.state === 'answered' ? { answer: r.answerRaw } : {}),
      ...(r.defaultApplied !== undefined ? { 'default/applied': r.defaultApplied } : {}),
      ...(r.supersededBy !== undefined ? { 'superseded/by': r.supersededBy } : {}),
      ...(r.reason !== undefined && r.state !== 'answered' ? { 'reason/code': r.reason } : {}),
      'updated/at': r.updatedAt,
    });
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
