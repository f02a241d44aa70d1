/**
 * Confidence-floor escalation (RFC 0039 §A, MAE-1).
 *
 * Rule: a `next-worker` or `terminate` decision whose `confidence` is below the floor is never executed directly.
 * The step first records `core.workflowChain.confidence-escalated`, then requests an interrupt (`clarify` when the
 * host offers clarification — preferred — else `escalate`, i.e. approval), and only executes the decision (or the
 * operator's amended decision) once the interrupt resolves in favour of it. Decisions at or above the floor execute
 * directly. A decision without `confidence` is not escalated: the floor is defined on a stated confidence and the
 * spec leaves the field optional (documented choice).
 *
 * Floor: 0.5 (the spec floor) unless a stricter floor is configured and advertised; a configured floor below 0.5
 * (or above 1, or not a number) is refused at construction.
 *
 * Event order in the run log: decision → confidence-escalated → interrupt requested → (resolution) → dispatch; each
 * event after the decision carries `causationId`, the id of the event that caused it (the escalation names the
 * `runOrchestrator.decided` event, the interrupt the escalation).
 */
import type { KnownRunEventType } from '../../generated/run-events/index.ts';
import { WopkitError } from '../shared/errors.ts';

export const SPEC_CONFIDENCE_FLOOR = 0.5;

/** Decision kinds the floor applies to. */
export const ESCALATED_KINDS: ReadonlySet<string> = new Set(['next-worker', 'terminate']);

/** The orchestrator decision as this step reads it (other fields pass through untouched). */
export interface OrchestratorDecisionLike {
  readonly kind: string;
  readonly confidence?: number;
  readonly [k: string]: unknown;
}

export class EscalationConfigError extends WopkitError<'confidence_floor_invalid'> {
  constructor(message: string) {
    super('confidence_floor_invalid', message);
  }
}

export class InvalidDecisionError extends WopkitError<'orchestrator_decision_invalid'> {
  constructor(message: string) {
    super('orchestrator_decision_invalid', message);
  }
}

/** Validate a configured floor: absent → 0.5; must satisfy 0.5 <= floor <= 1. */
export function resolveConfidenceFloor(configured?: number): number {
  if (configured === undefined) return SPEC_CONFIDENCE_FLOOR;
  if (typeof configured !== 'number' || Number.isNaN(configured) || configured < SPEC_CONFIDENCE_FLOOR || configured > 1) {
    throw new EscalationConfigError(
      `confidenceEscalationFloor must satisfy 0.5 <= floor <= 1 (a floor below the spec floor is non-conformant), got ${String(configured)}`,
    );
  }
  return configured;
}

export type EscalationKind = 'clarify' | 'escalate';

export type EscalationDecision =
  | { readonly action: 'dispatch'; readonly reason: 'at-or-above-floor' | 'no-confidence' | 'kind-not-gated' }
  | { readonly action: 'escalate'; readonly confidence: number; readonly floor: number; readonly escalationKind: EscalationKind };

export interface EscalationPolicy {
  readonly floor: number;
  readonly escalationKind: EscalationKind;
}

export function makeEscalationPolicy(o: { floor?: number; clarifySupported?: boolean } = {}): EscalationPolicy {
  return { floor: resolveConfidenceFloor(o.floor), escalationKind: o.clarifySupported === false ? 'escalate' : 'clarify' };
}

/** Pure decision: escalate or dispatch. */
export function evaluateDecision(decision: OrchestratorDecisionLike, policy: EscalationPolicy): EscalationDecision {
  if (!ESCALATED_KINDS.has(decision.kind)) return { action: 'dispatch', reason: 'kind-not-gated' };
  const c = decision.confidence;
  if (c === undefined) return { action: 'dispatch', reason: 'no-confidence' };
  if (typeof c !== 'number' || Number.isNaN(c) || c < 0 || c > 1) {
    throw new InvalidDecisionError(`confidence must be a number in [0, 1], got ${String(c)}`);
  }
  if (c >= policy.floor) return { action: 'dispatch', reason: 'at-or-above-floor' };
  return { action: 'escalate', confidence: c, floor: policy.floor, escalationKind: policy.escalationKind };
}

