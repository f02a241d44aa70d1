/** The `agents.commitments` capability block this module contributes to discovery. */

export interface CommitmentsBlock {
  supported: boolean;
  fireConditions?: ('time' | 'predicate')[];
}

export function commitmentsCapability(fireConditions: ('time' | 'predicate')[] = ['time', 'predicate']): CommitmentsBlock {
  return { supported: true, fireConditions: [...new Set(fireConditions)] };
}
