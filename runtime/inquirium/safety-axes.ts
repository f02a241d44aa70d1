/**
 * Restrictiveness orders of the safety-sensitive settings in inquirium.assistant-config.v1 — one table, used by
 * the monotonicity checks. compare(a, b) > 0 means a is more restrictive.
 */
import { durationMs } from '../shared/duration.ts';
import type { SafetyAxis } from './keyed.ts';
import type { InquiriumEgress, InquiriumEscalationThreshold, InquiriumEscalationTrigger, InquiriumRetentionProfile, InquiriumVerificationRigor } from '../../generated/ts/inquirium.assistant-config.v1.ts';
import type { InquiriumTraceLevel } from '../../generated/ts/inquirium.assistant-turn-trace.v1.ts';

const byList = <T extends string>(name: string, leastToMost: readonly T[]): SafetyAxis<T> => ({
  name,
  compare: (a, b) => leastToMost.indexOf(a) - leastToMost.indexOf(b),
});

export type Egress = InquiriumEgress;
export type TraceLevel = InquiriumTraceLevel;
export type VerificationRigor = InquiriumVerificationRigor;
export type RetentionProfile = Readonly<InquiriumRetentionProfile>;
export type EscalationTrigger = InquiriumEscalationTrigger;
export type EscalationThreshold = { readonly escalate: readonly InquiriumEscalationThreshold['escalate'][number][] };
/** The five reasons P066 Decision 11 lists, in a fixed order. */
export const ESCALATION_TRIGGERS: readonly EscalationTrigger[] = ['operator-decision', 'sustained-degradation', 'boundary-risk', 'pre-egress-confirmation', 'crisis-candidate'];

/** Denying egress is stricter than allowing it to accepting remotes (least → most restrictive). */
export const EGRESS_ORDER: readonly Egress[] = ['allow_accepting_remote', 'deny'];
/** Keeping less in the trace is stricter (least → most restrictive). */
export const TRACE_LEVEL_ORDER: readonly TraceLevel[] = ['decision_detail', 'metadata_only'];
/** More verification is stricter (least → most restrictive). */
export const RIGOR_ORDER: readonly VerificationRigor[] = ['standard', 'elevated', 'strict'];

export const egressAxis = byList<Egress>('egress', EGRESS_ORDER);
export const traceLevelAxis = byList<TraceLevel>('trace_level', TRACE_LEVEL_ORDER);
export const rigorAxis = byList<VerificationRigor>('verification_rigor', RIGOR_ORDER);
/** Keeping data for less time is stricter; excising on expiry is stricter than archiving. */
export const retentionAxis: SafetyAxis<RetentionProfile> = {
  name: 'retention',
  compare: (a, b) => {
    const d = (durationMs(b.max_age) ?? Infinity) - (durationMs(a.max_age) ?? Infinity);
    if (d !== 0) return d;
    return (a.on_expiry === 'excise' ? 1 : 0) - (b.on_expiry === 'excise' ? 1 : 0);
  },
};
/** Escalating for more reasons is stricter; a threshold that drops a reason a less severe mode had is looser. */
export const escalationAxis: SafetyAxis<EscalationThreshold> = {
  name: 'escalation_threshold',
  compare: (a, b) => {
    const as = new Set(a.escalate);
    const bs = new Set(b.escalate);
    const aCoversB = [...bs].every((x) => as.has(x));
    const bCoversA = [...as].every((x) => bs.has(x));
    if (aCoversB && bCoversA) return 0;
    if (aCoversB) return 1;
    return -1;
  },
  join: (a, b) => ({ escalate: ESCALATION_TRIGGERS.filter((t) => a.escalate.includes(t) || b.escalate.includes(t)) }),
};
