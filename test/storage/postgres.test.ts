/**
 * The PostgreSQL back-end: what must hold when several host processes share one database. Each "process" here is
 * its own store (its own Pool and connections), so nothing can be decided by a lock inside this process.
 * Needs a server (optional toolchain `postgres`): skipped with the reason when none can be reached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { RunEvent } from '../../generated/ts/index.ts';
import { StoreVersionError, type StoragePort } from '../../runtime/storage/port.ts';
import { openPostgresStore, POSTGRES_MIGRATIONS } from '../../runtime/storage/postgres/index.ts';
import { describePortContract } from './port-contract.ts';
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

const event = (runId: string, sequence: number, n: number): RunEvent => ({
  eventId: `e-${runId}-${n}`, runId, type: 'vendor.test', payload: { n }, timestamp: '2026-11-23T00:00:00.000Z', sequence,
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

  pgIt('stores opened together migrate once: schema_version has one row per migration', async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const rows = (await c.query<{ version: number }>('SELECT version FROM schema_version ORDER BY version')).rows.map((r) => r.version);
      expect(rows).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    } finally {
      await c.end();
    }
  });

  pgIt('concurrent appends to one run from four stores get gap-free, unique sequences', async () => {
    const runId = 'run-concurrent';
    const perStore = 25;
    await Promise.all(stores.map((s, i) => (async () => {
      for (let k = 0; k < perStore; k++) await s.runs.appendEvent(runId, (seq) => event(runId, seq, i * 1000 + k));
    })()));
    const events = await stores[0]!.runs.readEvents(runId);
    expect(events.map((e) => e.sequence)).toEqual([...Array(stores.length * perStore).keys()]);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(stores.length * perStore);
    expect(await stores[3]!.runs.lastSequence(runId)).toBe(stores.length * perStore - 1);
  });

  pgIt('an append whose build throws, or that carries the wrong sequence, gives its sequence back', async () => {
    const runId = 'run-rollback';
    await stores[0]!.runs.appendEvent(runId, (seq) => event(runId, seq, 0));
    await expect(stores[1]!.runs.appendEvent(runId, () => { throw new Error('boom'); })).rejects.toThrow('boom');
    await expect(stores[1]!.runs.appendEvent(runId, (seq) => event(runId, seq + 1, 1))).rejects.toThrow(RangeError);
    await stores[2]!.runs.appendEvent(runId, (seq) => event(runId, seq, 2));
    expect((await stores[0]!.runs.readEvents(runId)).map((e) => e.sequence)).toEqual([0, 1]);
  });

  pgIt('claimFire: exactly one of many concurrent claimants across stores wins, and only the winner disarms', async () => {
    for (let round = 0; round < 10; round++) {
      const commitmentId = `c-${round}`;
      expect(await stores[0]!.commitments.arm({ tenant: 't1', commitmentId, commitment: { id: commitmentId } })).toBe(true);
      const claims = await Promise.all(stores.flatMap((s) => [0, 1].map(() => s.commitments.claimFire({ tenant: 't1', commitmentId, instance: 'time:1', firedAt: round, disarm: true }))));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await stores[1]!.commitments.listArmed()).some((a) => a.commitmentId === commitmentId)).toBe(false);
    }
    expect((await stores[2]!.commitments.listFired()).filter((f) => f.tenant === 't1')).toHaveLength(10);
  });

  pgIt('claimRun: one winner per (schedule, slot) across stores', async () => {
    await stores[0]!.schedules.put({ scheduleId: 's1', tenant: 't1', schedule: { every: 'PT1S' } });
    for (const slot of [1000, 2000, 3000]) {
      const claims = await Promise.all(stores.flatMap((s) => [0, 1].map(() => s.schedules.claimRun('s1', slot))));
      expect(claims.filter(Boolean)).toHaveLength(1);
    }
    expect((await stores[3]!.schedules.runs('s1')).map((r) => r.slot)).toEqual([1000, 2000, 3000]);
    expect((await stores[3]!.schedules.list()).find((s) => s.scheduleId === 's1')?.lastSlot).toBe(3000);
  });

  pgIt('document log positions are gap-free under concurrent appends', async () => {
    const positions = await Promise.all(stores.flatMap((s) => [...Array(10).keys()].map((k) => s.transcripts.append({ k }))));
    expect([...positions].sort((a, b) => a - b)).toEqual([...Array(40).keys()]);
    expect(await stores[0]!.transcripts.all()).toHaveLength(40);
    expect(await stores[0]!.traces.all()).toEqual([]);
  });

  pgIt('CTI-1: an entry is written and read only as its owning tenant; another tenant cannot overwrite it', async () => {
    const entry = { id: 'm1', content: 'A’s note', createdAt: '2026-11-23T00:00:00.000Z', tags: [] } as unknown as Parameters<StoragePort['memory']['upsert']>[2];
    await stores[0]!.memory.upsert('ta', 'mem://ta/notes', entry);
    expect(await stores[1]!.memory.get('tb', 'mem://ta/notes', 'm1')).toBeUndefined();
    expect(await stores[1]!.memory.list('tb', 'mem://ta/notes')).toEqual([]);
    await stores[1]!.memory.upsert('tb', 'mem://ta/notes', { ...entry, content: 'overwritten' });
    expect(await stores[1]!.memory.remove('tb', 'mem://ta/notes', 'm1')).toBe(false);
    expect(JSON.stringify(await stores[2]!.memory.get('ta', 'mem://ta/notes', 'm1'))).toBe(JSON.stringify(entry));
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
