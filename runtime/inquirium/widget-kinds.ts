/**
 * The registered operator-question kinds (P066 Decision 11, RegisteredQuestionKinds), written once: for each kind its
 * registered payload schema, the control a host renders for it, the choices it offers and the answers it accepts.
 * The host validates and answers questions through this table (operator-questions.ts), and the site's widget gallery
 * renders every kind from it, built only from the kind's typed payload — so a kind added here is enforced and shown
 * without another edit. `validateProposedQuestion` is the host's refusal function: every reason a proposed question
 * may not be shown, from its schema (an unknown kind, a free-text question without an allowlist, a raw input schema)
 * to the rules a schema cannot state (duplicate option values, a timeout default that is not an allowed answer).
 */
import { boundedDurationMs } from '../shared/duration.ts';
import { checkDto } from './dto.ts';
import { classificationAxis, type Classification } from './lattice.ts';

type Json = Record<string, unknown>;
export type Answer = string | readonly string[];

/** One choice a widget offers: the value an answer carries, the label shown, an optional one-line detail. */
export interface WidgetChoice {
  readonly value: string;
  readonly label: string;
  readonly detail?: string;
}

/** How a host renders a kind: one of several (radio), several (checkboxes), yes or no, or typed text checked against a list. */
export type WidgetControl = 'radio' | 'checkbox' | 'confirm' | 'text';

export interface WidgetKind {
  readonly kind: string;
  /** The schema id of its registered, closed payload schema. */
  readonly payloadSchema: string;
  readonly control: WidgetControl;
  /** The choices shown (for `text`: the accepted entries, which a host may list as suggestions). */
  readonly choices: (payload: Json) => readonly WidgetChoice[];
  /** How many values one answer carries. */
  readonly arity: (payload: Json) => { readonly min: number; readonly max: number };
  /** Typed text is compared after lowercasing (free text with `match: case-insensitive`). */
  readonly caseInsensitive?: (payload: Json) => boolean;
  /** Hint shown in an empty text input. */
  readonly placeholder?: (payload: Json) => string | undefined;
}

const options = (payload: Json): WidgetChoice[] =>
  (payload.options as { value: string; title: string; detail?: string }[]).map((o) => ({ value: o.value, label: o.title, ...(o.detail !== undefined ? { detail: o.detail } : {}) }));

export const WIDGET_KINDS: readonly WidgetKind[] = [
  { kind: 'single-choice', payloadSchema: 'inquirium.operator-question.widget.single-choice.v1', control: 'radio', choices: options, arity: () => ({ min: 1, max: 1 }) },
  {
    kind: 'multi-choice',
    payloadSchema: 'inquirium.operator-question.widget.multi-choice.v1',
    control: 'checkbox',
    choices: options,
    arity: (p) => ({ min: (p['min/selected'] as number | undefined) ?? 1, max: (p['max/selected'] as number | undefined) ?? (p.options as unknown[]).length }),
  },
  {
    kind: 'confirm',
    payloadSchema: 'inquirium.operator-question.widget.confirm.v1',
    control: 'confirm',
    choices: (p) => [{ value: 'confirm', label: String(p['confirm/title'] ?? 'Confirm') }, { value: 'deny', label: String(p['deny/title'] ?? 'Deny') }],
    arity: () => ({ min: 1, max: 1 }),
  },
  {
    kind: 'free-text-with-allowlist',
    payloadSchema: 'inquirium.operator-question.widget.free-text-with-allowlist.v1',
    control: 'text',
    choices: (p) => (p.allowlist as string[]).map((v) => ({ value: v, label: v })),
    arity: () => ({ min: 1, max: 1 }),
    caseInsensitive: (p) => p.match === 'case-insensitive',
    placeholder: (p) => p.placeholder as string | undefined,
  },
];

/** The registered kind of a request's `widget/kind`, if it is one. */
export const widgetKindOf = (kind: unknown, table: readonly WidgetKind[] = WIDGET_KINDS): WidgetKind | undefined => table.find((k) => k.kind === kind);

function normalise(req: Json, answer: Answer, table: readonly WidgetKind[]): string[] {
  const list = typeof answer === 'string' ? [answer] : [...answer];
  return widgetKindOf(req['widget/kind'], table)?.caseInsensitive?.(req['widget/payload'] as Json) === true ? list.map((s) => s.toLowerCase()) : list;
}

/** An answer as the host keeps it: a list of values, lowercased where the kind compares case-insensitively. */
export const normaliseAnswer = (req: Json, answer: Answer, table: readonly WidgetKind[] = WIDGET_KINDS): string[] => normalise(req, answer, table);

/** Whether a kind's answer may carry several values (a list); every other kind's answer is one string. */
export const takesList = (kind: Pick<WidgetKind, 'control'>): boolean => kind.control === 'checkbox';

