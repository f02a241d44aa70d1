import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SCHEDULE_LIFECYCLE } from '../../../runtime/distillation/schedule-lifecycle.ts';
import { lifecycleTests } from '../lifecycle-harness.ts';

const lifecycle = { module: fileURLToPath(new URL('../../../runtime/distillation/schedule-lifecycle.ts', import.meta.url)), exportName: 'SCHEDULE_LIFECYCLE' };
const load = async () => ({ ...(await import('../../../runtime/distillation/schedule.ts')), ...(await import('../compaction/fixture.ts')), ...(await import('../../../runtime/memory/memory-ref.ts')) });

/** Schedules ending in each of the four outcomes, re-armed, and one cancelled. */
async function everyPath(m: Awaited<ReturnType<typeof load>>): Promise<void> {
  const ids = { n: 0 };
  const scheduler = (env: ReturnType<typeof m.setup>) => new m.DistillationScheduler({ clock: env.clock, distiller: env.distiller, tenantOf: m.tenantOf, newId: () => `dsch-${++ids.n}` });
  const env = m.setup();
  const real = env.distiller.distill.bind(env.distiller);
  env.distiller.distill = (ref, req) => {
    if (ref === 'mem://tenant-a/failing') throw Object.assign(new Error('refused'), { code: 'compaction_redaction_failed' });
    return real(ref, req);
  };
  const sch = scheduler(env);
  for (const ref of [m.REF, 'mem://tenant-a/empty', 'mem://tenant-a/failing']) sch.schedule({ memoryRef: ref, every: 'PT1H', firstAt: env.clock.now() });
  env.writer.put(m.REF, { content: 'A fact worth keeping.', tier: 'transactional' });
  const cancelled = sch.schedule({ memoryRef: m.REF, every: 'PT1H' });
  const small = m.setup({ maxTokenBudget: 5 });
  const tight = scheduler(small);
  tight.schedule({ memoryRef: m.REF, every: 'PT1H', firstAt: small.clock.now() });
  small.writer.put(m.REF, { content: 'This transactional entry is far longer than a five token budget allows for distillation.', tier: 'transactional' });
  const kinds = [...(await sch.tick()), ...(await tight.tick())].map((o) => o.kind).sort();
  if (kinds.join() !== 'budget-exceeded,distilled,failed,nothing-to-distil') throw new Error(`unexpected outcomes ${kinds.join()}`);
  if (!sch.cancel(cancelled.scheduleId)) throw new Error('cancel refused');
}

describe('distillation schedule (SCHEDULE_LIFECYCLE ↔ DistillationScheduler)', () => {
  lifecycleTests(SCHEDULE_LIFECYCLE, lifecycle, load, everyPath);
});
