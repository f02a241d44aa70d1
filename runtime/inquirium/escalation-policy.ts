/**
 * Escalation from the activity feed (P066 Decision 11). Everything stays a feed item unless it carries one of the
 * five listed reasons AND the node mode's threshold (ModeKeyed, resolved with the escalation order, so a missing
 * mode gets the union of every configured set) includes that reason. A reason that needs a bounded operator answer
 * becomes an operator prompt; the others become notifications. Routine items (runtime selection, successful
 * generation, ordinary drops) have no reason and therefore no path out of the feed: escalation is never an
 * engagement vector.
 *
 * `raise` turns the decision into what the host actually emits: nothing (feed), an informational notice for the
 * P057 delivery layer, or — for a prompt — the validated operator question plus its `notification-create.v1`
 * projection. (notification-create.v1 in this corpus is the projection of an interaction: its subject/body ref
 * must be a question/ref. A purely informational notice has no question, so it is handed over as a `Notice`,
 * not forced into that schema.)
 */
import { WopkitError } from '../shared/errors.ts';
import { DEFAULT_ASSISTANT_CONFIG } from './config.ts';
import { resolveModeKeyed, type ModeKeyed, type Resolution } from './keyed.ts';
import { projectToNotification, type OperatorQuestions } from './operator-questions.ts';
import type { Tx } from '../storage/index.ts';
import { ESCALATION_TRIGGERS, escalationAxis, type EscalationThreshold, type EscalationTrigger } from './safety-axes.ts';

export const ESCALATION_REASONS = ESCALATION_TRIGGERS;
export type EscalationReason = EscalationTrigger;
export type EscalationLevel = 'feed' | 'notification' | 'operator-prompt';

/** Reasons that need a bounded answer before the flow can continue. */
const BLOCKING: ReadonlySet<string> = new Set(['operator-decision', 'pre-egress-confirmation']);

/** The shipped default (part of DEFAULT_ASSISTANT_CONFIG): boundary-risk stays in the feed in commons. */
export const DEFAULT_ESCALATION_THRESHOLD: ModeKeyed<EscalationThreshold> = DEFAULT_ASSISTANT_CONFIG.escalation_threshold;

export interface FeedItem {
  /** One of the five escalation reasons, or absent / anything else for a routine item. */
  readonly reason?: string;
  /** Kebab-case code describing the item (e.g. baseline-unavailable). */
  readonly code: string;
  /** What the item is about (runtime/ref, trace/ref, question/ref) — never content. */
  readonly subject: string;
  /** Correlation (operation/ref) — never content. */
  readonly correlation: string;
  /** Operator-facing text, host-authored. */
  readonly text: string;
}

/** An informational notice (no action, nothing blocked): what, about which subject, and why — never content. */
export interface Notice {
  readonly 'subject/ref': string;
  readonly 'correlation/id': string;
  readonly 'body/text': string;
  readonly 'reason/code': string;
  readonly 'escalation/reason': EscalationReason;
}

export interface EscalationDecision {
  readonly level: EscalationLevel;
  readonly resolution: Resolution<EscalationThreshold>;
}

export function escalationFor(item: { readonly reason?: string }, mode: unknown, threshold: ModeKeyed<EscalationThreshold> = DEFAULT_ESCALATION_THRESHOLD): EscalationDecision {
  const resolution = resolveModeKeyed(threshold, mode, escalationAxis);
  if (item.reason === undefined || !(resolution.value.escalate as readonly string[]).includes(item.reason)) return { level: 'feed', resolution };
  return { level: BLOCKING.has(item.reason) ? 'operator-prompt' : 'notification', resolution };
}

export type Raised =
  | { readonly level: 'feed'; readonly decision: EscalationDecision }
  | { readonly level: 'notification'; readonly decision: EscalationDecision; readonly notice: Notice }
  | { readonly level: 'operator-prompt'; readonly decision: EscalationDecision; readonly question: Record<string, unknown>; readonly notification: Record<string, unknown> };

export class EscalationError extends WopkitError<'prompt-needs-question'> {
  constructor(code: 'prompt-needs-question', message: string) {
    super(code, message);
  }
}

/**
 * Decide and emit. A prompt-level item must come with a proposed operator question; it goes through host
 * validation (`questions.propose`) before any notification is derived from it.
 */
export async function raise(
  item: FeedItem,
  mode: unknown,
  o: { readonly threshold?: ModeKeyed<EscalationThreshold>; readonly questions?: OperatorQuestions; readonly tx?: Tx; readonly proposedQuestion?: unknown } = {},
): Promise<Raised> {
  const decision = escalationFor(item, mode, o.threshold);
  if (decision.level === 'feed') return { level: 'feed', decision };
  if (decision.level === 'notification') {
    const notice: Notice = { 'subject/ref': item.subject, 'correlation/id': item.correlation, 'body/text': item.text, 'reason/code': item.code, 'escalation/reason': item.reason as EscalationReason };
    return { level: 'notification', decision, notice };
  }
  if (o.questions === undefined || o.tx === undefined || o.proposedQuestion === undefined) throw new EscalationError('prompt-needs-question', 'an operator prompt needs a proposed question for host validation (and the request\'s unit to open it in)');
  await o.questions.propose(o.tx, o.proposedQuestion);
  return { level: 'operator-prompt', decision, question: o.proposedQuestion as Record<string, unknown>, notification: projectToNotification(o.proposedQuestion) };
}

/**
 * A crisis candidate (P066 Decision 11): Inquirium never declares a crisis — it hands the host's crisis layer a
 * candidate that "needs host review". The item carries only refs; it does not change the node mode (formal crisis
 * status belongs to the host), and it escalates like any other listed reason, per the mode-keyed threshold.
 */
export function crisisCandidate(o: { readonly subject: string; readonly correlation: string }): FeedItem & { readonly reason: 'crisis-candidate' } {
  return {
    reason: 'crisis-candidate',
    code: 'crisis-candidate-needs-host-review',
    subject: o.subject,
    correlation: o.correlation,
    text: 'A possible crisis was flagged for host review. Nothing has been declared; the host crisis layer decides.',
  };
}
