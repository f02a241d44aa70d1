/**
 * Issue 12 item 6 (library side): a schedule's period and first instant are parsed and bounded before anything is
 * registered. Huge, zero, overflowing and non-ISO periods and first instants whose next instant would pass the
 * largest Date are refused with a ScheduleError naming the field's refusal code, and a refused schedule leaves the
 * scheduler exactly as it was: every schedule it accepts can be formatted, now and one period later.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DistillationScheduler, MAX_PERIOD_MS, MIN_PERIOD_MS, ScheduleError } from '../../../runtime/distillation/schedule.ts';
import { tenantOf } from '../../../runtime/memory/memory-ref.ts';
import { MAX_DATE_MS } from '../../../runtime/shared/duration.ts';
import { QuotaExceededError } from '../../../runtime/shared/quota.ts';
import { REF, setup, thrown } from '../compaction/fixture.ts';

const scheduler = (maxPerTenant?: number) => {
  const s = setup();
  let n = 0;
  return { s, sch: new DistillationScheduler({ clock: s.clock, distiller: s.distiller, tenantOf, newId: () => `dsch-${++n}`, ...(maxPerTenant !== undefined ? { maxPerTenant } : {}) }) };
};
const codeOf = (f: () => unknown) => (thrown(f) as ScheduleError).code;

describe('schedule bounds (item 6)', () => {
  it('refuses a huge, overflowing, zero or non-ISO period with invalid_period, and registers nothing', () => {
    const { sch } = scheduler();
    for (const every of ['P9999999Y', 'P367D', `P${'9'.repeat(400)}Y`, `PT${'9'.repeat(30)}S`, 'P0D', 'PT0S', 'PT0.5S', '-P1D', 'P1D ', 'one day', 'P']) {
      expect([every, codeOf(() => sch.schedule({ memoryRef: REF, every }))]).toEqual([every, 'invalid_period']);
    }
    expect(sch.list('tenant-a')).toEqual([]);
  });

  it('accepts the bounds themselves: one second and 366 days', () => {
    const { sch } = scheduler();
    expect(sch.schedule({ memoryRef: REF, every: 'PT1S' }).periodMs).toBe(MIN_PERIOD_MS);
    expect(sch.schedule({ memoryRef: REF, every: 'P366D' }).periodMs).toBe(MAX_PERIOD_MS);
  });

  it('refuses a first instant that is not a finite epoch time, precedes 1970, or whose next instant would pass the largest Date', () => {
    const { sch } = scheduler();
    for (const firstAt of [Number.NaN, Number.POSITIVE_INFINITY, -1, MAX_DATE_MS, MAX_DATE_MS - 1000]) {
      expect([firstAt, codeOf(() => sch.schedule({ memoryRef: REF, every: 'PT1H', firstAt }))]).toEqual([firstAt, 'invalid_start']);
    }
    expect(sch.list('tenant-a')).toEqual([]);
  });

  it('property: any period and first instant either registers a schedule whose instants all format, or throws a ScheduleError and registers nothing', () => {
    const period = fc.oneof(
      fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 25n }), fc.constantFrom('Y', 'M', 'W', 'D')).map(([n, u]) => `P${n}${u}`),
      fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 25n }), fc.constantFrom('H', 'M', 'S')).map(([n, u]) => `PT${n}${u}`),
      fc.string({ maxLength: 12 }),
    );
    const firstAt = fc.option(fc.oneof(fc.double(), fc.integer({ min: -1e16, max: 1e16 }), fc.constantFrom(MAX_DATE_MS, MAX_DATE_MS - MAX_PERIOD_MS)), { nil: undefined });
    fc.assert(fc.property(period, firstAt, (every, first) => {
      const { sch } = scheduler();
      let registered;
      try {
        registered = sch.schedule({ memoryRef: REF, every, ...(first !== undefined ? { firstAt: first } : {}) });
      } catch (err) {
        expect(err).toBeInstanceOf(ScheduleError);
        expect(sch.list('tenant-a')).toEqual([]);
        return;
      }
      expect(sch.list('tenant-a')).toHaveLength(1);
      expect(() => new Date(registered.nextAt).toISOString()).not.toThrow();
      expect(() => new Date(registered.nextAt + registered.periodMs).toISOString()).not.toThrow();
    }), { numRuns: 2000 });
  });
});

describe('schedules per tenant (item 8b)', () => {
  it('one past maxPerTenant is a QuotaExceededError (429) that stores nothing; cancelling frees a place; tenants are counted apart', () => {
    const { sch } = scheduler(2);
    const a = sch.schedule({ memoryRef: REF, every: 'PT1H' });
    sch.schedule({ memoryRef: 'mem://tenant-a/other', every: 'PT1H' });
    const err = thrown(() => sch.schedule({ memoryRef: REF, every: 'PT2H' }));
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect((err as QuotaExceededError).toWire().details).toEqual({ resource: 'distillation-schedules', limit: 2 });
    expect(sch.list('tenant-a')).toHaveLength(2);
    sch.schedule({ memoryRef: 'mem://tenant-b/x', every: 'PT1H' });
    expect(sch.cancel(a.scheduleId)).toBe(true);
    expect(sch.schedule({ memoryRef: REF, every: 'PT2H' }).every).toBe('PT2H');
    expect(sch.list('tenant-a').map((s) => s.every)).toEqual(['PT1H', 'PT2H']);
  });
});
