/**
 * The capability blocks contributed by consolidation, commitments and the multi-agent execution model.
 * Pure builders: the capabilities registry (runtime/capabilities/) merges them into the advertisement.
 */
import { resolveConfidenceFloor } from './escalation.ts';
import type { CrossChildMemoryConcurrency } from './sub-run-memory.ts';

export interface MemoryConsolidationBlock {
  supported: boolean;
  schedule?: 'host-managed' | 'scheduled' | 'on-demand';
}
export interface CommitmentsBlock {
  supported: boolean;
  fireConditions?: ('time' | 'predicate')[];
}
export interface ExecutionModelBlock {
  supported: boolean;
  version: number;
  confidenceEscalationFloor?: number;
  crossChildMemoryConcurrency?: CrossChildMemoryConcurrency;
}

export function memoryConsolidationCapability(schedule: MemoryConsolidationBlock['schedule'] = 'on-demand'): MemoryConsolidationBlock {
  return schedule === undefined ? { supported: true } : { supported: true, schedule };
}

export function commitmentsCapability(fireConditions: ('time' | 'predicate')[] = ['time', 'predicate']): CommitmentsBlock {
  return { supported: true, fireConditions: [...new Set(fireConditions)] };
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

/** The fragment of the capabilities document these parts own, ready to deep-merge. */
export function ownedCapabilityFragment(o: {
  consolidationSchedule?: MemoryConsolidationBlock['schedule'];
  fireConditions?: ('time' | 'predicate')[];
  floor?: number;
  crossChildMemoryConcurrency?: CrossChildMemoryConcurrency;
} = {}): { agents: { memoryConsolidation: MemoryConsolidationBlock; commitments: CommitmentsBlock }; multiAgent: { executionModel: ExecutionModelBlock } } {
  return {
    agents: { memoryConsolidation: memoryConsolidationCapability(o.consolidationSchedule), commitments: commitmentsCapability(o.fireConditions) },
    multiAgent: {
      executionModel: executionModelCapability({
        ...(o.floor === undefined ? {} : { floor: o.floor }),
        ...(o.crossChildMemoryConcurrency === undefined ? {} : { crossChildMemoryConcurrency: o.crossChildMemoryConcurrency }),
      }),
    },
  };
}
