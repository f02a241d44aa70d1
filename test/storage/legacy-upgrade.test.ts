/**
 * A store written by wopkit 0.2 (commit ea8bc48: SQLite schema v3, PostgreSQL schema v4, the working state loaded
 * into memory) upgrades on first start and answers as the old host did. The fixtures (scripts/legacy-fixture.ts)
 * are the old host's own store after the old conformance suite ran against it, and the old host's answers to reads
 * of every memoryRef, run (its record and its event log), proposal, question and schedule the store names. Each
 * read, made again on the upgraded store, answers the same status and every member the old answer had, equal (new
 * members — a list's next cursor, an event page's nextSeq — may be added). A second start finds nothing to do.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { openStore, SQLITE_FILE } from '../../runtime/storage/open-store.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { FIXTURE_DIR, LEGACY_TOKEN, type ObservedFile } from '../../scripts/legacy-fixture.ts';
import { freshDatabase } from '../support/postgres.ts';
import { TEST_FLEET_KEYS } from '../support/fleet-keys.ts';
import { toolchain } from '../support/toolchains.ts';
import { startOrExit, type HostExit, type RunningHost } from './crash/host-process.ts';

const pgToolchain = toolchain('postgres');
const root = mkdtempSync(join(tmpdir(), 'wopkit-legacy-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
  rmSync(root, { recursive: true, force: true });
});

const observedOf = (kind: string): ObservedFile => JSON.parse(readFileSync(join(FIXTURE_DIR, `observed-${kind}.json`), 'utf8')) as ObservedFile;

/** Every member of `old` is in `now` with an equal value (deeply for objects; arrays element by element). */
function expectSuperset(now: unknown, old: unknown, path: string): void {
  if (old !== null && typeof old === 'object' && !Array.isArray(old)) {
    expect(now !== null && typeof now === 'object' && !Array.isArray(now), `${path} is an object`).toBe(true);
    for (const [k, v] of Object.entries(old)) expectSuperset((now as Record<string, unknown>)[k], v, `${path}.${k}`);
    return;
  }
  expect(now, path).toEqual(old);
}

async function answersAsBefore(open: () => Promise<StoragePort>, kind: string): Promise<void> {
  const { observedAt, observed } = observedOf(kind);
  // At the moment the old host answered: an entry's TTL is judged as it was then.
  const { app, background, store } = await createHost({ token: LEGACY_TOKEN, ...TEST_FLEET_KEYS, storage: await open(), seedConformanceFixtures: true, clock: { now: () => observedAt } });
  try {
    // The background work's first pass retires nothing that was live in 0.2 (upgraded forks live their full window).
    const forks = async () => (await store.reads.all("SELECT run_id FROM runs WHERE kind = 'fork' ORDER BY run_id", [], 1000)).map((r) => r.run_id);
    const before = await forks();
    expect(before.length, 'the fixture holds forks').toBeGreaterThan(0);
    await background.runOnce();
    expect(await forks()).toEqual(before);
    expect(observed.length).toBeGreaterThan(50);
    for (const o of observed) {
      const r = await app.inject({ method: 'GET', url: o.path, headers: { authorization: `Bearer ${LEGACY_TOKEN}` } });
      expect(r.statusCode, `${o.path}: ${r.body.slice(0, 300)}`).toBe(o.status);
      expectSuperset(r.json(), o.body, o.path);
    }
  } finally {
    await app.close();
  }
}

/** Load the 0.2 database the fixture holds into the (empty) database at `url`. */
async function restoreDump(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The dump as pg_dump wrote it, less a setting an older server would not know.
    await client.query(readFileSync(join(FIXTURE_DIR, 'postgres.sql'), 'utf8').replace(/^SET transaction_timeout = 0;$/m, ''));
  } finally {
    await client.end();
  }
}

describe('a wopkit 0.2 store upgrades on first start', () => {
  it('SQLite (schema v3): every read answers as the old host did; a second start upgrades nothing', async () => {
    const dataDir = join(root, 'sqlite');
    mkdirSync(dataDir);
    copyFileSync(join(FIXTURE_DIR, 'wopkit.sqlite'), join(dataDir, SQLITE_FILE));
    const open = () => openStore({ kind: 'sqlite', dataDir });
    await answersAsBefore(open, 'sqlite');
    const again = await open();
    const versions = await again.reads.all('SELECT version FROM schema_version ORDER BY version', [], 100);
    await again.close();
    await answersAsBefore(open, 'sqlite');
    const after = await open();
    expect(await after.reads.all('SELECT version FROM schema_version ORDER BY version', [], 100)).toEqual(versions);
    expect(await after.reads.all("SELECT name FROM sqlite_master WHERE name LIKE 'legacy_%'", [], 100)).toEqual([]);
    await after.close();
  }, 120_000);

  it.skipIf(pgToolchain.skip)('PostgreSQL (schema v4, the lease table included): every read answers as the old host did', async () => {
    pgToolchain.assert();
    const db = await freshDatabase('legacy-upgrade');
    cleanups.push(() => db.drop());
    await restoreDump(db.url);
    const open = () => openStore({ kind: 'postgres', url: db.url });
    await answersAsBefore(open, 'postgres');
    const after = await open();
    expect(await after.reads.all("SELECT tablename FROM pg_tables WHERE tablename LIKE 'legacy_%' OR tablename = 'cluster_lease'", [], 100)).toEqual([]);
    await after.close();
  }, 120_000);

  it.skipIf(pgToolchain.skip)('PostgreSQL: while a 0.2 host still holds its active-host lease, a new host refuses to start (one line, exit 2) and changes nothing; once it let go, the next start upgrades', async () => {
    pgToolchain.assert();
    const db = await freshDatabase('legacy-lease');
    cleanups.push(() => db.drop());
    await restoreDump(db.url);
    // What a running 0.2 host holds: the session-level advisory lock it took as the active host.
    const oldHost = new pg.Client({ connectionString: db.url });
    await oldHost.connect();
    expect((await oldHost.query("SELECT pg_try_advisory_lock(hashtext('wopkit.active-host')) AS held")).rows[0].held).toBe(true);
    const holderPid = (await oldHost.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
    const args = ['--store', 'postgres'];
    const env = { WOPKIT_DATABASE_URL: db.url };
    const refused = await startOrExit({ args, env });
    expect('url' in refused, 'the new host started under a 0.2 lease holder').toBe(false);
    const ended = refused as HostExit;
    expect(ended.code).toBe(2);
    expect(ended.stderr.trim().split('\n')).toHaveLength(1);
    expect(ended.stderr).toMatch(new RegExp(`not starting: .*${holderPid}`));
    const probe = new pg.Client({ connectionString: db.url });
    await probe.connect();
    const tables = async () => (await probe.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tablename = 'memory_entries'")).rows[0].n as number;
    expect(await tables(), 'the old tables are where the 0.2 host reads them').toBe(1);
    await oldHost.end();
    const host = await startOrExit({ args, env });
    expect('url' in host, `the host started once the lease was gone: ${'stderr' in host ? host.stderr : ''}`).toBe(true);
    await (host as RunningHost).stop();
    expect(await tables()).toBe(0);
    await probe.end();
  }, 120_000);
});
