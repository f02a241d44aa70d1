/**
 * kill -9 ×50 under load on PostgreSQL, with two host processes sharing one database: each host runs its own
 * kill/restart cycle (25 kills each), so one dies while the other keeps writing to the same runs. Same checks as
 * the SQLite campaign (harness.ts). Optional toolchain `postgres`: skipped with the reason when no server can be
 * reached, required under WOPKIT_REQUIRE_TOOLCHAINS=1. Prints the seed; CRASH_SEED / CRASH_KILLS as there.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../../runtime/storage/open-store.ts';
import { freshDatabase, type TestDatabase } from '../../support/postgres.ts';
import { toolchain } from '../../support/toolchains.ts';
import { runCampaign } from './harness.ts';

const pg = toolchain('postgres');
let db: TestDatabase | undefined;
beforeAll(async () => {
  if (!pg.skip) db = await freshDatabase('crash');
});
afterAll(() => db?.drop());

it.skipIf(pg.skip)('PostgreSQL, two hosts on one database: kill -9 ×50 under load loses nothing acknowledged and fires nothing twice', async () => {
  pg.assert();
  const url = db!.url;
  const host = { args: ['--store', 'postgres'], env: { WOPKIT_DATABASE_URL: url } };
  const report = await runCampaign({
    name: 'postgres (two hosts)',
    hosts: [host, host],
    kills: Number(process.env.CRASH_KILLS ?? 50),
    loadMs: [250, 1000],
    workersPerHost: 3,
    openStore: () => openStore({ kind: 'postgres', url }),
  });
  expect(report.findings, `seed ${report.seed}`).toEqual([]);
  expect(report.kills).toBeGreaterThanOrEqual(Math.min(50, Number(process.env.CRASH_KILLS ?? 50)));
  expect(report.acknowledged.writes).toBeGreaterThan(report.kills);
  expect(report.acknowledged.commitments).toBeGreaterThan(0);
  expect(report.acknowledged.schedules).toBeGreaterThan(0);
}, 400_000);
