/**
 * Per-element acceptance policy (P066 Decision 5). Every context element carries its classification; for each:
 *
 *   classification ≤ model's accepts_max_tier         → include
 *   else declassifiable and policy allows it          → declassify (include a projection labelled at the ceiling)
 *   else on_context_denied = drop_with_trace          → drop
 *   else                                              → fail (the whole turn fails closed)
 *
 * Layers (context assembly, middleware, supervisor, Inquirium, the adapter) can only narrow: the effective outcome
 * of an element is the most restrictive outcome any layer chose (the meet in permissiveness), so a drop in one
 * layer can never be undone later. Every decision is returned for the trace.
 */
import { classificationAxis, normaliseClassification, type Classification } from './lattice.ts';

export const OUTCOMES = ['include', 'declassify', 'drop', 'fail'] as const;
/** Least → most restrictive. */
export type ElementOutcome = (typeof OUTCOMES)[number];
const outcomeRank = (o: ElementOutcome): number => OUTCOMES.indexOf(o);
/** The more restrictive of two outcomes. */
export const narrow = (a: ElementOutcome, b: ElementOutcome): ElementOutcome => (outcomeRank(a) >= outcomeRank(b) ? a : b);

export interface ContextElement {
  readonly 'element/id': string;
  readonly 'source/kind': string;
  /** May be missing or wrong on paths that skipped validation: treated as personal. */
  readonly classification?: unknown;
  readonly declassifiable?: boolean;
}

export interface ModelAcceptance {
  readonly 'model.binding/ref': string;
  readonly accepts_max_tier: Classification;
  readonly accepts?: readonly Classification[];
  readonly requires_declassification_above?: Classification;
  readonly transport_kind: string;
  readonly remote_provider: boolean;
  readonly operator_acknowledgement?: { readonly acknowledged_max_tier: Classification };
}

export interface AcceptancePolicy {
  readonly onContextDenied: 'fail_closed' | 'drop_with_trace';
  readonly allowDeclassification: boolean;
}

export interface ElementDecision {
  readonly elementId: string;
  readonly sourceKind: string;
  readonly classification: Classification;
  readonly outcome: ElementOutcome;
  readonly reason: string;
  /** Label of the projection passed on, for include/declassify. */
  readonly passedAs?: Classification;
}

/** Whether the model accepts a label (its ceiling, and its explicit list when it has one). */
export function modelAccepts(model: ModelAcceptance, label: Classification): boolean {
  if (!classificationAxis.atLeastAsRestrictive(model.accepts_max_tier, label)) return false;
  if (model.accepts !== undefined && !model.accepts.includes(label)) return false;
  if (model.requires_declassification_above !== undefined && !classificationAxis.atLeastAsRestrictive(model.requires_declassification_above, label)) return false;
  return true;
}

/** Inquirium's own layer: the four-way decision for one element. */
export function decideElement(element: ContextElement, model: ModelAcceptance, policy: AcceptancePolicy): ElementDecision {
  const classification = normaliseClassification(element.classification);
  const base = { elementId: element['element/id'], sourceKind: element['source/kind'], classification };
  if (modelAccepts(model, classification)) return { ...base, outcome: 'include', reason: 'within-acceptance', passedAs: classification };
  if (policy.allowDeclassification && element.declassifiable === true) {
    return { ...base, outcome: 'declassify', reason: 'declassified-to-ceiling', passedAs: model.accepts_max_tier };
  }
  if (policy.onContextDenied === 'drop_with_trace') return { ...base, outcome: 'drop', reason: 'above-acceptance' };
  return { ...base, outcome: 'fail', reason: 'above-acceptance-fail-closed' };
}

/** A layer's decision for an element, given what earlier layers decided (it may only narrow). */
export type AcceptanceLayer = (element: ContextElement, prior: ElementOutcome) => ElementOutcome;

export interface LayeredDecision {
  readonly elementId: string;
  readonly perLayer: readonly ElementOutcome[];
  readonly effective: ElementOutcome;
}

/** Apply layers in order; the effective outcome is the narrowest of all. A layer that tries to widen is ignored. */
export function applyLayers(elements: readonly ContextElement[], layers: readonly AcceptanceLayer[]): LayeredDecision[] {
  return elements.map((element) => {
    let effective: ElementOutcome = 'include';
    const perLayer: ElementOutcome[] = [];
    for (const layer of layers) {
      const proposed = layer(element, effective);
      perLayer.push(proposed);
      effective = narrow(effective, proposed);
    }
    return { elementId: element['element/id'], perLayer, effective };
  });
}

export interface AcceptanceConfigIssue {
  readonly code: 'remote-high-ceiling-without-acknowledgement' | 'acknowledgement-below-ceiling';
  readonly message: string;
}

/**
 * A remote provider whose ceiling is above public needs an explicit operator acknowledgement that covers the
 * ceiling (P066 Phase 2: remote + high acceptance is rejected unless acknowledged).
 */
export function validateModelAcceptance(model: ModelAcceptance): AcceptanceConfigIssue[] {
  if (!model.remote_provider || model.accepts_max_tier === 'public') return [];
  const ack = model.operator_acknowledgement;
  if (ack === undefined) return [{ code: 'remote-high-ceiling-without-acknowledgement', message: `remote provider accepts ${model.accepts_max_tier} without an operator acknowledgement` }];
  if (!classificationAxis.atLeastAsRestrictive(ack.acknowledged_max_tier, model.accepts_max_tier)) {
    return [{ code: 'acknowledgement-below-ceiling', message: `acknowledgement covers ${ack.acknowledged_max_tier}, ceiling is ${model.accepts_max_tier}` }];
  }
  return [];
}
