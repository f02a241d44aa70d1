/**
 * The `multiAgent.executionModel` capability block this module contributes to discovery. A pure builder: the
 * capabilities registry (runtime/capabilities/) merges it into the advertisement.
 */
import { resolveConfidenceFloor } from './escalation.ts';
import type { CrossChildMemoryConcurrency } from './sub-run-memory.ts';

export interface ExecutionModelBlock {
  supported: boolean;
  version: number;
  confidenceEscalationFloor?: number;
  crossChildMemoryConcurrency?: CrossChildMemoryConcurrency;
}

/** `confidenceEscalationFloor` is validated (0.5 <= floor <= 1) and advertised as configured (0.5 when absent). */
export function executionModelCapability(o: { floor?: number; crossChildMemoryConcurrency?: CrossChildMemoryConcurrency } = {}): ExecutionModelBlock {
  return {
    supported: true,
    version: 2,
    confidenceEscalationFloor: resolveConfidenceFloor(o.floor),
    crossChildMemoryConcurrency: o.crossChildMemoryConcurrency ?? 'strict',
  };
}