/** Event types this step records (names from run-event-payloads; kept in one place). */
export const ESCALATION_EVENT_TYPES = {
  decided: 'runOrchestrator.decided',
  escalated: 'core.workflowChain.confidence-escalated',
  interruptRequested: 'interrupt.requested',
  interruptResolved: 'interrupt.resolved',
  dispatched: 'worker.dispatched',
} as const satisfies Record<string, KnownRunEventType>;

/** How the operator resolved the interrupt (and, when their answer said, when they decided). */
export type InterruptResolution = (
  | { readonly outcome: 'approved' }
  | { readonly outcome: 'amended'; readonly decision: OrchestratorDecisionLike }
  | { readonly outcome: 'rejected' }
) & { readonly decidedAt?: string };

/** A step suspended on its interrupt, as the run's log shows it: what is needed to carry it on once answered. */
export interface OpenInterrupt {
  readonly interruptId: string;
  /** The `interrupt.requested` event (the cause of the answer's event). */
  readonly requestedEventId: string;
  /** The escalated decision (carried out on approval). */
  readonly decision: OrchestratorDecisionLike;
}

/** The run has no open interrupt of that id (and never had one that was answered): 404 interrupt_not_found. */
export class InterruptNotFoundError extends WopkitError<'interrupt_not_found'> {
  constructor() {
    super('interrupt_not_found', 'no such interrupt', { error: 'interrupt_not_found', message: 'the run has no open interrupt of that id' });
  }
}

/** The interrupt was answered already (one answer wins; the others are refused): 409 interrupt_already_resolved. */
export class InterruptAlreadyResolvedError extends WopkitError<'interrupt_already_resolved'> {
  constructor() {
    super('interrupt_already_resolved', 'interrupt already resolved', { error: 'interrupt_already_resolved', message: 'the interrupt was answered already' });
  }
}

export interface OrchestratorStepPorts {
  /**
   * Append an event to the run's log (validated by the log before it is appended), caused by the event `causationId`
   * names when given; answers the appended event's id (a log that assigns none answers nothing).
   */
  readonly record: (type: string, payload: Record<string, unknown>, causationId?: string) => Promise<string | void> | string | void;
  /** Raise an interrupt and wait for its resolution. */
  readonly interrupt: (req: { readonly interruptId: string; readonly kind: EscalationKind }) => Promise<InterruptResolution>;
  /** Execute (dispatch the next worker, or terminate). Called at most once per step. */
  readonly execute: (decision: OrchestratorDecisionLike) => Promise<void> | void;
  /** Payload builders for the surrounding events, so the exact wire shapes stay with the event log owner. */
  readonly payloads: {
    readonly decided: (d: OrchestratorDecisionLike) => Record<string, unknown>;
    readonly interruptRequested: (interruptId: string, kind: EscalationKind) => Record<string, unknown>;
    readonly interruptResolved: (interruptId: string, r: InterruptResolution) => Record<string, unknown>;
    readonly dispatched: (d: OrchestratorDecisionLike) => Record<string, unknown>;
  };
  readonly newInterruptId: () => string;
}

/** The wire payloads of the surrounding events as run-event-payloads.schema.json defines them. */
export const SPEC_STEP_PAYLOADS: OrchestratorStepPorts['payloads'] = {
  decided: (d) => ({ decision: { ...d } }),
  interruptRequested: (interruptId, kind) => ({ interruptId, kind: kind === 'clarify' ? 'clarify' : 'approval', reasonCode: 'confidence-below-floor' }),
  interruptResolved: (interruptId, r) => ({ interruptId, outcome: r.outcome, ...(r.outcome === 'amended' ? { decision: { ...r.decision } } : {}), ...(r.decidedAt !== undefined ? { decidedAt: r.decidedAt } : {}) }),
  dispatched: (d) => ({ decisionKind: d.kind, ...(d.worker !== undefined ? { worker: d.worker } : {}) }),
};

export interface OrchestratorStepResult {
  readonly escalated: boolean;
  readonly executed: OrchestratorDecisionLike | undefined;
}

/**
 * One orchestrator step: record the decision, escalate when below the floor (event first, then the interrupt),
 * execute only after a favourable resolution. Never executes a below-floor decision without the escalation
 * event already in the log.
 */
