/**
 * Background work across hosts (issue 23): work one host creates is done by any host, and an idle host hears of it
 * at once through PostgreSQL's LISTEN/NOTIFY instead of at its next look at the agenda; with LISTEN off (behind a
 * pooler in transaction mode) it waits for that look. An idle host asks its database one question per `idleMs`.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createHost, type Host } from '../../runtime/host/server.ts';
import { SecretKeyRing } from '../../runtime/redaction/sealing.ts';
import { openStore } from '../../runtime/storage/open-store.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { openPostgresStore } from '../../runtime/storage/postgres/index.ts';
import { freshDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';

const pg = toolchain('postgres');
const TOKEN = 'wake-test-operator-token-0123456';
const keys = { token: TOKEN, secretKeys: new SecretKeyRing([{ id: 'w', key: randomBytes(32) }]), cursorKey: randomBytes(32), logger: false } as const;
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Schedule slots run so far (any schedule). */
const slotsRun = async (port: StoragePort): Promise<number> => Number(Number((await port.reads.get('SELECT count(*) AS n FROM schedule_runs', []))!.n));

/** Through `via` (a host without background work), a distillation schedule whose first instant is now. */
async function scheduleDueNow(via: Host): Promise<void> {
  const r = await via.app.inject({ method: 'POST', url: ROUTES.distillSchedule.path, headers: H, payload: JSON.stringify({ memoryRef: `mem://acme/wake-${randomBytes(3).toString('hex')}`, every: 'PT1H', firstAt: new Date(Date.now() - 1000).toISOString() }) });
  expect(r.statusCode, r.body).toBe(201);
}

async function untilOrTimeout(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(50);
  }
  return check();
}

describe('background work across hosts (PostgreSQL)', () => {
  for (const listen of [true, false]) {
    it.skipIf(pg.skip)(`an idle host ${listen ? 'hears at once of' : 'with LISTEN off does not hear of'} work another host created`, async () => {
      pg.assert();
      const db = await freshDatabase(`wake-${listen ? 'on' : 'off'}`);
      // The creating host does no background work; the idle one sleeps a minute between looks unless woken.
      const creator = await createHost({ ...keys, storage: await openStore({ kind: 'postgres', url: db.url }) });
      const idle = await createHost({ ...keys, storage: await openPostgresStore(db.url, { listen }), backgroundIdleMs: 60_000 });
      try {
        await sleep(500); // its first look at the agenda is over: it sleeps now
        await scheduleDueNow(creator);
        const ran = await untilOrTimeout(async () => (await slotsRun(idle.store)) > 0, 3000);
        expect(ran).toBe(listen);
      } finally {
        await creator.app.close();
        await idle.app.close();
        await db.drop();
      }
    }, 30_000);
  }
});

describe('an idle host', () => {
  it('asks its database one question per idleMs', async () => {
    const store = await openStore({ kind: 'memory' });
    let queries = 0;
    const reads = store.reads;
    const counting: StoragePort['reads'] = { ...reads, get: (sql, params) => (queries++, reads.get(sql, params)), all: (sql, params, limit) => (queries++, reads.all(sql, params, limit)), run: (sql, params) => (queries++, reads.run(sql, params)), returning: (sql, params) => (queries++, reads.returning(sql, params)) };
    Object.assign(store, { reads: counting });
    const host = await createHost({ ...keys, storage: store, backgroundIdleMs: 250 });
    try {
      await sleep(300);
      const before = queries;
      await sleep(1000);
      const during = queries - before;
      expect(during).toBeGreaterThanOrEqual(2); // it does look
      expect(during).toBeLessThanOrEqual(5); // and no more than once per 250 ms
    } finally {
      await host.app.close();
    }
  });
});
