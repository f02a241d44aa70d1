/** Scheduled distillation over HTTP: register, tick, read back; tenant-scoped; the background work; 501 when not wired. */
import { describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES, targetOf } from '../../runtime/host/seam-catalogue.ts';
import {
  validateCapabilities, validateErrorEnvelope, validateHostSampleDistillScheduleResponse, validateHostSampleDistillScheduleTickResponse,
} from '../../generated/validators/validators.js';

const TOKEN = 'distill-schedule-test-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const REF = 'mem://acme/dreams';
type App = Awaited<ReturnType<typeof createHost>>['app'];
const post = (app: App, url: string, body: unknown) => app.inject({ method: 'POST', url, headers: H, payload: JSON.stringify(body) });
const get = (app: App, url: string) => app.inject({ method: 'GET', url, headers: H });
const seed = (app: App, memoryRef = REF) => post(app, ROUTES.memorySeed.path, { memoryRef, entries: [{ content: 'Ticket 1 resolved.', tier: 'transactional' }, { content: 'Ticket 2 resolved.', tier: 'transactional' }] });
const S = ROUTES.distillSchedule.path;
const TICK = ROUTES.distillScheduleTick.path;
const DISCOVERY = ROUTES.discovery.path;
/** GET of one schedule as one tenant sees it. */
const READ = (id: string, tenant: string) => targetOf(ROUTES.distillScheduleRead, { query: { id, tenant } });

describe('scheduled distillation seams', () => {
  it('register → tick runs the due instant once → the schedule shows its last outcome; the archive is readable', async () => {
    const { app } = await createHost({ token: TOKEN });
    expect(validateCapabilities((await get(app, DISCOVERY)).json())).toBe(true);
    expect((await get(app, DISCOVERY)).json().memory.distillation.scheduled).toBe(true);
    await seed(app);
    const created = await post(app, S, { memoryRef: REF, every: 'PT1H', firstAt: new Date(Date.now() - 1000).toISOString() });
    expect(created.statusCode).toBe(201);
    expect(validateHostSampleDistillScheduleResponse(created.json())).toBe(true);
    const id = created.json().scheduleId as string;
    const tick = await post(app, TICK, { tenant: 'acme' });
    expect(validateHostSampleDistillScheduleTickResponse(tick.json())).toBe(true);
    expect(tick.json().outcomes).toEqual([expect.objectContaining({ kind: 'distilled', scheduleId: id, missed: 0, event: expect.objectContaining({ trigger: 'host-managed', distillation: expect.objectContaining({ indexUpdated: true }) }) })]);
    expect((await post(app, TICK, { tenant: 'acme' })).json()).toEqual({ outcomes: [] });
    const read = (await get(app, READ(id, 'acme'))).json();
    expect(validateHostSampleDistillScheduleResponse(read)).toBe(true);
    expect(read.lastOutcome.archiveId).toBe(tick.json().outcomes[0].archiveId);
    expect(Date.parse(read.nextAt)).toBeGreaterThan(Date.now());
    const archives = (await get(app, targetOf(ROUTES.memoryEntries, { query: { tenant: 'acme', memoryRef: REF, tag: 'distilled-archive' } }))).json();
    expect(archives.entries.map((e: { id: string }) => e.id)).toEqual([read.lastOutcome.event.outputId]);
    await app.close();
  });

  it('CTI-1: another tenant cannot read the schedule, and a tick runs only the named tenant\'s schedules', async () => {
    const { app } = await createHost({ token: TOKEN });
    await seed(app);
    await seed(app, 'mem://globex/dreams');
    const past = new Date(Date.now() - 1000).toISOString();
    const a = (await post(app, S, { memoryRef: REF, every: 'PT1H', firstAt: past })).json();
    await post(app, S, { memoryRef: 'mem://globex/dreams', every: 'PT1H', firstAt: past });
    const other = await get(app, READ(a.scheduleId, 'globex'));
    expect(other.statusCode).toBe(404);
    expect(validateErrorEnvelope(other.json())).toBe(true);
    const tick = (await post(app, TICK, { tenant: 'globex' })).json();
    expect(tick.outcomes).toHaveLength(1);
    expect(tick.outcomes[0].event.memoryRef).toBe('mem://globex/dreams');
    // A tick for globex runs globex's schedules only: acme's is still due, and acme's own tick runs it.
    expect((await get(app, READ(a.scheduleId, 'acme'))).json().lastOutcome).toBeUndefined();
    expect((await post(app, TICK, { tenant: 'acme' })).json().outcomes.map((o: { scheduleId: string }) => o.scheduleId)).toEqual([a.scheduleId]);
    expect((await get(app, READ(a.scheduleId, 'acme'))).json().lastOutcome.kind).toBe('distilled');
    await app.close();
  });

  it('refuses a sub-second period and a malformed ref with pointers', async () => {
    const { app } = await createHost({ token: TOKEN });
    const r = await post(app, S, { memoryRef: REF, every: 'PT0.1S' });
    expect(r.statusCode).toBe(400);
    expect(r.json().details.failures[0].instancePath).toBe('/every');
    const bad = await post(app, S, { memoryRef: 'mem://../x', every: 'PT1H' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.failures[0].instancePath).toBe('/memoryRef');
    await app.close();
  });

  it('the background work runs due schedules without a tick call, and stops with the host', async () => {
    const { app, background } = await createHost({ token: TOKEN, backgroundIdleMs: 20 });
    await seed(app);
    const { scheduleId } = (await post(app, S, { memoryRef: REF, every: 'PT1H', firstAt: new Date(Date.now() - 1000).toISOString() })).json();
    let last: unknown;
    for (let i = 0; i < 50 && last === undefined; i++) {
      await new Promise((r) => setTimeout(r, 50));
      last = (await get(app, READ(scheduleId, 'acme'))).json().lastOutcome;
    }
    expect(last).toMatchObject({ kind: 'distilled', scheduleId });
    await app.close();
    // Closed: the loop has stopped, and a pass would find the store closed.
    await expect(background.runOnce()).rejects.toThrow();
    await expect(createHost({ token: TOKEN, backgroundIdleMs: 5 })).rejects.toThrow(/backgroundIdleMs/);
  });

  it('without scheduled distillation: discovery says scheduled false and the seams answer 501', async () => {
    const { app } = await createHost({ token: TOKEN, modules: { scheduledDistillation: false } });
    expect((await get(app, DISCOVERY)).json().memory.distillation.scheduled).toBe(false);
    for (const [url, body] of [[S, { memoryRef: REF, every: 'PT1H' }], [TICK, { tenant: 'acme' }]] as const) {
      const r = await post(app, url, body);
      expect(r.statusCode).toBe(501);
      expect(r.json()).toMatchObject({ error: 'capability_not_provided', details: { capability: 'memory.distillation' } });
    }
    await app.close();
  });
});
