/** The `agents.commitments` capability block this module contributes to discovery. */
import type { CommitmentFireCondition, CommitmentsCapability } from '../../generated/ts/index.ts';

export function commitmentsCapability(fireConditions: readonly CommitmentFireCondition[] = ['time', 'predicate']): CommitmentsCapability {
  return { supported: true, fireConditions: [...new Set(fireConditions)] };
}
