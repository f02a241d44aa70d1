/**
 * Issue 12 item 6 (library side): a schedule's period and first instant are parsed and bounded before anything is
 * registered. Huge, zero, overflowing and non-ISO periods and first instants whose next instant would pass the
 * largest Date are refused with a ScheduleError naming the field's refusal code, and a refused schedule leaves the
 * store exactly as it was: every schedule it accepts can be formatted, now and one period later.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PERIOD_MS, MIN_PERIOD_MS, ScheduleError } from '../../../runtime/distillation/schedule.ts';
import { MAX_DATE_MS } from '../../../runtime/shared/duration.ts';
import { QuotaExceededError } from '../../../runtime/shared/quota.ts';
import { commitDetached, detachedTx } from '../../../runtime/storage/unit-of-work.ts';
import { REF, setup, thrown, type Env } from '../compaction/fixture.ts';
import { cancel, schedule, scheduler, schedulesOf } from './scheduling.ts';

const make = async (maxPerTenant?: number) => {
  const s = await setup();
  return { s, sch: scheduler(s, maxPerTenant !== undefined ? { maxPerTenant } : {}) };
};
/** The refusal's code; a refused schedule plans nothing. */
const codeOf = (s: Env, sch: ReturnType<typeof scheduler>, req: Parameters<typeof schedule>[2]) => {
  const plan = detachedTx(s.port);
  const err = (() => {
    try {
      sch.schedule(plan, req);
    } catch (e) {
      return e;
    }
    return undefined;
  })() as ScheduleError | undefined;
  expect(plan.size).toBe(0);
  return err?.code;
};

describe('schedule bounds (item 6)', () => {
  it('refuses a huge, overflowing, zero or non-ISO period with invalid_period, and registers nothing', async () => {
    const { s, sch } = await make();
    for (const every of ['P9999999Y', 'P367D', `P${'9'.repeat(400)}Y`, `PT${'9'.repeat(30)}S`, 'P0D', 'PT0S', 'PT0.5S', '-P1D', 'P1D ', 'one day', 'P']) {
      expect([every, codeOf(s, sch, { memoryRef: REF, every })]).toEqual([every, 'invalid_period']);
    }
    expect(await schedulesOf(s, 'tenant-a')).toEqual([]);
  });

  it('accepts the bounds themselves: one second and 366 days', async () => {
    const { s, sch } = await make();
    expect((await schedule(s, sch, { memoryRef: REF, every: 'PT1S' })).periodMs).toBe(MIN_PERIOD_MS);
    expect((await schedule(s, sch, { memoryRef: REF, every: 'P366D' })).periodMs).toBe(MAX_PERIOD_MS);
  });

  it('refuses a first instant that is not a finite epoch time, precedes 1970, or whose next instant would pass the largest Date', async () => {
    const { s, sch } = await make();
    for (const firstAt of [Number.NaN, Number.POSITIVE_INFINITY, -1, MAX_DATE_MS, MAX_DATE_MS - 1000]) {
      expect([firstAt, codeOf(s, sch, { memoryRef: REF, every: 'PT1H', firstAt })]).toEqual([firstAt, 'invalid_start']);
    }
    expect(await schedulesOf(s, 'tenant-a')).toEqual([]);
  });

  it('property: any period and first instant either registers a schedule whose instants all format, or throws a ScheduleError and registers nothing', async () => {
    const period = fc.oneof(
      fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 25n }), fc.constantFrom('Y', 'M', 'W', 'D')).map(([n, u]) => `P${n}${u}`),
      fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 25n }), fc.constantFrom('H', 'M', 'S')).map(([n, u]) => `PT${n}${u}`),
      fc.string({ maxLength: 12 }),
    );
    const firstAt = fc.option(fc.oneof(fc.double(), fc.integer({ min: -1e16, max: 1e16 }), fc.constantFrom(MAX_DATE_MS, MAX_DATE_MS - MAX_PERIOD_MS)), { nil: undefined });
    const { s, sch } = await make(1_000_000);
    let held = 0;
    await fc.assert(fc.asyncProperty(period, firstAt, async (every, first) => {
      let registered;
      try {
        registered = await schedule(s, sch, { memoryRef: REF, every, ...(first !== undefined ? { firstAt: first } : {}) });
      } catch (err) {
        expect(err).toBeInstanceOf(ScheduleError);
        expect(await schedulesOf(s, 'tenant-a')).toHaveLength(held);
        return;
      }
      held++;
      expect(await schedulesOf(s, 'tenant-a')).toHaveLength(held);
      expect(() => new Date(registered.nextAt).toISOString()).not.toThrow();
      expect(() => new Date(registered.nextAt + registered.periodMs).toISOString()).not.toThrow();
    }), { numRuns: 1000 });
  });
});

describe('schedules per tenant (item 8b)', () => {
  it('one past maxPerTenant is a QuotaExceededError (429) that stores nothing; cancelling frees a place; tenants are counted apart', async () => {
    const { s, sch } = await make(2);
    const a = await schedule(s, sch, { memoryRef: REF, every: 'PT1H' });
    s.clock.advance(1);
    await schedule(s, sch, { memoryRef: 'mem://tenant-a/other', every: 'PT1H' });
    const err = await thrown(() => schedule(s, sch, { memoryRef: REF, every: 'PT2H' }));
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect((err as QuotaExceededError).toWire().details).toEqual({ resource: 'distillation-schedules', limit: 2 });
    expect(await schedulesOf(s, 'tenant-a')).toHaveLength(2);
    await schedule(s, sch, { memoryRef: 'mem://tenant-b/x', every: 'PT1H' });
    expect(await cancel(s, sch, 'tenant-a', a.scheduleId)).toBe(true);
    s.clock.advance(1);
    expect((await schedule(s, sch, { memoryRef: REF, every: 'PT2H' })).every).toBe('PT2H');
    expect((await schedulesOf(s, 'tenant-a')).map((x) => x.every)).toEqual(['PT1H', 'PT2H']);
  });
});