export async function orchestratorStep(
  decision: OrchestratorDecisionLike,
  policy: EscalationPolicy,
  ports: OrchestratorStepPorts,
): Promise<OrchestratorStepResult> {
  const verdict = evaluateDecision(decision, policy);
  const decided = (await ports.record(ESCALATION_EVENT_TYPES.decided, ports.payloads.decided(decision))) ?? undefined;
  if (verdict.action === 'dispatch') {
    await ports.record(ESCALATION_EVENT_TYPES.dispatched, ports.payloads.dispatched(decision), decided);
    await ports.execute(decision);
    return { escalated: false, executed: decision };
  }
  // The causal chain decision → escalation → interrupt: each event names the one that caused it.
  const escalated = (await ports.record(ESCALATION_EVENT_TYPES.escalated, {
    confidence: verdict.confidence,
    floor: verdict.floor,
    escalationKind: verdict.escalationKind,
    originalDecision: { ...decision },
  }, decided)) ?? undefined;
  const interruptId = ports.newInterruptId();
  const requested = (await ports.record(ESCALATION_EVENT_TYPES.interruptRequested, ports.payloads.interruptRequested(interruptId, verdict.escalationKind), escalated)) ?? undefined;
  const resolution = await ports.interrupt({ interruptId, kind: verdict.escalationKind });
  return continueAfterInterrupt({ interruptId, requestedEventId: requested ?? '', decision }, resolution, ports);
}

/**
 * The rest of a step once its interrupt is answered — in the same call, or later from the run's log (a suspended
 * step holds no state in memory): record the answer (caused by the request), then carry out the escalated decision
 * on approval, the amended one on amendment (not checked against the floor again: the person's answer is the
 * decision), nothing on rejection. The answer's event is recorded before this function first yields, so a caller
 * that checked the interrupt was still open in the same synchronous stretch answers it exactly once.
 */
export async function continueAfterInterrupt(open: OpenInterrupt, resolution: InterruptResolution, ports: Pick<OrchestratorStepPorts, 'record' | 'execute' | 'payloads'>): Promise<OrchestratorStepResult> {
  const cause = open.requestedEventId === '' ? undefined : open.requestedEventId;
  await ports.record(ESCALATION_EVENT_TYPES.interruptResolved, ports.payloads.interruptResolved(open.interruptId, resolution), cause);
  if (resolution.outcome === 'rejected') return { escalated: true, executed: undefined };
  const chosen = resolution.outcome === 'amended' ? resolution.decision : open.decision;
  await ports.record(ESCALATION_EVENT_TYPES.dispatched, ports.payloads.dispatched(chosen), cause);
  await ports.execute(chosen);
  return { escalated: true, executed: chosen };
}

/** An event as the log holds it (the fields the reader below needs). */
interface LoggedEvent {
  readonly eventId: string;
  readonly type: string;
  readonly causationId?: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/**
 * The interrupt `interruptId` of a run, read back from its log: open (what continuing it needs), `resolved` (it was
 * answered), or undefined (the log never requested it). The escalated decision is the `originalDecision` of the
 * escalation event the request names as its cause (or, when the request names none, the last escalation before it).
 */
export function interruptInLog(events: readonly LoggedEvent[], interruptId: string): OpenInterrupt | 'resolved' | undefined {
  const at = events.findIndex((e) => e.type === ESCALATION_EVENT_TYPES.interruptRequested && e.payload['interruptId'] === interruptId);
  if (at < 0) return undefined;
  if (events.some((e) => e.type === ESCALATION_EVENT_TYPES.interruptResolved && e.payload['interruptId'] === interruptId)) return 'resolved';
  const requested = events[at]!;
  const escalation = events.find((e) => e.eventId === requested.causationId && e.type === ESCALATION_EVENT_TYPES.escalated)
    ?? events.slice(0, at).reverse().find((e) => e.type === ESCALATION_EVENT_TYPES.escalated);
  const decision = escalation?.payload['originalDecision'];
  if (typeof decision !== 'object' || decision === null) return undefined;
  return { interruptId, requestedEventId: requested.eventId, decision: decision as OrchestratorDecisionLike };
}
