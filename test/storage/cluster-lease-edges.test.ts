/**
 * Edges of the active-host lease (runtime/storage/postgres/lease.ts, runtime/host/cluster/standby.ts):
 * - closing a host while its lease is still being acquired must leave the lease free for the other hosts
 *   (`release()` is "give the lease up; another process may then take it");
 * - taking the lease "fences every later write of this port to its epoch" (port.ts `lease`): a write of a process
 *   that lost the lease is refused whether or not the caller wrapped it in a batch.
 * Optional toolchain `postgres` (skipped with its reason when no server can be reached). Each test has a database
 * of its own, so a lease one of them leaves held cannot stall the other.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { openPostgresStore } from '../../runtime/storage/postgres/index.ts';
import { LeaseFencedError, type StoragePort } from '../../runtime/storage/port.ts';
import { freshDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';

const pgTool = toolchain('postgres');
const TOKEN = 'cluster-edges-operator-token';
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f().catch(() => undefined);
});

async function database(label: string): Promise<string> {
  const db = await freshDatabase(label);
  cleanup.push(() => db.drop());
  return db.url;
}

async function store(url: string): Promise<StoragePort> {
  const s = await openPostgresStore(url, { pollMs: 20, heartbeatMs: 100 });
  cleanup.push(() => s.close());
  return s;
}

const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} not within ${ms} ms`)), ms))]);

it.skipIf(pgTool.skip)('a host closed right after start() leaves the lease free: the next host becomes active', async () => {
  pgTool.assert();
  const url = await database('lease_close');
  // The first host is closed while its lease is still connecting (a stop during start-up, or a test's teardown).
  const first = await createHost({ token: TOKEN, storage: await store(url), logger: false, cluster: { waitMs: 1_000 } });
  first.cluster!.start(await first.app.listen({ port: 0, host: '127.0.0.1' }));
  await first.app.close();
  expect(first.cluster!.role()).toBe('stopped');

  const second = await createHost({ token: TOKEN, storage: await store(url), logger: false, cluster: { waitMs: 1_000 } });
  cleanup.push(() => second.app.close());
  second.cluster!.start(await second.app.listen({ port: 0, host: '127.0.0.1' }));
  await within(second.cluster!.whenActive(), 5_000, 'the second host becoming active');
  expect(second.cluster!.role()).toBe('active');
}, 20_000);

it.skipIf(pgTool.skip)('a write outside a batch by a process that lost the lease is refused by the fence', async () => {
  pgTool.assert();
  const url = await database('lease_fence');
  const [s1, s2] = [await store(url), await store(url)];
  const l1 = s1.lease!();
  cleanup.push(() => l1.release());
  await l1.acquire();
  // The lease session dies (a server-side kill or a network cut); the process itself lives on.
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);
  await admin.end();
  const l2 = s2.lease!();
  cleanup.push(() => l2.release());
  await within(l2.acquire(), 5_000, 'the second process taking the lease');

  const entry = { id: 'stale', content: 'written by a process that lost the lease', tags: [], createdAt: '2026-11-26T00:00:00.000Z' };
  const outcome = await s1.memory.upsert('t', 'mem://t/fence', entry).then(() => 'committed', (err: unknown) => err);
  expect(outcome).toBeInstanceOf(LeaseFencedError);
  expect(await s2.memory.list('t', 'mem://t/fence')).toEqual([]);
}, 20_000);
