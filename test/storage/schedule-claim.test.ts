/**
 * One run per distillation-schedule slot across processes: a scheduler takes each instant in the same transaction
 * as the run's writes, conditionally on the schedule's next instant being the one it read, so runtimes sharing one
 * store that find the same instant due at the same moment run it once between them — whatever order their ticks
 * and clocks take. Two runtimes on one SQLite file (two connections, two writer threads; unlocked, which a real host
 * refuses, to check the store's own rule) and, when a server is there, two on one PostgreSQL database.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createOpenwopRuntime, type OpenwopRuntime } from '../../runtime/openwop/index.ts';
import { SecretKeyRing } from '../../runtime/redaction/sealing.ts';
import { ManualClock } from '../../runtime/shared/clock.ts';
import { SQLITE_FILE } from '../../runtime/storage/open-store.ts';
import { unitOfWork, type Tx } from '../../runtime/storage/index.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { openPostgresStore } from '../../runtime/storage/postgres/index.ts';
import { openSqliteStore } from '../../runtime/storage/sqlite/index.ts';
import { freshDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';

const pg = toolchain('postgres');
const root = mkdtempSync(join(tmpdir(), 'wopkit-schedule-claim-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
  rmSync(root, { recursive: true, force: true });
});

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const PERIOD = 10_000;
const keys = new SecretKeyRing([{ id: 'k', key: Buffer.alloc(32, 7) }]);
let n = 0;

/** Two stores on one location: what two host processes on one database are. */
type OpenPair = () => Promise<[StoragePort, StoragePort]>;
const sqlitePair: OpenPair = async () => {
  const dir = join(root, `s${n++}`);
  mkdirSync(dir);
  const file = join(dir, SQLITE_FILE);
  const a = await openSqliteStore(file, { lock: false });
  return [a, await openSqliteStore(file, { lock: false })];
};
const postgresPair: OpenPair = async () => {
  const db = await freshDatabase('schedule-claim');
  cleanups.push(() => db.drop());
  return [await openPostgresStore(db.url), await openPostgresStore(db.url)];
};

const runtimeOn = (port: StoragePort, clock: ManualClock): OpenwopRuntime => createOpenwopRuntime({ port, clock, secretKeys: keys });

async function request<T>(rt: OpenwopRuntime, f: (tx: Tx) => Promise<T> | T): Promise<T> {
  return unitOfWork(rt.port, f);
}

/** Slots recorded for `scheduleId`, in order. */
const slots = async (port: StoragePort, scheduleId: string): Promise<number[]> =>
  (await port.reads.all('SELECT slot FROM schedule_runs WHERE schedule_id = ? ORDER BY slot', [scheduleId], 1000)).map((r) => Number(r.slot));

for (const [name, open, skip] of [['SQLite', sqlitePair, false], ['PostgreSQL', postgresPair, pg.skip]] as const) {
  describe(`schedule slots are taken in the store (${name})`, () => {
    it.skipIf(skip)('two runtimes on one store that tick at once, over any sequence of clock steps, run every due instant exactly once between them', async () => {
      if (name === 'PostgreSQL') pg.assert();
      const [pa, pb] = await open();
      try {
        await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 3 * PERIOD }), { minLength: 1, maxLength: 6 }), async (steps) => {
          // One clock for both, as for hosts with synchronised clocks: each step moves it, then both tick together.
          const clock = new ManualClock(T0);
          const [a, b] = [runtimeOn(pa, clock), runtimeOn(pb, clock)];
          const ref = `mem://acme/dreams-${n++}`;
          const schedule = await request(a, async (plan) => {
            await a.writer.put(plan, ref, { content: 'Ticket 1 resolved.', tier: 'transactional' }, { tenant: 'acme' });
            return a.distillationScheduler!.schedule(plan, { memoryRef: ref, every: 'PT10S', firstAt: T0 + PERIOD / 2 });
          });
          const ran: number[] = [];
          for (const step of steps) {
            clock.advance(step);
            const [ra, rb] = await Promise.all([a.distillationScheduler!.tick({ tenant: 'acme' }), b.distillationScheduler!.tick({ tenant: 'acme' })]);
            for (const o of [...ra, ...rb]) if (o.scheduleId === schedule.scheduleId) ran.push(Date.parse(o.instant));
          }
          // Every instant due at some tick ran once (missed ones in between coalesce into the latest), none twice.
          expect(new Set(ran).size).toBe(ran.length);
          expect(await slots(pa, schedule.scheduleId)).toEqual([...ran].sort((x, y) => x - y));
          const due = clock.now() >= T0 + PERIOD / 2;
          if (due) expect(ran.length).toBeGreaterThan(0);
          // Both now agree nothing is due until the next instant.
          expect([...(await a.distillationScheduler!.tick({ tenant: 'acme' })), ...(await b.distillationScheduler!.tick({ tenant: 'acme' }))].filter((o) => o.scheduleId === schedule.scheduleId)).toEqual([]);
        }), { numRuns: 12 });
      } finally {
        await pa.close();
        await pb.close();
      }
    }, 120_000);
  });
}
