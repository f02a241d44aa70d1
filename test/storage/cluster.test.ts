/**
 * Several host processes on one PostgreSQL database (runtime/host/cluster/, runtime/storage/postgres/lease.ts):
 * - the lease: exactly one holder at a time; a later holder gets a higher epoch; a holder whose session dies is
 *   told, and every write it still tries is refused by the fence (the rule that keeps a stale process from
 *   committing over the new active host's state);
 * - two hosts in one process, each with its own store connection, as two processes would be: one is active, the
 *   other forwards; writes through either land once in one gap-free event log; closing the active host hands over
 *   to the other, which serves everything written before; a lost lease stops the active host from serving.
 * Optional toolchain `postgres` (skipped with its reason when no server can be reached).
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../generated/ts/index.ts';
import { createHost } from '../../runtime/host/server.ts';
import { openPostgresStore } from '../../runtime/storage/postgres/index.ts';
import { LeaseFencedError, type StoragePort } from '../../runtime/storage/port.ts';
import { freshDatabase, type TestDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';

const pgTool = toolchain('postgres');
const TOKEN = 'cluster-test-operator-token';
let db: TestDatabase | undefined;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  if (!pgTool.skip) db = await freshDatabase('cluster');
});
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f().catch(() => undefined);
});
afterAll(() => db?.drop());

async function store(): Promise<StoragePort> {
  const s = await openPostgresStore(db!.url, { pollMs: 20, heartbeatMs: 100 });
  cleanup.push(() => s.close());
  return s;
}

/** End the session that holds the lease, as a server restart or a network cut would (the process lives on). */
async function cutLeaseSession(): Promise<number> {
  const c = new pg.Client({ connectionString: db!.url });
  await c.connect();
  try {
    const r = await c.query(`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
    return r.rowCount ?? 0;
  } finally {
    await c.end();
  }
}

const until = async (cond: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.skipIf(pgTool.skip)('the active-host lease (PostgreSQL)', () => {
  it('one holder at a time; the next holder gets a higher epoch once the first releases', async () => {
    pgTool.assert();
    const [a, b] = [(await store()).lease!(), (await store()).lease!()];
    cleanup.push(() => a.release(), () => b.release());
    const ea = await a.acquire();
    const waiting = new AbortController();
    const bTook = b.acquire(waiting.signal);
    let bHeld = false;
    void bTook.then(() => (bHeld = true), () => undefined);
    await new Promise((r) => setTimeout(r, 300));
    expect(bHeld).toBe(false);
    await a.publish('http://a.test');
    expect(await b.active()).toEqual({ url: 'http://a.test', epoch: ea });
    await a.release();
    const eb = await bTook;
    expect(eb).toBeGreaterThan(ea);
    expect(await b.active()).toBeUndefined(); // taken, not yet published
  });

  it('a holder whose session dies is told, and every write it then tries is refused by the fence', async () => {
    pgTool.assert();
    const s1 = await store();
    const s2 = await store();
    const l1 = s1.lease!();
    const lost: Error[] = [];
    l1.onLost((err) => lost.push(err));
    cleanup.push(() => l1.release());
    const e1 = await l1.acquire();
    const write = (s: StoragePort, id: string) => s.batch!(() => s.memory.upsert('t', 'mem://t/x', { id, content: id, tags: [], createdAt: '2026-11-26T00:00:00.000Z' }));
    await write(s1, 'before');

    expect(await cutLeaseSession()).toBe(1);
    await until(() => lost.length > 0);
    const l2 = s2.lease!();
    cleanup.push(() => l2.release());
    const e2 = await l2.acquire();
    expect(e2).toBe(e1 + 1);

    const stale = await write(s1, 'stale').then(() => undefined, (err: unknown) => err);
    expect(stale).toBeInstanceOf(LeaseFencedError);
    expect(stale).toMatchObject({ held: e1, current: e2 });
    await write(s2, 'after');
    expect((await s2.memory.list('t', 'mem://t/x')).map((e) => e.id)).toEqual(['after', 'before']);
  });
});

describe.skipIf(pgTool.skip)('the lease heartbeat', () => {
  it("tells the holder it lost the lease when the store's epoch is no longer its own, though its session lives", async () => {
    pgTool.assert();
    const l = (await store()).lease!();
    const lost: Error[] = [];
    l.onLost((err) => lost.push(err));
    cleanup.push(() => l.release());
    const epoch = await l.acquire();
    const c = new pg.Client({ connectionString: db!.url });
    await c.connect();
    await c.query('UPDATE cluster_lease SET epoch = epoch + 1 WHERE id = 1');
    await c.end();
    await until(() => lost.length > 0);
    expect(lost[0]!.message).toContain(`this holder's ${epoch}`);
  });
});

