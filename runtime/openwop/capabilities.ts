/**
 * The capability fragment owned by consolidation, commitments and the multi-agent execution model, composed from
 * each module's own block builder, ready to deep-merge into the advertisement.
 */
import type { AgentsCapability, CommitmentFireCondition, ConsolidationSchedule, MultiAgentCapability } from '../../generated/ts/index.ts';
import { memoryConsolidationCapability } from '../consolidation/capability.ts';
import { commitmentsCapability } from '../commitments/capability.ts';
import { executionModelCapability } from '../multi-agent/capabilities.ts';
import type { CrossChildMemoryConcurrency } from '../multi-agent/sub-run-memory.ts';

export function ownedCapabilityFragment(o: {
  consolidationSchedule?: ConsolidationSchedule;
  fireConditions?: readonly CommitmentFireCondition[];
  floor?: number;
  crossChildMemoryConcurrency?: CrossChildMemoryConcurrency;
} = {}): { agents: Required<Pick<AgentsCapability, 'memoryConsolidation' | 'commitments'>>; multiAgent: Required<Pick<MultiAgentCapability, 'executionModel'>> } {
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
