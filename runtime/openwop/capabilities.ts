/**
 * The capability fragment owned by consolidation, commitments and the multi-agent execution model, composed from
 * each module's own block builder, ready to deep-merge into the advertisement.
 */
import { memoryConsolidationCapability, type MemoryConsolidationBlock } from '../consolidation/capability.ts';
import { commitmentsCapability, type CommitmentsBlock } from '../commitments/capability.ts';
import { executionModelCapability, type ExecutionModelBlock } from '../multi-agent/capabilities.ts';
import type { CrossChildMemoryConcurrency } from '../multi-agent/sub-run-memory.ts';

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
