import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DistillationScheduler, MIN_PERIOD_MS, ScheduleError, type ScheduledRunOutcome } from '../../../runtime/distillation/schedule.ts';
import { tenantOf } from '../../../runtime/memory/memory-ref.ts';
import { quotaCount } from '../../../runtime/storage/reads/records.ts';
import { allEvents, openRuntime, put, racingPort, registerSecrets, request } from '../support.ts';
import { REF, setup, thrown, type Env } from '../compaction/fixture.ts';
import { cancel, schedule, scheduler, schedulesOf } from './scheduling.ts';
import { unitsOf } from '../../../runtime/storage/index.ts';

const HOUR = 3_600_000;
const transactional = async (s: Env, ref: string, texts: readonly string[]) => { for (const t of texts) await s.put(ref, { content: t, tier: 'transactional' }); };
const compacted = async (s: Env) => (await s.events()).filter((e) => e.type === 'memory.compacted');

describe('scheduled distillation ("dreams")', () => {
  it('runs at each instant, as a host-managed distillation with the distillation sub-object, and re-arms one period later', async () => {
    const s = await setup();
    const sch = scheduler(s);
    const d = await schedule(s, sch, { memoryRef: REF, every: 'PT1H' });
    expect(d.nextAt).toBe(s.clock.now() + HOUR);
    await transactional(s, REF, ['Ticket 1 resolved.', 'Ticket 2 resolved.']);
    expect(await sch.tick()).toEqual([]); // not due yet
    s.clock.advance(HOUR);
    const [first] = await sch.tick();
    expect(first).toMatchObject({ kind: 'distilled', scheduleId: d.scheduleId, missed: 0 });
    const run = first as Extract<ScheduledRunOutcome, { kind: 'distilled' }>;
    expect(run.result.event.trigger).toBe('host-managed');
    expect(run.result.event.distillation).toMatchObject({ tokenBudget: 200, indexUpdated: true });
    expect((await request(s.port, (tx) => sch.get(tx, d.scheduleId)))!.nextAt).toBe(d.nextAt + HOUR);
    expect(await request(s.port, (tx) => sch.lastOutcome(tx, d.scheduleId))).toMatchObject({ kind: 'distilled', archiveId: run.result.archiveId, event: run.result.event });
    expect(await sch.tick()).toEqual([]); // the same instant never runs twice
    s.clock.advance(HOUR);
    expect(await sch.tick()).toEqual([{ kind: 'nothing-to-distil', scheduleId: d.scheduleId, instant: new Date(d.nextAt + HOUR).toISOString(), missed: 0 }]);
    expect(await compacted(s)).toHaveLength(1); // nothing to distil: no archive, no event
    expect(await request(s.port, (tx) => sch.lastOutcome(tx, d.scheduleId))).toMatchObject({ kind: 'nothing-to-distil' });
  });

  it('coalesces missed instants into one run and reports how many were missed', async () => {
    const s = await setup();
    const sch = scheduler(s);
    const d = await schedule(s, sch, { memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    await transactional(s, REF, ['A fact worth keeping.']);
    s.clock.advance(5 * HOUR + 10);
    const out = await sch.tick();
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ kind: 'distilled', missed: 5, instant: new Date(d.nextAt + 5 * HOUR).toISOString() });
    expect((await request(s.port, (tx) => sch.get(tx, d.scheduleId)))!.nextAt).toBe(d.nextAt + 6 * HOUR);
  });

  it('a slot runs once whichever host ticks first: a second scheduler on the same store finds it taken', async () => {
    const s = await setup();
    const other = await setup({ port: s.port, clock: s.clock });
    const [a, b] = [scheduler(s), scheduler(other)];
    await schedule(s, a, { memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    await transactional(s, REF, ['A fact worth keeping.']);
    const outcomes = (await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()])).flat();
    expect(outcomes.map((o) => o.kind)).toEqual(['distilled']);
    expect(await compacted(s)).toHaveLength(1);
  });

  it('a budget refusal writes nothing and the schedule keeps running', async () => {
    const s = await setup({ maxTokenBudget: 5 });
    const sch = scheduler(s);
    await schedule(s, sch, { memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    await transactional(s, REF, ['This transactional entry is far longer than a five token budget allows for distillation.']);
    const before = JSON.stringify(await s.entries(REF));
    expect((await sch.tick())[0]).toMatchObject({ kind: 'budget-exceeded', tokensRequired: expect.any(Number) });
    expect(JSON.stringify(await s.entries(REF))).toBe(before);
    expect(await compacted(s)).toEqual([]);
    s.clock.advance(HOUR);
    expect((await sch.tick())[0]?.kind).toBe('budget-exceeded');
  });

  it('a run that fails for another reason is reported by code only, and never keeps another due schedule from running or re-arming', async () => {
    const s = await setup();
    const other = 'mem://tenant-a/agent-2';
    const real = s.distiller.distill.bind(s.distiller);
    // The first scope's distillation fails as if redaction could not converge (with content in the message).
    s.distiller.distill = async (plan, ref, req) => {
      if (ref === REF) throw Object.assign(new Error('secret sk-live-canary-0001 in content'), { code: 'compaction_redaction_failed' });
      return real(plan, ref, req);
    };
    const sch = scheduler(s);
    const a = await schedule(s, sch, { memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    const b = await schedule(s, sch, { memoryRef: other, every: 'PT1H', firstAt: s.clock.now() + 1 });
    await transactional(s, REF, ['Note one.']);
    await transactional(s, other, ['Note two.']);
    s.clock.advance(1);
    const out = await sch.tick();
    expect(out.map((o) => [o.scheduleId, o.kind])).toEqual([[a.scheduleId, 'failed'], [b.scheduleId, 'distilled']]);
    expect(out[0]).toEqual({ kind: 'failed', scheduleId: a.scheduleId, instant: expect.any(String), missed: 0, errorCode: 'compaction_redaction_failed' });
    expect(JSON.stringify(out[0])).not.toContain('sk-live-canary');
    expect(JSON.stringify(await request(s.port, (tx) => sch.lastOutcome(tx, a.scheduleId)))).not.toContain('sk-live-canary');
    expect([(await request(s.port, (tx) => sch.get(tx, a.scheduleId)))!.nextAt, (await request(s.port, (tx) => sch.get(tx, b.scheduleId)))!.nextAt]).toEqual([a.nextAt + HOUR, b.nextAt + HOUR]);
    s.clock.advance(HOUR);
    expect((await sch.tick()).map((o) => o.kind)).toEqual(['failed', 'nothing-to-distil']);
  });

  it('a run whose writes the store refuses (the tenant at its byte bound) is a failed slot: nothing of it is written, the schedule moves on, and the schedules due after it still run', async () => {
    const s = await setup();
    await transactional(s, REF, ['A.']);
    const used = await quotaCount(s.port.reads, { tenant: 'tenant-a', resource: 'memory-bytes' });
    // the same store seen by a runtime whose tenant byte bound is what the tenant holds now: an archive (tagged,
    // with a long id) is larger than its one short source, so its transaction is refused
    const tight = await setup({ port: s.port, clock: s.clock, memoryBounds: { bytesPerTenant: used } });
    const sch = scheduler(tight);
    const a = await schedule(tight, sch, { memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    const b = await schedule(tight, sch, { memoryRef: 'mem://tenant-a/empty', every: 'PT1H', firstAt: s.clock.now() + 1 });
    s.clock.advance(1);
    const before = JSON.stringify(await s.entries(REF));
    const out = await sch.tick();
    expect(out.map((o) => [o.scheduleId, o.kind])).toEqual([[a.scheduleId, 'failed'], [b.scheduleId, 'nothing-to-distil']]);
    expect(out[0]).toMatchObject({ errorCode: 'quota_exceeded' });
    expect(JSON.stringify(await s.entries(REF))).toBe(before);
    expect((await request(s.port, (tx) => sch.get(tx, a.scheduleId)))!.nextAt).toBe(a.nextAt + HOUR);
    expect(await request(s.port, (tx) => sch.lastOutcome(tx, a.scheduleId))).toMatchObject({ kind: 'failed', errorCode: 'quota_exceeded' });
  });

  it('a run whose tenant registered a secret between its reads and its commit is run again: the slot is distilled once, with the new secret redacted', async () => {
    const s = await setup();
    const racing = racingPort(s.port, (plan) => plan.some((op) => op.op === 'schedule.take'), () => s.register({ late: 'LATE-SECRET-0123456789' }, 'run-late'));
    const sch = new DistillationScheduler({ units: unitsOf(racing.port), clock: s.clock, distiller: s.distiller, tenantOf, newId: () => 'dsch-race' });
    await schedule(s, sch, { memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    await transactional(s, REF, ['The token is LATE-SECRET-0123456789.']);
    const out = await sch.tick();
    expect(racing.raced()).toBe(true);
    expect(out.map((o) => o.kind)).toEqual(['distilled']);
    expect((out[0] as Extract<ScheduledRunOutcome, { kind: 'distilled' }>).result.entry.content).toContain('[REDACTED:late]');
    expect(await compacted(s)).toHaveLength(1);
    expect(JSON.stringify(await s.entries(REF))).not.toContain('LATE-SECRET');
  });

  it('refuses bad schedules up front: sub-second or malformed periods, refs without a tenant, budgets the distiller refuses', async () => {
    const s = await setup();
    const sch = scheduler(s);
    for (const every of ['PT0.5S', 'P0D', 'daily', '', 'PT']) expect(((await thrown(() => schedule(s, sch, { memoryRef: REF, every }))) as ScheduleError).code, every).toBe('invalid_period');
    expect(((await thrown(() => schedule(s, sch, { memoryRef: 'mem://../x', every: 'PT1H' }))) as ScheduleError).code).toBe('invalid_ref');
    expect(((await thrown(() => schedule(s, sch, { memoryRef: REF, every: 'PT1H', tokenBudget: 0 }))) as Error).name).toBe('DistillationError');
    expect(await schedulesOf(s, 'tenant-a')).toEqual([]);
    expect((await schedule(s, sch, { memoryRef: REF, every: `PT${MIN_PERIOD_MS / 1000}S` })).periodMs).toBe(MIN_PERIOD_MS);
  });

  it('a cancelled schedule never runs again; replay mode never runs anything', async () => {
    const s = await setup();
    const live = scheduler(s);
    const d = await schedule(s, live, { memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    expect(await cancel(s, live, 'tenant-b', d.scheduleId)).toBe(false);
    expect(await cancel(s, live, 'tenant-a', d.scheduleId)).toBe(true);
    expect(await cancel(s, live, 'tenant-a', d.scheduleId)).toBe(false);
    const replay = scheduler(s, { replay: true });
    await schedule(s, replay, { memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    await transactional(s, REF, ['Something to distil.']);
    s.clock.advance(3 * HOUR);
    expect(await replay.tick()).toEqual([]);
    expect(await compacted(s)).toEqual([]);
  });

  it('CTI-1: each schedule distils its own tenant only; a tick for one tenant runs that tenant\'s schedules only', async () => {
    const s = await setup();
    const sch = scheduler(s);
    const other = 'mem://tenant-b/agent-1';
    await schedule(s, sch, { memoryRef: REF, every: 'PT1H', firstAt: s.clock.now() });
    await schedule(s, sch, { memoryRef: other, every: 'PT1H', firstAt: s.clock.now() });
    await transactional(s, REF, ['Tenant A note.']);
    await transactional(s, other, ['Tenant B note.']);
    const onlyB = (await sch.tick({ tenant: 'tenant-b' })) as Extract<ScheduledRunOutcome, { kind: 'distilled' }>[];
    expect(onlyB.map((o) => o.result.event.memoryRef)).toEqual([other]);
    const out = (await sch.tick()) as Extract<ScheduledRunOutcome, { kind: 'distilled' }>[];
    expect(out.map((o) => o.result.event.memoryRef)).toEqual([REF]);
    for (const o of [...onlyB, ...out]) expect(o.result.entry.content).toBe(o.result.event.memoryRef === REF ? 'Tenant A note.' : 'Tenant B note.');
    expect((await schedulesOf(s, 'tenant-a')).map((d) => d.memoryRef)).toEqual([REF]);
  });

  it('fires at most once per instant and exactly once per due window, under random clock advances and repeated ticks (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }), // period in hours
        fc.array(fc.tuple(fc.integer({ min: 0, max: 8 * HOUR }), fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 30 }),
        async (hours, steps) => {
          const s = await setup();
          try {
            const sch = scheduler(s);
            const period = hours * HOUR;
            const d = await schedule(s, sch, { memoryRef: REF, every: `PT${hours}H`, firstAt: s.clock.now() });
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
          } finally {
            await s.close();
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('scheduled distillation in the runtime', () => {
  it('is wired and advertised by default; switching it off removes the claim and the scheduler', async () => {
    const { rt: on } = await openRuntime();
    expect(on.discovery().memory?.distillation?.scheduled).toBe(true);
    expect(on.distillationScheduler).toBeDefined();
    const { rt: off } = await openRuntime({ scheduledDistillation: false });
    expect(off.discovery().memory?.distillation?.scheduled).toBe(false);
    expect(off.distillationScheduler).toBeUndefined();
    const { rt: none } = await openRuntime({ distillation: false });
    expect(none.discovery().memory?.distillation).toBeUndefined();
    expect(none.distillationScheduler).toBeUndefined();
  });
  it('a scheduled run goes through the SR-1 chokepoint and the validated log like any distillation', async () => {
    const { rt, port, clock } = await openRuntime();
    const ref = 'mem://acme/dreams';
    await registerSecrets(rt, 'acme', 'run-x', { 'byok-1': 'sk-live-secret-000111' });
    await put(rt, ref, { content: 'Used sk-live-secret-000111 for the import.', tier: 'transactional' }, { runId: 'run-x', tenant: 'acme' });
    await request(port, (plan) => rt.distillationScheduler!.schedule(plan, { memoryRef: ref, every: 'P1D', firstAt: clock.now() }));
    // a secret registered after the source was written is redacted by the scheduled run all the same
    await registerSecrets(rt, 'acme', 'run-y', { 'byok-2': 'for the import' });
    const [o] = (await rt.distillationScheduler!.tick()) as Extract<ScheduledRunOutcome, { kind: 'distilled' }>[];
    expect(o!.result.entry.content).toContain('[REDACTED:byok-1]');
    expect(o!.result.entry.content).toContain('[REDACTED:byok-2]');
    expect(o!.result.entry.content).not.toContain('sk-live-secret-000111');
    const events = (await allEvents(port)).filter((e) => e.type === 'memory.compacted');
    expect(events.map((e) => e.payload)).toEqual([o!.result.event]);
  });
});
