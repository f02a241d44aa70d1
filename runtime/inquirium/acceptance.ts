/**
 * Per-element acceptance policy (P066 Decision 5). Every context element carries its classification; for each:
 *
 *   classification ≤ model's accepts_max_tier (and in its accepts list)  → include
 *   else declassifiable and policy allows it                             → declassify (pass a projection at the ceiling)
 *   else on_context_denied = drop_with_trace                             → drop
 *   else                                                                 → fail (the whole turn fails closed)
 *
 * Layers (context assembly, middleware, supervisor, Inquirium, the adapter) can only narrow: the effective outcome
 * of an element is the most restrictive outcome any layer chose — the meet in permissiveness, include < declassify
 * < drop < fail — so a drop in one layer can never be undone by a later one. Every layer's decision is kept for the
 * trace.
 */
import type { InquiriumContextElement } from '../../generated/ts/inquirium.context-element.v1.ts';
import type { InquiriumModelAcceptance } from '../../generated/ts/inquirium.model-acceptance.v1.ts';
import { classificationAxis, normaliseClassification, type Classification } from './lattice.ts';

export const OUTCOMES = ['include', 'declassify', 'drop', 'fail'] as const;
/** Least → most restrictive. */
export type ElementOutcome = (typeof OUTCOMES)[number];
const outcomeRank = (o: ElementOutcome): number => OUTCOMES.indexOf(o);
/** The more restrictive of two outcomes. */
export const narrow = (a: ElementOutcome, b: ElementOutcome): ElementOutcome => (outcomeRank(a) >= outcomeRank(b) ? a : b);
/** Whether an outcome lets (a projection of) the element reach the model. */
export const admits = (o: ElementOutcome): boolean => o === 'include' || o === 'declassify';

/**
 * A context element as Inquirium receives it. The label may be missing or wrong on paths that skipped schema
 * validation; it is then handled as personal (classification-unknown-is-most-restrictive).
 */
export type ContextElement = Pick<InquiriumContextElement, 'element/id' | 'source/kind'> &
  Partial<Pick<InquiriumContextElement, 'source/ref' | 'content' | 'content/ref' | 'declassifiable' | 'grant/ref' | 'schema'>> & {
    readonly classification?: unknown;
  };

/** Model acceptance config (inquirium.model-acceptance.v1). */
export type ModelAcceptance = InquiriumModelAcceptance;

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

/** Whether the model accepts a label (its ceiling, its explicit list, and its declassification threshold). */
export function modelAccepts(model: Pick<ModelAcceptance, 'accepts_max_tier' | 'accepts' | 'requires_declassification_above'>, label: unknown): boolean {
  const l = normaliseClassification(label);
  if (!classificationAxis.atLeastAsRestrictive(model.accepts_max_tier, l)) return false;
  if (model.accepts !== undefined && !model.accepts.includes(l)) return false;
  if (model.requires_declassification_above !== undefined && !classificationAxis.atLeastAsRestrictive(model.requires_declassification_above, l)) return false;
  return true;
}

/** Inquirium's own layer: the four-way decision for one element against the selected model. */
export function decideElement(element: ContextElement, model: Pick<ModelAcceptance, 'accepts_max_tier' | 'accepts' | 'requires_declassification_above'>, policy: AcceptancePolicy): ElementDecision {
  const classification = normaliseClassification(element.classification);
  const base = { elementId: element['element/id'], sourceKind: element['source/kind'], classification };
  if (modelAccepts(model, classification)) return { ...base, outcome: 'include', reason: 'within-acceptance', passedAs: classification };
  if (policy.allowDeclassification && element.declassifiable === true && modelAccepts(model, model.accepts_max_tier)) {
    return { ...base, outcome: 'declassify', reason: 'declassified-to-ceiling', passedAs: model.accepts_max_tier };
  }
  if (policy.onContextDenied === 'drop_with_trace') return { ...base, outcome: 'drop', reason: 'above-acceptance' };
  return { ...base, outcome: 'fail', reason: 'above-acceptance-fail-closed' };
}

/** One layer's verdict on an element. */
export interface LayerVerdict {
  readonly outcome: ElementOutcome;
  readonly reason: string;
}

