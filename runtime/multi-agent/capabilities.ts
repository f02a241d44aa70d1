/**
 * The `multiAgent.executionModel` capability block this module contributes to discovery. A pure builder: the
 * capabilities registry (runtime/capabilities/) merges it into the advertisement.
 */
import type { ExecutionModelCapability } from '../../generated/ts/index.ts';
import { resolveConfidenceFloor } from './escalation.ts';
import type { CrossChildMemoryConcurrency } from './sub-run-memory.ts';

/** `confidenceEscalationFloor` is validated (0.5 <= floor <= 1) and advertised as configured (0.5 when absent). */
export function executionModelCapability(o: { floor?: number; crossChildMemoryConcurrency?: CrossChildMemoryConcurrency } = {}): ExecutionModelCapability {
  return {
    supported: true,
    version: 2,
    confidenceEscalationFloor: resolveConfidenceFloor(o.floor),
    crossChildMemoryConcurrency: o.crossChildMemoryConcurrency ?? 'strict',
  };
}
