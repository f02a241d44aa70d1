/** Shared by the schedule tests: a scheduler over the compaction fixture's store and distiller, one request per call. */
import { DistillationScheduler, type DistillationScheduleRequest } from '../../../runtime/distillation/schedule.ts';
import { tenantOf } from '../../../runtime/memory/memory-ref.ts';
import { request } from '../support.ts';
import type { Env } from '../compaction/fixture.ts';
import { unitsOf } from '../../../runtime/storage/index.ts';

let made = 0;
/** A scheduler over the fixture's store and distiller (ids distinct per scheduler: several may share a store). */
export const scheduler = (s: Env, o: { replay?: boolean; maxPerTenant?: number } = {}) => {
  const me = ++made;
  let n = 0;
  return new DistillationScheduler({ units: unitsOf(s.port), clock: s.clock, distiller: s.distiller, tenantOf, newId: () => `dsch-${me}-${++n}`, ...o });
};
export const schedule = (s: Env, sch: DistillationScheduler, req: DistillationScheduleRequest) => request(s.port, (plan) => sch.schedule(plan, req));
export const cancel = (s: Env, sch: DistillationScheduler, tenant: string, scheduleId: string) => request(s.port, (plan) => sch.cancel(plan, tenant, scheduleId));
/** The schedules a tenant holds, as stored, oldest first. */
export const schedulesOf = async (s: Env, tenant: string) =>
  (await s.port.reads.all('SELECT doc FROM schedules WHERE tenant = ? ORDER BY created_ms, schedule_id', [tenant], 1000)).map((r) => JSON.parse(String(r.doc)) as { every: string; memoryRef: string });
