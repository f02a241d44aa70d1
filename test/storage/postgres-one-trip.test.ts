/**
 * PostgreSQL's one-round-trip commit (runtime/storage/postgres/one-trip.ts): the write path's usual plan goes to the
 * server as one call, and whatever the call does not handle itself goes back to the ordinary path. Checked here:
 * - a one-entry seed costs one round trip (the function's definition once per connection besides);
 * - for random sequences of plans that hit every hand-back case (an id that exists, a count past its bound, a stale
 *   registry version, a run of another tenant, an unknown run, a run at its event bound, a log that keeps only its
 *   newest events) a store with the fast path and one without answer the same and leave the same rows;
 * - a database where the role may not create temporary objects still takes every write (statement by statement).
 * Needs a server (optional toolchain `postgres`): skipped with the reason when none can be reached.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import pg from 'pg';
import type { WriteOp } from '../../runtime/storage/ops/index.ts';
import { openPostgresStore } from '../../runtime/storage/postgres/index.ts';
import type { StoragePort, WritePlan } from '../../runtime/storage/port.ts';
import { freshDatabase, type TestDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';

const pgToolchain = toolchain('postgres');
const pgIt = it.skipIf(pgToolchain.skip);

const databases: TestDatabase[] = [];
const stores: StoragePort[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

async function store(label: string, oneTrip: boolean): Promise<{ store: StoragePort; url: string }> {
  const db = await freshDatabase(label);
  databases.push(db);
  const s = await openPostgresStore(db.url, { oneTrip, listen: false });
  stores.push(s);
  return { store: s, url: db.url };
}

interface SeedShape {
  readonly tenant: string;
  readonly runOwner: string;
  readonly id: string;
  readonly tags: readonly string[];
  readonly expires: boolean;
  readonly version: number;
  readonly entryLimit: number;
  readonly byteLimit: number;
  readonly writerRun: string | undefined;
  readonly event: 'none' | 'bounded' | 'kept';
  readonly createRun: boolean;
  readonly marker: boolean;
}

const AT_MS = Date.parse('2026-11-27T10:00:00.000Z');

/** A seed as the host plans it: registry version check, the entry, the background run kept, its event. */
function seedPlan(p: SeedShape, n: number): WritePlan {
  const memoryRef = `mem://${p.tenant}/notes`;
  const runId = `bg-${p.runOwner}`;
  const at = AT_MS + n;
  const createdAt = new Date(at).toISOString();
  const ops: WriteOp[] = [
    { op: 'secrets.expect', args: { tenant: p.tenant, version: p.version } },
    {
      op: 'memory.put',
      args: {
        tenant: p.tenant, memoryRef, atMs: at, bounds: { entriesPerMemoryRef: p.entryLimit, bytesPerTenant: p.byteLimit },
        ...(p.writerRun !== undefined ? { runId: p.writerRun } : {}),
        entry: { id: p.id, content: `content ${n}`, tags: [...p.tags], createdAt, ...(p.expires ? { expiresAt: new Date(at + 60_000).toISOString() } : {}) },
      },
    },
  ];
  if (p.createRun) ops.push({ op: 'run.create', args: { runId, tenant: p.tenant, kind: 'background', status: 'running', createdMs: at, doc: { runId, tenant: p.tenant }, ifExists: 'keep' } });
  if (p.event !== 'none') {
    ops.push({
      op: 'event.append',
      args: {
        runId, atMs: at,
        // A payload number equal to the sequence's stand-in makes the event's text ambiguous: that plan goes the ordinary way.
        event: { eventId: `evt-${n}`, runId, type: 'memory.written', payload: { memoryRef, memoryId: p.id, operation: 'put', byteSize: p.marker ? 9_007_199_254_740_000 : 7 }, timestamp: createdAt, sequence: 0 },
        ...(p.event === 'bounded' ? { maxEvents: 3 } : { maxEvents: 100, keepLast: 2 }),
      },
    });
  }
  return ops;
}

