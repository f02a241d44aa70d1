import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { SCHEDULE_LIFECYCLE } from '../../../runtime/distillation/schedule-lifecycle.ts';
import { lifecycleTests } from '../lifecycle-harness.ts';

const lifecycle = { module: fileURLToPath(new URL('../../../runtime/distillation/schedule-lifecycle.ts', import.meta.url)), exportName: 'SCHEDULE_LIFECYCLE' };
const load = async () => ({ ...(await import('../../../runtime/distillation/schedule.ts')), ...(await import('../compaction/fixture.ts')), ...(await import('../support.ts')), ...(await import('../../../runtime/memory/memory-ref.ts')), ...(await import('../../../runtime/storage/index.ts')) });

/** Schedules ending in each of the four outcomes, re-armed, and one cancelled. */
async function everyPath(m: Awaited<ReturnType<typeof load>>): Promise<void> {
  const ids = { n: 0 };
  type Env = Awaited<ReturnType<typeof m.setup>>;
  const scheduler = (env: Env) => new m.DistillationScheduler({ units: m.unitsOf(env.port), clock: env.clock, distiller: env.distiller, tenantOf: m.tenantOf, newId: () => `dsch-${++ids.n}` });
  const env = await m.setup();
  const real = env.distiller.distill.bind(env.distiller);
  env.distiller.distill = async (plan, ref, req) => {
    if (ref === 'mem://tenant-a/failing') throw Object.assign(new Error('refused'), { code: 'compaction_redaction_failed' });
    return real(plan, ref, req);
  };
  const sch = scheduler(env);
  for (const ref of [m.REF, 'mem://tenant-a/empty', 'mem://tenant-a/failing']) await m.request(env.port, (plan) => sch.schedule(plan, { memoryRef: ref, every: 'PT1H', firstAt: env.clock.now() }));
  await env.put(m.REF, { content: 'A fact worth keeping.', tier: 'transactional' });
  const cancelled = await m.request(env.port, (plan) => sch.schedule(plan, { memoryRef: m.REF, every: 'PT1H' }));
  const small = await m.setup({ maxTokenBudget: 5 });
  const tight = scheduler(small);
  await m.request(small.port, (plan) => tight.schedule(plan, { memoryRef: m.REF, every: 'PT1H', firstAt: small.clock.now() }));
  await small.put(m.REF, { content: 'This transactional entry is far longer than a five token budget allows for distillation.', tier: 'transactional' });
  const kinds = [...(await sch.tick()), ...(await tight.tick())].map((o) => o.kind).sort();
  if (kinds.join() !== 'budget-exceeded,distilled,failed,nothing-to-distil') throw new Error(`unexpected outcomes ${kinds.join()}`);
  if (!(await m.request(env.port, (plan) => sch.cancel(plan, 'tenant-a', cancelled.scheduleId)))) throw new Error('cancel refused');
}

describe('distillation schedule (SCHEDULE_LIFECYCLE ↔ DistillationScheduler)', () => {
  lifecycleTests(SCHEDULE_LIFECYCLE, lifecycle, load, everyPath);
});
