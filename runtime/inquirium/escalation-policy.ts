/**
 * Escalation from the activity feed (P066 Decision 11). Everything stays a feed item unless it has one of the
 * listed reasons AND the node mode's threshold (ModeKeyed) includes that reason. A reason that needs a bounded
 * operator answer becomes an operator prompt; the others become notifications. Escalation is never an engagement
 * vector: there is no path for routine items (selection, successful generation, ordinary drops).
 */
import { resolveModeKeyed, type ModeKeyed, type Resolution } from './keyed.ts';
import type { EscalationThreshold } from './safety-axes.ts';

export const ESCALATION_REASONS = ['operator-decision', 'sustained-degradation', 'boundary-risk', 'pre-egress-confirmation', 'crisis-candidate'] as const;
export type EscalationReason = (typeof ESCALATION_REASONS)[number];
export type EscalationLevel = 'feed' | 'notification' | 'operator-prompt';

/** Reasons that need a bounded answer before the flow can continue. */
const BLOCKING: ReadonlySet<string> = new Set(['operator-decision', 'pre-egress-confirmation']);

/** The shipped default: commons escalates only what must be decided or lost; crisis escalates everything listed. */
export const DEFAULT_ESCALATION_THRESHOLD: ModeKeyed<EscalationThreshold> = {
  default: { escalate: ['operator-decision', 'sustained-degradation', 'pre-egress-confirmation', 'crisis-candidate'] },
  by_mode: {
    commons: { escalate: ['operator-decision', 'sustained-degradation', 'pre-egress-confirmation', 'crisis-candidate'] },
    support: { escalate: ['operator-decision', 'sustained-degradation', 'boundary-risk', 'pre-egress-confirmation', 'crisis-candidate'] },
    crisis: { escalate: ['operator-decision', 'sustained-degradation', 'boundary-risk', 'pre-egress-confirmation', 'crisis-candidate'] },
  },
};

export interface EscalationDecision {
  readonly level: EscalationLevel;
  readonly resolution: Resolution<EscalationThreshold>;
}

export function escalationFor(item: { readonly reason?: string }, mode: unknown, threshold: ModeKeyed<EscalationThreshold> = DEFAULT_ESCALATION_THRESHOLD): EscalationDecision {
  const resolution = resolveModeKeyed(threshold, mode);
  if (item.reason === undefined || !resolution.value.escalate.includes(item.reason)) return { level: 'feed', resolution };
  return { level: BLOCKING.has(item.reason) ? 'operator-prompt' : 'notification', resolution };
}