describe.skipIf(pgTool.skip)('two hosts on one database', () => {
  async function member(waitMs = 10_000) {
    const lost: Error[] = [];
    const h = await createHost({ token: TOKEN, storage: await store(), logger: false, cluster: { waitMs, onLost: (err) => lost.push(err) } });
    cleanup.push(() => h.app.close());
    const url = await h.app.listen({ port: 0, host: '127.0.0.1' });
    h.cluster!.start(url);
    return { ...h, url, cluster: h.cluster!, lost };
  }
  const call = async (url: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(url + path, { method, headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  /** Each test writes in a run of its own (the database is shared by the file's tests). */
  let runId = '';
  let runs = 0;
  beforeEach(() => {
    runId = `shared-run-${++runs}`;
  });
  const seed = (url: string, content: string) => call(url, 'POST', '/v1/host/sample/memory/seed', { memoryRef: 'mem://ten-a/notes', runId, entries: [{ content }] });
  const events = async (url: string) => ((await call(url, 'GET', `/v1/runs/${runId}/events`)).json.events as RunEvent[]);

  it('one serves, the other forwards: concurrent writes through both land once each in one gap-free log, readable through either', async () => {
    pgTool.assert();
    const a = await member();
    await a.cluster.whenActive();
    const b = await member();
    expect([a.cluster.role(), b.cluster.role()]).toEqual(['active', 'standby']);

    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => seed(i % 2 === 0 ? a.url : b.url, `entry ${i} ✓`)));
    expect(answers.map((r) => r.status)).toEqual(Array(24).fill(200));
    const ids = answers.map((r) => (r.json.entries as { id: string }[])[0]!.id);
    for (const url of [a.url, b.url]) {
      const log = await events(url);
      expect(log.map((e) => e.sequence)).toEqual(log.map((_, i) => i));
      expect(log.filter((e) => e.type === 'memory.written').map((e) => e.payload.memoryId).sort()).toEqual([...ids].sort());
    }
    const read = await call(b.url, 'GET', `/v1/host/sample/memory/entry?tenant=ten-a&memoryRef=${encodeURIComponent('mem://ten-a/notes')}&id=${ids[0]}`);
    expect(read.status).toBe(200);
  });

  it('closing the active host hands over: the standby takes the lease, loads the store and serves what was written before', async () => {
    pgTool.assert();
    const a = await member();
    await a.cluster.whenActive();
    const b = await member();
    const before = await seed(b.url, 'written before the handover');
    expect(before.status).toBe(200);
    await a.app.close();
    await b.cluster.whenActive();
    expect(b.cluster.role()).toBe('active');
    const after = await seed(b.url, 'written after');
    expect(after.status).toBe(200);
    const log = await events(b.url);
    expect(log.map((e) => e.sequence)).toEqual(log.map((_, i) => i));
    expect(log.filter((e) => e.type === 'memory.written')).toHaveLength(2);
  });

  it('an active host that loses its lease stops serving from its state: it is told, forwards instead, and the other host takes over', async () => {
    pgTool.assert();
    const a = await member(3_000);
    await a.cluster.whenActive();
    const b = await member(3_000);
    expect((await seed(a.url, 'one')).status).toBe(200);
    await cutLeaseSession();
    await until(() => a.lost.length > 0);
    expect(a.cluster.role()).toBe('lost');
    await b.cluster.whenActive();
    // A request to the host that lost its lease is forwarded to the new active host, not served from stale state.
    expect((await seed(a.url, 'two')).status).toBe(200);
    const log = await events(b.url);
    expect(log.map((e) => e.sequence)).toEqual([0, 1]);
  });
});
