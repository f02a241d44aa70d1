/** The `agents.memoryConsolidation` capability block this module contributes to discovery. */

export interface MemoryConsolidationBlock {
  supported: boolean;
  schedule?: 'host-managed' | 'scheduled' | 'on-demand';
}

export function memoryConsolidationCapability(schedule: MemoryConsolidationBlock['schedule'] = 'on-demand'): MemoryConsolidationBlock {
  return schedule === undefined ? { supported: true } : { supported: true, schedule };
}
