/** The `agents.memoryConsolidation` capability block this module contributes to discovery. */
import type { ConsolidationSchedule, MemoryConsolidationCapability } from '../../generated/ts/index.ts';

export function memoryConsolidationCapability(schedule: ConsolidationSchedule | undefined = 'on-demand'): MemoryConsolidationCapability {
  return schedule === undefined ? { supported: true } : { supported: true, schedule };
}