/**
 * Whether an answer is allowed by the request's widget: one string (or, for a kind that takes a list, a list of
 * distinct values whose number is within the arity), every value among the choices.
 */
export function answerAllowed(req: Json, answer: Answer, table: readonly WidgetKind[] = WIDGET_KINDS): boolean {
  const kind = widgetKindOf(req['widget/kind'], table);
  if (kind === undefined) return false;
  const payload = req['widget/payload'] as Json;
  if (!takesList(kind) && typeof answer !== 'string') return false;
  const values = normalise(req, answer, table);
  if (takesList(kind)) {
    const { min, max } = kind.arity(payload);
    if (values.length < min || values.length > max || new Set(values).size !== values.length) return false;
  }
  const ci = kind.caseInsensitive?.(payload) === true;
  const allowed = new Set(kind.choices(payload).map((c) => (ci ? c.value.toLowerCase() : c.value)));
  return values.every((v) => allowed.has(v));
}

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

/** Longest a question may stay pending (30 days): it holds an operation, and a place in its tenant's open-question bound. */
export const MAX_QUESTION_TIMEOUT_MS = 30 * 86_400_000;
const TIMEOUT_BOUNDS = { minMs: 1, maxMs: MAX_QUESTION_TIMEOUT_MS } as const;

/** Shapes that look like secrets even when nobody registered them. */
const SECRET_SHAPES = [/\b(?:sk|pk|rk)-[A-Za-z0-9_-]{12,}/, /\bAKIA[0-9A-Z]{16}\b/, /-----BEGIN [A-Z ]*PRIVATE KEY-----/, /\b(?:ghp|gho|github_pat)_[A-Za-z0-9_]{20,}/, /\bpass(?:word|phrase)\s*[:=]/i];

/** Host validation before display. Returns every issue found (empty = may be shown). */
export function validateProposedQuestion(request: unknown, policy: HostQuestionPolicy, table: readonly WidgetKind[] = WIDGET_KINDS): ValidationIssue[] {
  const schemaIssues = checkDto('inquirium.operator-question.request.v1', request);
  if (schemaIssues.length > 0) return schemaIssues.map((f) => ({ code: `schema-${f.keyword}`, message: `${f.instancePath || '/'} ${f.message}` }));
  const req = request as Json;
  const issues: ValidationIssue[] = [];
  const kind = widgetKindOf(req['widget/kind'], table);
  if (kind === undefined) return [{ code: 'widget-kind-unregistered', message: `widget/kind ${JSON.stringify(req['widget/kind'])} is not a registered kind` }];
  const text = JSON.stringify([req.prompt, req['widget/payload']]);
  if ((policy.secrets ?? []).some((s) => s.length >= 8 && text.includes(s)) || SECRET_SHAPES.some((r) => r.test(text))) {
    issues.push({ code: 'secret-shaped-text', message: 'the question text or options carry secret-shaped content' });
  }
  const cls = req.classification as { input: Classification; output: Classification };
  if (!classificationAxis.atLeastAsRestrictive(policy.displayCeiling, classificationAxis.join(cls.input, cls.output))) {
    issues.push({ code: 'classification-not-displayable', message: `the question is classified above what the operator surface may show (${policy.displayCeiling})` });
  }
  const timeout = req.timeout === undefined ? undefined : boundedDurationMs(String(req.timeout), TIMEOUT_BOUNDS);
  if (timeout === undefined || ('refused' in timeout && timeout.refused !== 'too-long')) {
    issues.push({ code: 'timeout-undefined', message: 'a question needs a positive ISO-8601 timeout so it can fail closed' });
  } else if ('refused' in timeout) {
    issues.push({ code: 'timeout-too-long', message: `a question may stay pending at most ${MAX_QUESTION_TIMEOUT_MS / 86_400_000} days` });
  }
  const def = req['default/on-timeout'] as { answer: Answer } | undefined;
  if (def !== undefined && !answerAllowed(req, def.answer, table)) issues.push({ code: 'default-not-allowed', message: 'the timeout default is not one of the allowed answers' });
  if (policy.permittedOperations !== undefined && !policy.permittedOperations(String(req['operation/ref']))) {
    issues.push({ code: 'operation-not-permitted', message: 'the question would unblock an operation this workflow does not permit' });
  }
  if ((req['prompt'] as Json).kind !== req['widget/kind']) issues.push({ code: 'prompt-kind-mismatch', message: 'prompt.kind must equal widget/kind' });
  const payload = req['widget/payload'] as Json;
  const values = kind.choices(payload).map((c) => c.value);
  if (kind.control !== 'text' && new Set(values).size !== values.length) issues.push({ code: 'duplicate-option-values', message: 'option values must be unique within one widget' });
  const { min, max } = kind.arity(payload);
  if (takesList(kind) && (min > max || max > values.length)) issues.push({ code: 'multi-choice-bounds', message: 'min/selected ≤ max/selected ≤ number of options' });
  return issues;
}
