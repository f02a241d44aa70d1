/**
 * Runtime selection. Local-only is enforced in exactly one place, `filterCandidates`, before any choice is made;
 * an empty result is the typed handler-unavailable outcome — there is no code path that falls back to a remote
 * candidate. Phase 1 treats transport `http_local` and `command_stdio` as local (P066 implementation notes).
 */
import type { InquiriumRuntimeCandidate } from '../../generated/ts/inquirium.runtime-candidate.v1.ts';
import { classificationAxis, type Classification } from './lattice.ts';
import { modelAccepts, validateModelAcceptance } from './acceptance.ts';

export const LOCAL_TRANSPORTS: ReadonlySet<string> = new Set(['http_local', 'command_stdio']);

/** A runtime candidate (inquirium.runtime-candidate.v1, the generated type). */
export type RuntimeCandidate = InquiriumRuntimeCandidate;

export interface SelectionConstraint {
  readonly locality: 'local_only' | 'remote_allowed';
  readonly operation: string;
  /** Labels that will reach the model and cannot be dropped: the turn's own label and every non-droppable element. */
  readonly contextLabels?: readonly Classification[];
  /** The ClassKeyed egress setting resolved for those labels; `deny` keeps every remote candidate out. */
  readonly egress?: 'deny' | 'allow_accepting_remote';
}

export interface FilterDecision {
  readonly runtimeRef: string;
  readonly kept: boolean;
  readonly reason: string;
}

export const isLocal = (c: Pick<RuntimeCandidate, 'transport_kind'>): boolean => LOCAL_TRANSPORTS.has(c.transport_kind);

/** The one filter seam. */
export function filterCandidates(candidates: readonly RuntimeCandidate[], constraint: SelectionConstraint): { kept: RuntimeCandidate[]; decisions: FilterDecision[] } {
  const kept: RuntimeCandidate[] = [];
  const decisions: FilterDecision[] = [];
  for (const c of candidates) {
    const reason = rejectionReason(c, constraint);
    decisions.push({ runtimeRef: c['runtime/ref'], kept: reason === undefined, reason: reason ?? 'eligible' });
    if (reason === undefined) kept.push(c);
  }
  return { kept, decisions };
}

function rejectionReason(c: RuntimeCandidate, k: SelectionConstraint): string | undefined {
  if (k.locality === 'local_only' && !isLocal(c)) return 'not-local';
  if (c.health.status !== 'healthy') return 'unhealthy';
  if (!(c.operations as readonly string[]).includes(k.operation)) return 'operation-unsupported';
  if (!isLocal(c) && k.egress === 'deny') return 'egress-denied';
  if (!isLocal(c)) {
    // A remote candidate qualifies only through an acceptance policy that is valid and covers every label.
    if (c.acceptance === undefined || validateModelAcceptance(c.acceptance).length > 0) return 'remote-without-valid-acceptance';
    const labels = k.contextLabels ?? [];
    if (!labels.every((l) => modelAccepts(c.acceptance!, l))) return 'context-above-acceptance';
  }
  return undefined;
}

export type Selection =
  | { readonly kind: 'use-runtime'; readonly candidate: RuntimeCandidate; readonly decisions: FilterDecision[] }
  | { readonly kind: 'handler-unavailable'; readonly reason: 'no-local-candidate' | 'no-eligible-candidate'; readonly decisions: FilterDecision[] };

/** Filter, then choose deterministically: local before remote, then the lowest runtime ref. */
export function selectRuntime(candidates: readonly RuntimeCandidate[], constraint: SelectionConstraint): Selection {
  const { kept, decisions } = filterCandidates(candidates, constraint);
  if (kept.length === 0) return { kind: 'handler-unavailable', reason: constraint.locality === 'local_only' ? 'no-local-candidate' : 'no-eligible-candidate', decisions };
  const sorted = [...kept].sort((a, b) => Number(isLocal(b)) - Number(isLocal(a)) || (a['runtime/ref'] < b['runtime/ref'] ? -1 : 1));
  return { kind: 'use-runtime', candidate: sorted[0]!, decisions };
}

/** The highest label every selected candidate could take (for tracing). */
export const ceilingOf = (c: RuntimeCandidate): Classification => c.acceptance?.accepts_max_tier ?? (isLocal(c) ? classificationAxis.mostRestrictive : classificationAxis.leastRestrictive);