const shape: fc.Arbitrary<SeedShape> = fc.record({
  tenant: fc.constantFrom('t1', 't2'),
  runOwner: fc.constantFrom('t1', 't2'),
  id: fc.constantFrom('m1', 'm2', 'm3', 'm4', 'm5'),
  // A lone surrogate cannot cross PostgreSQL's JSON: such a plan goes the ordinary way (refused 400 there).
  tags: fc.array(fc.constantFrom('a', 'b', 'c', 'x\ud800'), { maxLength: 3 }),
  expires: fc.boolean(),
  version: fc.constantFrom(0, 0, 0, 1),
  entryLimit: fc.constantFrom(3, 100),
  byteLimit: fc.constantFrom(150, 1_000_000),
  writerRun: fc.constantFrom(undefined, 'run-a'),
  event: fc.constantFrom('none', 'bounded', 'kept'),
  createRun: fc.boolean(),
  marker: fc.boolean(),
});

/** What a commit answered: its results, or the refusal's class and code. */
async function outcome(s: StoragePort, plan: WritePlan): Promise<unknown> {
  try {
    return { results: await s.commit(plan) };
  } catch (err) {
    return { refused: (err as Error).constructor.name, code: (err as { code?: unknown }).code, message: (err as Error).message };
  }
}

/** Every row the plans can touch, in key order; journal positions as ranks (a rolled-back insert leaves a gap). */
async function rows(s: StoragePort): Promise<unknown> {
  const r = s.reads;
  const journal = await r.all<{ jseq: number }>('SELECT jseq, tenant, memory_ref, memory_id, at_ms, run_id, before_doc, before_neg_created, before_expires_ms, after_doc FROM journal ORDER BY jseq', [], 10_000);
  const rank = new Map(journal.map((j, i) => [Number(j.jseq), i + 1]));
  const events = await r.all<{ jseq: number }>('SELECT run_id, seq, jseq, at_ms, type, doc FROM events ORDER BY run_id, seq', [], 10_000);
  return {
    entries: await r.all('SELECT tenant, memory_ref, id, neg_created, expires_ms, bytes, doc FROM entries ORDER BY tenant, memory_ref, id', [], 10_000),
    tags: await r.all('SELECT tenant, memory_ref, tag, neg_created, id, expires_ms FROM entry_tags ORDER BY tenant, memory_ref, tag, neg_created, id', [], 10_000),
    quotas: await r.all('SELECT tenant, resource, scope, n FROM quotas ORDER BY tenant, resource, scope', [], 10_000),
    runs: await r.all('SELECT run_id, tenant, kind, status, created_ms, ended_ms, next_seq, doc FROM runs ORDER BY run_id', [], 10_000),
    journal: journal.map((j) => ({ ...j, jseq: rank.get(Number(j.jseq)) })),
    events: events.map((e) => ({ ...e, jseq: rank.get(Number(e.jseq)) ?? Number(e.jseq) })),
  };
}

/** Empty every table a plan writes (and restart the journal's positions): one database serves a property's runs. */
async function emptied(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('TRUNCATE entries, entry_tags, journal, quotas, runs, events, secret_versions RESTART IDENTITY');
  } finally {
    await c.end();
  }
}

/** Counts the round trips (queries) every pg client of this process makes while `f` runs. */
async function roundTrips(f: () => Promise<unknown>): Promise<number> {
  const query = pg.Client.prototype.query;
  let n = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    n++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await f();
  } finally {
    pg.Client.prototype.query = query;
  }
  return n;
}

const plain = (tenant: string, id: string): SeedShape => ({ tenant, runOwner: tenant, id, tags: ['a'], expires: false, version: 0, entryLimit: 100, byteLimit: 1_000_000, writerRun: undefined, event: 'kept', createRun: true, marker: false });

