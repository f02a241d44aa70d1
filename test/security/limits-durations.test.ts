/**
 * Issue 12 item 6 (HTTP side): a duration or timestamp on the distill-schedule seam is validated and bounded before
 * anything is stored. `every: "P9999999Y"` used to store the schedule and then fail building the reply (a 500 for a
 * schedule that exists); now it, and every other out-of-range duration or instant, is a 400 validation_failed at
 * the field's JSON pointer, and the tenant's schedule count is unchanged. A property test drives random durations
 * and timestamps through the seam: never a 5xx, and a refusal never changes the count.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateErrorEnvelope, validateHostSampleDistillScheduleResponse } from '../../generated/validators/validators.js';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createHost } from '../../runtime/host/server.ts';
import { durationMs } from '../../runtime/shared/duration.ts';
import { tenantRowCounts } from './store-rows.ts';

const TOKEN = 'durations-test-token-0123456789abcdef';
const TENANT = 'dur';
const REF = `mem://${TENANT}/dreams`;

describe('durations and instants on the distill-schedule seam (item 6)', () => {
  let app: Awaited<ReturnType<typeof createHost>>['app'];
  let store: StoragePort;
  beforeAll(async () => {
    ({ app, store } = await createHost({ token: TOKEN, limits: { distillSchedulesPerTenant: 100_000 } }));
  });
  afterAll(() => app.close());

  /** The tenant's schedules as the store holds them. */
  const count = async () => (await tenantRowCounts(store, TENANT)).schedules!;
  const schedule = async (body: Record<string, unknown>) => {
    const res = await app.inject({ method: 'POST', url: ROUTES.distillSchedule.path, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, payload: JSON.stringify({ memoryRef: REF, ...body }) });
    return { status: res.statusCode, body: res.json() as { error?: string; details?: { failures: { instancePath: string }[] }; nextAt?: string } };
  };

  /** Refused values, by field: [field, value, why]; each is sent with an otherwise valid body. */
  const REFUSED: readonly (readonly ['every' | 'firstAt', string, string])[] = [
    ['every', 'P9999999Y', 'a period past the largest date'],
    ['every', `P${'9'.repeat(400)}Y`, 'a period of 400 nines, which overflows to Infinity'],
    ['every', 'P367D', 'a period over 366 days'],
    ['every', 'P0D', 'a zero period'],
    ['every', 'PT0.1S', 'a sub-second period'],
    ['every', '-P1D', 'a negative period'],
    ['every', 'every day', 'a non-ISO period'],
    ['firstAt', '1969-12-31T23:59:59Z', 'before the epoch'],
    ['firstAt', '0000-01-01T00:00:00Z', 'year zero'],
    ['firstAt', '2026-12-31T23:59:60Z', 'a leap second Date cannot hold'],
    ['firstAt', '2026-13-01T00:00:00Z', 'not a date-time'],
    ['firstAt', '9999-12-31T23:59:00-12:00', 'past 9999 in UTC, an answer no date-time can write'],
  ];
  it.each(REFUSED)('%s: %.24s (%s) → 400 validation_failed at the field, nothing stored', async (field, value) => {
    const before = await count();
    const r = await schedule({ every: 'PT1H', [field]: value });
    expect(r.status).toBe(400);
    expect(validateErrorEnvelope(r.body)).toBe(true);
    expect(r.body.error).toBe('validation_failed');
    expect(r.body.details!.failures[0]!.instancePath).toBe(`/${field}`);
    expect(await count()).toBe(before);
  });

  it('the largest accepted values are stored and answered with a formatted nextAt', async () => {
    const r = await schedule({ every: 'P366D', firstAt: '9999-12-31T23:59:59.999Z' });
    expect(r.status).toBe(201);
    expect(validateHostSampleDistillScheduleResponse(r.body)).toBe(true);
    expect(r.body.nextAt).toBe('9999-12-31T23:59:59.999Z');
  });

  it('a firstAt written in 9999 whose offset puts it past 9999-12-31T23:59:59.999Z in UTC is refused (its answer could not be a date-time)', async () => {
    const before = await count();
    for (const firstAt of ['9999-12-31T23:59:00-12:00', '9999-12-31T23:59:59.999-00:01']) {
      const r = await schedule({ every: 'PT1H', firstAt });
      expect(r.status, firstAt).toBe(400);
      expect(validateErrorEnvelope(r.body)).toBe(true);
    }
    expect(await count()).toBe(before);
    const last = await schedule({ every: 'PT1H', firstAt: '9999-12-31T23:59:59.999+00:00' });
    expect(last.status).toBe(201);
    expect(last.body.nextAt).toBe('9999-12-31T23:59:59.999Z');
  });

  it('property: random durations and timestamps never produce a 5xx, and a refused request leaves the schedule count unchanged', async () => {
    const digits = fc.oneof(fc.nat({ max: 400 }).map(String), fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String), fc.constantFrom('0', '00', '9999999', '9'.repeat(320)));
    const every = fc.oneof(
      fc.tuple(digits, fc.constantFrom('Y', 'M', 'W', 'D')).map(([n, u]) => `P${n}${u}`),
      fc.tuple(digits, fc.constantFrom('H', 'M', 'S', '.5S')).map(([n, u]) => `PT${n}${u}`),
      fc.tuple(digits, digits).map(([y, d]) => `P${y}Y${d}DT${d}H`),
      fc.string({ maxLength: 16 }),
    );
    const year = fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(1969, 1970, 9999)).map((y) => String(y).padStart(4, '0'));
    const firstAt = fc.option(fc.oneof(
      fc.tuple(year, fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 60 }), fc.constantFrom('Z', '+14:00', '-12:00', '.999Z', ''))
        .map(([y, mo, d, s, z]) => `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}T23:59:${String(s).padStart(2, '0')}${z}`),
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.string({ maxLength: 30 }),
    ), { nil: undefined });
    const seen = { created: 0, refused: 0 };
    await fc.assert(fc.asyncProperty(every, firstAt, async (e, f) => {
      const before = await count();
      const r = await schedule({ every: e, ...(f !== undefined ? { firstAt: f } : {}) });
      expect(r.status, JSON.stringify({ e: e.slice(0, 40), f, body: r.body })).toBeLessThan(500);
      if (r.status === 201) {
        seen.created++;
        expect(validateHostSampleDistillScheduleResponse(r.body)).toBe(true);
        expect(await count()).toBe(before + 1);
      } else {
        seen.refused++;
        expect(validateErrorEnvelope(r.body)).toBe(true);
        expect(await count()).toBe(before);
      }
    }), { numRuns: 1500 });
    // Both outcomes were exercised (the property is not vacuous).
    expect(seen.created).toBeGreaterThan(20);
    expect(seen.refused).toBeGreaterThan(20);
  });
});

describe('durationMs', () => {
  it('reads PnYnMnWnDTnHnMnS (years 365 days, months 30) and refuses what is not one, or what overflows', () => {
    expect(durationMs('PT1H30M')).toBe(5_400_000);
    expect(durationMs('P1Y')).toBe(365 * 86_400_000);
    expect(durationMs('PT0.5S')).toBe(500);
    for (const s of ['', 'P', 'PT', '1D', 'P1H', '-P1D', `P${'9'.repeat(400)}Y`]) expect([s, durationMs(s)]).toEqual([s, null]);
  });
});