/**
 * A layer between context assembly and the model. It sees the element and the effective outcome so far, and
 * proposes its own; it can only narrow — a proposal looser than the prior outcome is recorded and ignored.
 */
export interface AcceptanceLayer {
  readonly name: string;
  decide(element: ContextElement, prior: ElementOutcome): LayerVerdict;
}

export interface LayerStep {
  readonly layer: string;
  readonly proposed: ElementOutcome;
  readonly reason: string;
  /** Effective outcome after this layer. */
  readonly effective: ElementOutcome;
}

export interface LayeredDecision {
  readonly elementId: string;
  readonly steps: readonly LayerStep[];
  readonly effective: ElementOutcome;
  /** The layer that set the effective outcome (the first to narrow to it; for include, the last layer), and its reason. */
  readonly decidedBy: string;
  readonly reason: string;
}

/** Apply layers in order; the effective outcome is the narrowest of all proposals. */
export function applyLayers(elements: readonly ContextElement[], layers: readonly AcceptanceLayer[]): LayeredDecision[] {
  return elements.map((element) => {
    let effective: ElementOutcome = 'include';
    let decidedBy = 'none';
    let reason = 'no-layer-objected';
    const steps: LayerStep[] = [];
    for (const layer of layers) {
      const v = layer.decide(element, effective);
      const next = narrow(effective, v.outcome);
      // A narrowing names its layer; while everything still includes, the latest (innermost) gate speaks.
      if (next !== effective || next === 'include' || decidedBy === 'none') {
        decidedBy = layer.name;
        reason = v.reason;
      }
      effective = next;
      steps.push({ layer: layer.name, proposed: v.outcome, reason: v.reason, effective });
    }
    return { elementId: element['element/id'], steps, effective, decidedBy, reason };
  });
}

/** Grants (policy-granted-context-needs-grants): under granted-context scope an element without a grant is unavailable. */
export const grantLayer = (onContextDenied: AcceptancePolicy['onContextDenied']): AcceptanceLayer => ({
  name: 'operator-grant',
  decide: (e) =>
    typeof e['grant/ref'] === 'string' && e['grant/ref'].length > 0
      ? { outcome: 'include', reason: 'granted' }
      : { outcome: onContextDenied === 'drop_with_trace' ? 'drop' : 'fail', reason: 'no-operator-grant' },
});

/** Inquirium's acceptance decision as a layer. */
export const inquiriumLayer = (model: Pick<ModelAcceptance, 'accepts_max_tier' | 'accepts' | 'requires_declassification_above'>, policy: AcceptancePolicy): AcceptanceLayer => ({
  name: 'inquirium-acceptance',
  decide: (e) => {
    const d = decideElement(e, model, policy);
    return { outcome: d.outcome, reason: d.reason };
  },
});

export interface AcceptanceConfigIssue {
  readonly code: 'remote-high-ceiling-without-acknowledgement' | 'acknowledgement-below-ceiling';
  readonly message: string;
}

/**
 * A remote provider whose ceiling is above public needs an explicit operator acknowledgement that covers the
 * ceiling (P066 Phase 2: remote + high acceptance is rejected unless acknowledged; acceptance-ack-covers-ceiling).
 */
export function validateModelAcceptance(model: Pick<ModelAcceptance, 'remote_provider' | 'accepts_max_tier' | 'operator_acknowledgement'>): AcceptanceConfigIssue[] {
  if (!model.remote_provider || normaliseClassification(model.accepts_max_tier) === 'public') return [];
  const ack = model.operator_acknowledgement;
  if (ack === undefined) return [{ code: 'remote-high-ceiling-without-acknowledgement', message: `remote provider accepts ${model.accepts_max_tier} without an operator acknowledgement` }];
  if (!classificationAxis.atLeastAsRestrictive(ack.acknowledged_max_tier, model.accepts_max_tier)) {
    return [{ code: 'acknowledgement-below-ceiling', message: `acknowledgement covers ${ack.acknowledged_max_tier}, ceiling is ${model.accepts_max_tier}` }];
  }
  return [];
}
