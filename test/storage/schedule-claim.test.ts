/**
 * One run per distillation-schedule slot across processes (issue 13): a scheduler claims each instant in the store
 * and runs it only when the store answered true, so two runtimes sharing one SQLite file that both find the same
 * instant due run it once between them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openwopDurability } from '../../runtime/openwop/durable.ts';
import { createOpenwopRuntime } from '../../runtime/openwop/index.ts';
import { SQLITE_FILE } from '../../runtime/storage/open-store.ts';
import { openSqliteStore } from '../../runtime/storage/sqlite/index.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-schedule-claim-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const clock = { t: T0, now() { return this.t; } };
const REF = 'mem://acme/dreams';

async function boot() {
  // Unlocked: two runtimes on one file at once stand for two processes, which the data directory's lock refuses in
  // a real host; this checks the store's claim rule that holds even so.
  const port = await openSqliteStore(join(dataDir, SQLITE_FILE), { lock: false });
  const durability = openwopDurability(port);
  const rt = createOpenwopRuntime({ clock, persistence: durability.persistence });
  await durability.attach(rt);
  return { port, rt, queue: durability.queue };
}

describe('schedule slots are claimed in the store before they run', () => {
  it('two runtimes on one store that both find an instant due run it once between them', async () => {
    const a = await boot();
    a.rt.writer.put(REF, { content: 'Ticket 1 resolved.', tier: 'transactional' }, { tenant: 'acme' });
    const schedule = a.rt.distillationScheduler!.schedule({ memoryRef: REF, every: 'PT10S', firstAt: T0 + 5_000 });
    await a.queue.flush();
    const b = await boot(); // a second process: loads the same schedule, nothing claimed yet

    clock.t = T0 + 6_000;
    // One after the other: two connections of one process cannot wait for each other's write lock (SQLite's busy
    // wait blocks the event loop), and b's working state does not know about a's claim either way.
    const ranA = await a.rt.distillationScheduler!.tick();
    await a.queue.flush();
    const ranB = await b.rt.distillationScheduler!.tick();
    await b.queue.flush();
    expect([...ranA, ...ranB].map((o) => o.instant)).toEqual([new Date(T0 + 5_000).toISOString()]);
    expect((await a.port.schedules.runs(schedule.scheduleId)).map((r) => r.slot)).toEqual([T0 + 5_000]);

    // Neither runs the instant again, and the next instant again runs once.
    expect(await a.rt.distillationScheduler!.tick()).toEqual([]);
    expect(await b.rt.distillationScheduler!.tick()).toEqual([]);
    clock.t = T0 + 16_000;
    // (a runs it again: b's working state does not hold a's writes, so only one runtime may write — see
    // docs/storage.md on several processes per database.)
    const next = await a.rt.distillationScheduler!.tick();
    await a.queue.flush();
    next.push(...(await b.rt.distillationScheduler!.tick()));
    await b.queue.flush();
    expect(next.map((o) => o.instant)).toEqual([new Date(T0 + 15_000).toISOString()]);
    await a.port.close();
    await b.port.close();
  });
});
