/**
 * The PostgreSQL back-end: what must hold when several host processes share one database. Each "process" here is
 * its own store (its own Pool and connections), so nothing can be decided by a lock inside this process.
 * Needs a server (optional toolchain `postgres`): skipped with the reason when none can be reached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { RunEvent } from '../../generated/ts/index.ts';
import { StoreUnavailableError, StoreVersionError, type StoragePort } from '../../runtime/storage/port.ts';
import { Plan } from '../../runtime/storage/plan.ts';
import { eventPage } from '../../runtime/storage/reads/runs.ts';
import { openPostgresStore, POSTGRES_MIGRATIONS } from '../../runtime/storage/postgres/index.ts';
import { commit, describePortContract } from './port-contract.ts';
import { freshDatabase, type TestDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';

const pgToolchain = toolchain('postgres');
const pgIt = it.skipIf(pgToolchain.skip);

// The port contract every back-end runs, on one throwaway database (its tests use keys of their own).
let contractDb: TestDatabase | undefined;
const contractUrl = async (): Promise<string> => (contractDb ??= await freshDatabase('pg_contract')).url;
afterAll(() => contractDb?.drop());
if (pgToolchain.skip) describe.skip(`storage port contract: postgres (${pgToolchain.reason})`, () => {});
else {
  describePortContract('postgres', async () => openPostgresStore(await contractUrl()), {
    reopenable: async () => {
      const url = await contractUrl();
      return () => openPostgresStore(url);
    },
  });
}

const event = (runId: string, n: number): RunEvent => ({
  eventId: `e-${runId}-${n}`, runId, type: 'vendor.test', payload: { n }, timestamp: '2026-11-23T00:00:00.000Z', sequence: 0,
});

describe('PostgreSQL store: cross-process guarantees', () => {
  let db: TestDatabase;
  let stores: StoragePort[] = [];
  beforeAll(async () => {
    if (pgToolchain.skip) return;
    pgToolchain.assert();
    db = await freshDatabase('pg_store');
    // Four "processes" opening one fresh database at once: the migration must run exactly once.
    stores = await Promise.all([0, 1, 2, 3].map(() => openPostgresStore(db.url)));
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await db?.drop();
  });

  pgIt('stores opened together migrate once: schema_version has one row, the current version', async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const rows = (await c.query<{ version: number }>('SELECT version FROM schema_version ORDER BY version')).rows.map((r) => r.version);
      expect(rows).toEqual([POSTGRES_MIGRATIONS.at(-1)!.version]);
    } finally {
      await c.end();
    }
  });

  pgIt('every pool connection runs with statement, lock and idle-in-transaction timeouts, and synchronous_commit on', async () => {
    const s = stores[0]!;
    const row = async (setting: string) => Object.values((await s.reads.get(`SELECT current_setting('${setting}') AS v`))!)[0];
    expect(await row('statement_timeout')).toBe('10s');
    expect(await row('lock_timeout')).toBe('2s');
    expect(await row('idle_in_transaction_session_timeout')).toBe('5s');
    expect(await s.durability()).toEqual({ synchronous_commit: 'on' });
  });

  pgIt('concurrent appends to one run from four stores get gap-free, unique sequences', async () => {
    const runId = 'run-concurrent';
    const perStore = 25;
    await commit(stores[0]!, (p) => void p.add('run.create', { runId, tenant: 't', kind: 'run', status: 'running', createdMs: 0, doc: {} }));
    await Promise.all(stores.map((s, i) => (async () => {
      for (let k = 0; k < perStore; k++) await commit(s, (p) => void p.add('event.append', { runId, event: event(runId, i * 1000 + k), atMs: k }));
    })()));
    const events = (await eventPage(stores[0]!.reads, { runId, fromSeq: 0, limit: 1000 })).events;
    expect(events.map((e) => e.sequence)).toEqual([...Array(stores.length * perStore).keys()]);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(stores.length * perStore);
  });

  pgIt('a fire, a slot and a once-only key: exactly one of many concurrent claimants across stores wins', async () => {
    for (let round = 0; round < 10; round++) {
      const commitmentId = `c-${round}`;
      await commit(stores[0]!, (p) => {
        p.add('commitment.arm', { tenant: 't1', commitmentId, kind: 'time', dueMs: 1, doc: { commitmentId }, limit: 100 });
        p.add('schedule.put', { scheduleId: `s-${round}`, tenant: 't1', memoryRef: 'mem://t1/x', nextAt: 10, createdMs: 0, doc: {}, limit: 100 });
      });
      const all = (f: (p: Plan) => void) => Promise.allSettled(stores.flatMap((s) => [0, 1].map(() => commit(s, f))));
      for (const outcomes of [
        await all((p) => void p.add('commitment.fire', { tenant: 't1', commitmentId, instance: 'time:1', firedMs: round, disarm: true })),
        await all((p) => void p.add('schedule.take', { scheduleId: `s-${round}`, nextAtRead: 10, slot: 10, nextAt: 20, doc: {} })),
        await all((p) => void p.add('claim.take', { key: `k-${round}`, atMs: 0 })),
      ]) expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    }
  });

  pgIt('document log positions are gap-free under concurrent appends', async () => {
    const positions: number[] = [];
    await Promise.all(stores.flatMap((s) => [...Array(10).keys()].map(async (k) => {
      const plan = new Plan();
      const pos = plan.add('doc.append', { log: 'concurrency', atMs: 0, doc: { k } });
      await plan.commit(s);
      positions.push(pos.value);
    })));
    expect([...positions].sort((a, b) => a - b)).toEqual([...Array(40).keys()]);
  });

  pgIt('a lock another session holds is waited for at most lock_timeout: the request is refused as retriable (503), not hung', async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      await commit(stores[0]!, (p) => void p.add('run.create', { runId: 'held', tenant: 't', kind: 'run', status: 'running', createdMs: 0, doc: {} }));
      await c.query('BEGIN');
      await c.query("UPDATE runs SET next_seq = next_seq WHERE run_id = 'held'");
      const err = await commit(stores[1]!, (p) => void p.add('event.append', { runId: 'held', event: event('held', 0), atMs: 0 })).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect((err as StoreUnavailableError).toWire()).toMatchObject({ error: 'runner_unavailable', details: { retryAfterSeconds: 1 } });
      // Ended by lock_timeout (55P03) — not by the statement timeout, nor left to wait for the other session.
      expect((err as StoreUnavailableError).reason).toContain('55P03');
      expect(stores[1]!.health().writable).toBe(true); // one request's contention, not the database's health
    } finally {
      await c.query('ROLLBACK').catch(() => undefined);
      await c.end();
    }
  });

  pgIt('a row another transaction holds delays only the writes that need it: the others commit while it is held, the held one once it is released', async () => {
    // A lock wait longer than the test could take, so the held write waits rather than being refused.
    const patient = await openPostgresStore(db.url, { lockTimeoutMs: 120_000, listen: false });
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const runs = ['held-2', 'free-0', 'free-1', 'free-2', 'free-3'];
      for (const runId of runs) await commit(patient, (p) => void p.add('run.create', { runId, tenant: 't', kind: 'run', status: 'running', createdMs: 0, doc: {} }));
      await c.query('BEGIN');
      await c.query("UPDATE runs SET next_seq = next_seq WHERE run_id = 'held-2'");
      const order: string[] = [];
      const held = commit(patient, (p) => void p.add('event.append', { runId: 'held-2', event: event('held-2', 0), atMs: 0 })).then(() => void order.push('held'));
      // The held write is waiting on the row lock before anything else goes.
      for (let i = 0; ; i++) {
        const waiting = (await c.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE runs%'")).rowCount ?? 0;
        if (waiting > 0) break;
        if (i > 2_400) throw new Error('the held write never waited on the lock');
        await new Promise((r) => setTimeout(r, 25));
      }
      await Promise.all([0, 1, 2, 3].map((i) => commit(i % 2 === 0 ? patient : stores[i]!, (p) => void p.add('event.append', { runId: `free-${i}`, event: event(`free-${i}`, 0), atMs: 0 })).then(() => void order.push(`free-${i}`))));
      expect(order.filter((o) => o.startsWith('free')).length, 'every other write committed while the row was held').toBe(4);
      expect(order).not.toContain('held');
      order.push('released');
      await c.query('ROLLBACK');
      await held;
      expect(order.slice(-2)).toEqual(['released', 'held']);
    } finally {
      await c.query('ROLLBACK').catch(() => undefined);
      await c.end();
      await patient.close();
    }
  });

  pgIt('a database migrated by newer code is refused with StoreVersionError, naming no password', async () => {
    const newer = await freshDatabase('pg_newer');
    try {
      const c = new pg.Client({ connectionString: newer.url });
      await c.connect();
      await c.query("CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now()); INSERT INTO schema_version VALUES (999, 'from the future')");
      await c.end();
      const err = await openPostgresStore(newer.url).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(StoreVersionError);
      expect((err as Error).message).toContain('999');
      expect((err as Error).message).not.toContain(`:${new URL(newer.url).password}@`);
      expect((err as Error).message).toContain(":***@");
    } finally {
      await newer.drop();
    }
  });
});