describe('PostgreSQL: a write plan in one round trip', () => {
  if (pgToolchain.skip) it.skip(`needs PostgreSQL (${pgToolchain.reason})`, () => {});

  pgIt('a one-entry seed is one round trip; an entry id that exists goes the ordinary way and keeps its createdAt', async () => {
    pgToolchain.assert();
    const { store: s } = await store('one_trip_count', true);
    await s.commit(seedPlan(plain('t1', 'warm'), 0)); // the connection gets the function
    // The pool may hand out another connection (without the function yet): warm every one of them.
    await Promise.all(Array.from({ length: 10 }, (_, i) => s.commit(seedPlan(plain('t1', `warm-${i}`), i + 1))));
    expect(await roundTrips(() => s.commit(seedPlan(plain('t1', 'm1'), 100)))).toBe(1);
    // The same id again: the call hands the plan back (one trip), then BEGIN, statements, COMMIT.
    const replace = await roundTrips(() => s.commit(seedPlan(plain('t1', 'm1'), 200)));
    expect(replace).toBeGreaterThan(3);
    const entry = await s.reads.get<{ doc: string }>('SELECT doc FROM entries WHERE tenant = ? AND memory_ref = ? AND id = ?', ['t1', 'mem://t1/notes', 'm1']);
    expect(JSON.parse(entry!.doc).createdAt).toBe(new Date(AT_MS + 100).toISOString());
    expect(JSON.parse(entry!.doc).content).toBe('content 200');
  });

  pgIt('plans that wait together share a call; a plan handed back in it leaves the others committed', async () => {
    pgToolchain.assert();
    const { store: s } = await store('one_trip_shared', true);
    await Promise.all(Array.from({ length: 10 }, (_, i) => s.commit(seedPlan(plain(`t${i % 3}`, `warm-${i}`), i))));
    // Plan 7 replaces an entry (handed back by the call); plan 11 carries a lone surrogate (never sent to the call;
    // refused 400 on the ordinary path, alone).
    const shapes = Array.from({ length: 40 }, (_, i) => ({ ...plain(`t${i % 5}`, i === 7 ? 'warm-2' : `m${i}`), ...(i === 11 ? { tags: ['x\ud800'] } : {}) }));
    let answers: unknown[] = [];
    const trips = await roundTrips(async () => {
      answers = await Promise.all(shapes.map((p, i) => outcome(s, seedPlan(p, 100 + i))));
    });
    // 40 plans alone would be 40 calls (and the one handed back its own transaction besides).
    expect(trips).toBeLessThan(30);
    expect(answers[11]).toMatchObject({ refused: 'StoreRefusal', code: 'invalid_text' });
    shapes.forEach((p, i) => i !== 11 && expect((answers[i] as { results: [unknown, { id: string }] }).results[1].id, `plan ${i}`).toBe(p.id));
    const n = await s.reads.get<{ n: number }>("SELECT count(*) AS n FROM entries WHERE id LIKE 'm%'", []);
    expect(Number(n!.n)).toBe(38);
    // The replaced entry kept its first createdAt; every background run's kept events are its last, without a gap.
    const replaced = await s.reads.get<{ doc: string }>('SELECT doc FROM entries WHERE id = ?', ['warm-2']);
    expect(JSON.parse(replaced!.doc).createdAt).toBe(new Date(AT_MS + 2).toISOString());
    const logs = await s.reads.all<{ run_id: string; n: number; low: number; top: number; next: number }>(
      'SELECT e.run_id, count(*) AS n, min(e.seq) AS low, max(e.seq) AS top, min(r.next_seq) AS next FROM events e JOIN runs r ON r.run_id = e.run_id GROUP BY e.run_id',
      [],
      100,
    );
    expect(logs).toHaveLength(5);
    for (const l of logs) expect([Number(l.top) - Number(l.low) + 1, Number(l.top) + 1], l.run_id).toEqual([Number(l.n), Number(l.next)]);
  });

  pgIt('answers and rows are those of the ordinary path, for any sequence of plans (every hand-back case)', async () => {
    pgToolchain.assert();
    const [fast, slow] = await Promise.all([store('one_trip_fast', true), store('one_trip_slow', false)]);
    await fc.assert(
      fc.asyncProperty(fc.array(shape, { minLength: 1, maxLength: 12 }), async (shapes) => {
        await Promise.all([emptied(fast.url), emptied(slow.url)]);
        for (const [n, p] of shapes.entries()) {
          const plan = seedPlan(p, n);
          expect(await outcome(fast.store, plan), `plan ${n}`).toEqual(await outcome(slow.store, plan));
        }
        expect(await rows(fast.store)).toEqual(await rows(slow.store));
      }),
      { numRuns: 20 },
    );
  });

  pgIt('plans sharing calls, handed back after some of their writes or not: every count, journal record and event matches what was answered', async () => {
    pgToolchain.assert();
    const { store: s, url } = await store('one_trip_concurrent', true);
    await fc.assert(
      fc.asyncProperty(fc.array(shape, { minLength: 2, maxLength: 40 }), async (shapes) => {
        await emptied(url);
        const plans = shapes.map((p, n) => seedPlan(p, n));
        const answers = await Promise.all(plans.map((plan) => outcome(s, plan)));
        const ok = plans.filter((_, i) => 'results' in (answers[i] as object));
        const puts = ok.map((plan) => plan.find((op) => op.op === 'memory.put')!.args as { tenant: string; memoryRef: string; entry: { id: string } });
        const r = s.reads;
        // One journal record per answered write, and none of a refused one.
        expect(Number((await r.get<{ n: number }>('SELECT count(*) AS n FROM journal', []))!.n)).toBe(ok.length);
        // Every count is what the stored entries add up to.
        const counted = await r.all<{ tenant: string; resource: string; scope: string; n: number }>('SELECT tenant, resource, scope, n FROM quotas ORDER BY tenant, resource, scope', [], 1000);
        const entries = await r.all<{ tenant: string; memory_ref: string; id: string; bytes: number }>('SELECT tenant, memory_ref, id, bytes FROM entries', [], 1000);
        const expected = new Map<string, number>();
        for (const e of entries) {
          expected.set(`${e.tenant}|memory-entries|${e.memory_ref}`, (expected.get(`${e.tenant}|memory-entries|${e.memory_ref}`) ?? 0) + 1);
          expected.set(`${e.tenant}|memory-bytes|`, (expected.get(`${e.tenant}|memory-bytes|`) ?? 0) + Number(e.bytes));
        }
        expect(new Map(counted.map((q) => [`${q.tenant}|${q.resource}|${q.scope}`, Number(q.n)]))).toEqual(expected);
        // Exactly the answered entries are stored.
        expect(new Set(entries.map((e) => `${e.memory_ref}|${e.id}`))).toEqual(new Set(puts.map((p) => `${p.memoryRef}|${p.entry.id}`)));
        // Each run's sequence counts the answered events appended to it, and its kept log is its last events, gap-free.
        const appended = new Map<string, number>();
        for (const plan of ok) for (const op of plan) if (op.op === 'event.append') appended.set(op.args.runId, (appended.get(op.args.runId) ?? 0) + 1);
        const runs = await r.all<{ run_id: string; next_seq: number }>('SELECT run_id, next_seq FROM runs', [], 100);
        expect(new Map(runs.filter((x) => Number(x.next_seq) > 0).map((x) => [x.run_id, Number(x.next_seq)]))).toEqual(appended);
        const logs = await r.all<{ run_id: string; n: number; low: number; top: number }>('SELECT run_id, count(*) AS n, min(seq) AS low, max(seq) AS top FROM events GROUP BY run_id', [], 100);
        for (const l of logs) expect([Number(l.top) - Number(l.low) + 1, Number(l.top) + 1], l.run_id).toEqual([Number(l.n), appended.get(l.run_id)]);
      }),
      { numRuns: 15 },
    );
  });

  pgIt('concurrent replaces of one entry on the ordinary path keep its byte count and every before-image', async () => {
    pgToolchain.assert();
    const { store: s } = await store('one_trip_replaces', false);
    await s.commit(seedPlan(plain('t1', 'same'), 0));
    // Contents of different lengths: a replace that read a stale before-image would leave the byte count off.
    const plans = Array.from({ length: 12 }, (_, i) => {
      const plan = seedPlan(plain('t1', 'same'), i + 1);
      const put = plan.find((op) => op.op === 'memory.put')!.args as { entry: { content: string } };
      put.entry.content = 'x'.repeat(i * 7 + 1);
      return plan;
    });
    await Promise.all(plans.map((plan) => s.commit(plan)));
    const entry = await s.reads.get<{ bytes: number }>('SELECT bytes FROM entries WHERE id = ?', ['same']);
    const bytes = await s.reads.get<{ n: number }>("SELECT n FROM quotas WHERE tenant = 't1' AND resource = 'memory-bytes'", []);
    expect(Number(bytes!.n)).toBe(Number(entry!.bytes));
    // Each replace's before-image is the previous one's after-image: the journal is one chain.
    const journal = await s.reads.all<{ before_doc: string | null; after_doc: string }>("SELECT before_doc, after_doc FROM journal WHERE memory_id = 'same' ORDER BY jseq", [], 100);
    journal.slice(1).forEach((j, i) => expect(j.before_doc, `record ${i + 1}`).toBe(journal[i]!.after_doc));
  });

  pgIt('a row another transaction holds delays only the plans that need it: the rest of their call commits at once', async () => {
    pgToolchain.assert();
    const { store: s, url } = await store('one_trip_locked', true);
    await Promise.all(['t1', 't2', 't3'].map((t, i) => s.commit(seedPlan(plain(t, `warm-${t}`), i))));
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("SELECT * FROM runs WHERE run_id = 'bg-t1' FOR UPDATE");
      const started = performance.now();
      const others: number[] = [];
      const t1 = Array.from({ length: 5 }, (_, i) => s.commit(seedPlan(plain('t1', `held-${i}`), 10 + i)));
      const rest = Array.from({ length: 4 }, (_, i) => s.commit(seedPlan(plain(i % 2 === 0 ? 't2' : 't3', `free-${i}`), 20 + i)).then(() => void others.push(performance.now() - started)));
      await Promise.all(rest);
      expect(Math.max(...others), 'the other tenants did not wait for the held row').toBeLessThan(1_000);
      await new Promise((r) => setTimeout(r, 300));
      await holder.query('COMMIT');
      // The held tenant's plans went the ordinary way, waited for the row (within lock_timeout) and committed.
      await Promise.all(t1);
      expect(Number((await s.reads.get<{ n: number }>("SELECT count(*) AS n FROM entries WHERE id LIKE 'held-%'", []))!.n)).toBe(5);
    } finally {
      await holder.end();
    }
  });

  pgIt('plans still waiting when the store closes are refused as a closed or unavailable store (503), never as a failure (500)', async () => {
    pgToolchain.assert();
    const { store: s } = await store('one_trip_closing', true);
    await s.commit(seedPlan(plain('t1', 'warm'), 0));
    const pending = Array.from({ length: 40 }, (_, i) => s.commit(seedPlan(plain(`t${i % 3}`, `c-${i}`), i + 1)).then(() => 'committed', (err: Error) => err.constructor.name));
    await s.close();
    const outcomes = new Set(await Promise.all(pending));
    for (const o of outcomes) expect(['committed', 'StoreClosedError', 'StoreUnavailableError']).toContain(o);
  });

  pgIt('a role that may not create temporary objects still commits every plan, statement by statement', async (ctx) => {
    pgToolchain.assert();
    const db = await freshDatabase('one_trip_no_temp');
    const role = `wopkit_no_temp_${db.name.slice(-8)}`;
    const as = (url: string, user: string): string => {
      const u = new URL(url);
      u.username = user;
      u.password = user;
      return u.toString();
    };
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    const superuser = (await admin.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user')).rows[0]!.rolsuper;
    if (!superuser) {
      await admin.end();
      await db.drop();
      // An external server's role (WOPKIT_DATABASE_URL) may not create the restricted role this needs.
      ctx.skip('the test role is not a superuser: it cannot create a role without TEMP');
    }
    try {
      await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${role}'`);
      await admin.query(`GRANT CONNECT, CREATE ON DATABASE ${db.name} TO ${role}`);
      await admin.query(`GRANT CREATE ON SCHEMA public TO ${role}`);
      await admin.query(`REVOKE TEMPORARY ON DATABASE ${db.name} FROM PUBLIC`);
      const url = as(db.url, role);
      const s = await openPostgresStore(url, { listen: false });
      const ordinary = await openPostgresStore(url, { listen: false, oneTrip: false });
      try {
        for (let i = 0; i < 3; i++) await s.commit(seedPlan(plain('t1', `m${i}`), i));
        expect(Number((await s.reads.get<{ n: number }>('SELECT count(*) AS n FROM entries', []))!.n)).toBe(3);
        // After the first refusal the store stops asking: a seed costs the ordinary path's trips, not one more.
        expect(await roundTrips(() => s.commit(seedPlan(plain('t1', 'm9'), 9)))).toBe(await roundTrips(() => ordinary.commit(seedPlan(plain('t1', 'm8'), 8))));
      } finally {
        await Promise.all([s.close(), ordinary.close()]);
      }
    } finally {
      await admin.query(`DROP OWNED BY ${role}`).catch(() => {});
      await admin.end();
      await db.drop();
      const maintenanceUrl = new URL(db.url);
      maintenanceUrl.pathname = '/postgres';
      const maintenance = new pg.Client({ connectionString: maintenanceUrl.toString() });
      await maintenance.connect();
      await maintenance.query(`DROP ROLE IF EXISTS ${role}`).finally(() => maintenance.end());
    }
  });
});
