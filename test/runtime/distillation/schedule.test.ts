import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DistillationScheduler, MIN_PERIOD_MS, ScheduleError, type ScheduledRunOutcome } from '../../../runtime/distillation/schedule.ts';
import { tenantOf } from '../../../runtime/memory/memory-ref.ts';
import { createOpenwopRuntime } from '../../../runtime/openwop/index.ts';
import { ManualClock, SequentialIds } from '../../../runtime/shared/clock.ts';
import { REF, setup, thrown, type Env } from '../compaction/fixture.ts';

const HOUR = 3_600_000;
const scheduler = (s: Env, replay = false) => {
  let n = 0;
  return new DistillationScheduler({ clock: s.clock, distiller: s.distiller, tenantOf, newId: () => `dsch-${++n}`, replay });
};
const transactional = (s: Env, ref: string, texts: readonly string[]) => { for (const t of texts) s.writer.put(ref, { content: t, tier: 'transactional' }); };
const compacted = (s: Env) => s.events().filter((e) => e.type === 'memory.compacted');

describe('scheduled distillation ("dreams")', () => {
  it('runs at each instant, as a host-managed distillation with the distillation sub-object, and re-arms one period later', async () => {
    const s = setup();
    const sch = scheduler(s);
    const d = sch.schedule({ memoryRef: REF, every: 'PT1H' });
    expect(d.nextAt).toBe(s.clock.now() + HOUR);
    transactional(s, REF, ['Ticket 1 resolved.', 'Ticket 2 resolved.']);
    expect(await sch.tick()).toEqual([]); // not due yet
    s.clock.advance(HOUR);
    const [first] = await sch.tick();
    expect(first).toMatchObject({ kind: 'distilled', scheduleId: d.scheduleId, missed: 0 });
    const run = first as Extract<ScheduledRunOutcome, { kind: 'distilled' }>;
    expect(run.result.event.trigger).toBe('host-managed');
    expect(run.result.event.distillation).toMatchObject({ tokenBudget: 200, indexUpdated: true });
    expect(sch.get(d.scheduleId)!.nextAt).toBe(d.nextAt + HOUR);
    expect(await sch.tick()).toEqual([]); // the same instant never runs twice
    s.clock.advance(HOUR);
    expect(await sch.tick()).toEqual([{ kind: 'nothing-to-distil', scheduleId: d.scheduleId, instant: new Date(d.nextAt + HOUR).toISOString(), missed: 0 }]);
    expect(compacted(s)).toHaveLength(1); // nothing to distil: no archive, no event
  });

  it('coalesces missed instants into one run and reports how many were missed', async () => {
    const s = setup();
    const sch = scheduler(s);
    const d = sch.schedule({ memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    transactional(s, REF, ['A fact worth keeping.']);
    s.clock.advance(5 * HOUR + 10);
    const out = await sch.tick();
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ kind: 'distilled', missed: 5, instant: new Date(d.nextAt + 5 * HOUR).toISOString() });
    expect(sch.get(d.scheduleId)!.nextAt).toBe(d.nextAt + 6 * HOUR);
  });

  it('a budget refusal writes nothing and the schedule keeps running', async () => {
    const s = setup({ maxTokenBudget: 5 });
    const sch = scheduler(s);
    sch.schedule({ memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    transactional(s, REF, ['This transactional entry is far longer than a five token budget allows for distillation.']);
    const before = JSON.stringify(s.store.listRawSync(REF));
    expect((await sch.tick())[0]).toMatchObject({ kind: 'budget-exceeded', tokensRequired: expect.any(Number) });
    expect(JSON.stringify(s.store.listRawSync(REF))).toBe(before);
    expect(compacted(s)).toEqual([]);
    s.clock.advance(HOUR);
    expect((await sch.tick())[0]?.kind).toBe('budget-exceeded');
  });

  it('a run that fails for another reason is reported by code only, and never keeps another due schedule from running or re-arming', async () => {
    const s = setup();
    const other = 'mem://tenant-a/agent-2';
    const real = s.distiller.distill.bind(s.distiller);
    // The first scope's distillation fails as if redaction could not converge (with content in the message).
    s.distiller.distill = (ref, req) => {
      if (ref === REF) throw Object.assign(new Error('secret sk-live-canary-0001 in content'), { code: 'compaction_redaction_failed' });
      return real(ref, req);
    };
    const sch = scheduler(s);
    const a = sch.schedule({ memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    const b = sch.schedule({ memoryRef: other, every: 'PT1H', firstAt: s.clock.now() });
    transactional(s, REF, ['Note one.']);
    transactional(s, other, ['Note two.']);
    const out = await sch.tick();
    expect(out.map((o) => [o.scheduleId, o.kind])).toEqual([[a.scheduleId, 'failed'], [b.scheduleId, 'distilled']]);
    expect(out[0]).toEqual({ kind: 'failed', scheduleId: a.scheduleId, instant: expect.any(String), missed: 0, errorCode: 'compaction_redaction_failed' });
    expect(JSON.stringify(out[0])).not.toContain('sk-live-canary');
    expect([sch.get(a.scheduleId)!.nextAt, sch.get(b.scheduleId)!.nextAt]).toEqual([a.nextAt + HOUR, b.nextAt + HOUR]);
    s.clock.advance(HOUR);
    expect((await sch.tick()).map((o) => o.kind)).toEqual(['failed', 'nothing-to-distil']);
  });

  it('refuses bad schedules up front: sub-second or malformed periods, refs without a tenant, budgets the distiller refuses', () => {
    const s = setup();
    const sch = scheduler(s);
    for (const every of ['PT0.5S', 'P0D', 'daily', '', 'PT']) expect((thrown(() => sch.schedule({ memoryRef: REF, every })) as ScheduleError).code, every).toBe('invalid_period');
    expect((thrown(() => sch.schedule({ memoryRef: 'mem://../x', every: 'PT1H' })) as ScheduleError).code).toBe('invalid_ref');
    expect((thrown(() => sch.schedule({ memoryRef: REF, every: 'PT1H', tokenBudget: 0 })) as Error).name).toBe('DistillationError');
    expect(sch.schedule({ memoryRef: REF, every: `PT${MIN_PERIOD_MS / 1000}S` }).periodMs).toBe(MIN_PERIOD_MS);
  });

  it('a cancelled schedule never runs again; replay mode never runs anything', async () => {
    const s = setup();
    const live = scheduler(s);
    const d = live.schedule({ memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    expect(live.cancel(d.scheduleId)).toBe(true);
    expect(live.cancel(d.scheduleId)).toBe(false);
    const replay = scheduler(s, true);
    replay.schedule({ memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    transactional(s, REF, ['Something to distil.']);
    s.clock.advance(3 * HOUR);
    expect(await live.tick()).toEqual([]);
    expect(await replay.tick()).toEqual([]);
    expect(compacted(s)).toEqual([]);
  });

  it('CTI-1: each schedule distils its own tenant only; list is per tenant', async () => {
    const s = setup();
    const sch = scheduler(s);
    const other = 'mem://tenant-b/agent-1';
    sch.schedule({ memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    sch.schedule({ memoryRef: other, every: 'PT1H', firstAt: s.clock.now() });
    transactional(s, REF, ['Tenant A note.']);
    transactional(s, other, ['Tenant B note.']);
    const out = (await sch.tick()) as Extract<ScheduledRunOutcome, { kind: 'distilled' }>[];
    expect(out.map((o) => o.result.event.memoryRef).sort()).toEqual([REF, other].sort());
    for (const o of out) expect(o.result.entry.content).toBe(o.result.event.memoryRef === REF ? 'Tenant A note.' : 'Tenant B note.');
    expect(sch.list('tenant-a').map((d) => d.memoryRef)).toEqual([REF]);
  });

  it('fires at most once per instant and exactly once per due window, under random clock advances and repeated ticks (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }), // period in hours
        fc.array(fc.tuple(fc.integer({ min: 0, max: 8 * HOUR }), fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 30 }),
        async (hours, steps) => {
          const s = setup();
          const sch = scheduler(s);
          const period = hours * HOUR;
          const d = sch.schedule({ memoryRef: REF, every: `PT${hours}H`, firstAt: s.clock.now() });
          const instants: number[] = [];
          let expectedRuns = 0;
          let lastWindow = -1;
          for (const [advance, ticks] of steps) {
            s.clock.advance(advance);
            const window = Math.floor((s.clock.now() - d.nextAt) / period);
            if (window > lastWindow) { expectedRuns++; lastWindow = window; }
            for (let i = 0; i < ticks; i++) for (const o of await sch.tick()) instants.push(Date.parse(o.instant));
          }
          // never twice for one instant, strictly increasing, each on the schedule's grid, one per window reached
          expect(new Set(instants).size).toBe(instants.length);
          for (let i = 1; i < instants.length; i++) expect(instants[i]!).toBeGreaterThan(instants[i - 1]!);
          for (const t of instants) expect((t - d.nextAt) % period).toBe(0);
          expect(instants.length).toBe(expectedRuns);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('scheduled distillation in the runtime', () => {
  it('is wired and advertised by default; switching it off removes the claim and the scheduler', () => {
    const on = createOpenwopRuntime({ clock: new ManualClock(), ids: new SequentialIds() });
    expect(on.discovery().memory?.distillation?.scheduled).toBe(true);
    expect(on.distillationScheduler).toBeDefined();
    const off = createOpenwopRuntime({ scheduledDistillation: false });
    expect(off.discovery().memory?.distillation?.scheduled).toBe(false);
    expect(off.distillationScheduler).toBeUndefined();
    const none = createOpenwopRuntime({ distillation: false });
    expect(none.discovery().memory?.distillation).toBeUndefined();
    expect(none.distillationScheduler).toBeUndefined();
  });
  it('a scheduled run goes through the SR-1 chokepoint and the validated log like any distillation', async () => {
    const clock = new ManualClock();
    const rt = createOpenwopRuntime({ clock, ids: new SequentialIds() });
    const ref = 'mem://acme/dreams';
    rt.byok.store('byok-1', 'sk-live-secret-000111', 'run');
    rt.byok.resolve('run-x', 'acme', 'byok-1');
    rt.asRun('run-x', () => rt.writer.put(ref, { content: 'Used sk-live-secret-000111 for the import.', tier: 'transactional' }, { runId: 'run-x', tenant: 'acme' }));
    rt.distillationScheduler!.schedule({ memoryRef: ref, every: 'P1D', firstAt: clock.now() });
    const [o] = (await rt.distillationScheduler!.tick()) as Extract<ScheduledRunOutcome, { kind: 'distilled' }>[];
    expect(o!.result.entry.content).toContain('[REDACTED:byok-1]');
    expect(o!.result.entry.content).not.toContain('sk-live-secret-000111');
    const events = rt.log.runIds().flatMap((r) => rt.log.read(r)).filter((e) => e.type === 'memory.compacted');
    expect(events.map((e) => e.payload)).toEqual([o!.result.event]);
  });
});
