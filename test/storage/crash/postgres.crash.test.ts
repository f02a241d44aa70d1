/**
 * kill -9 ×50 under load on PostgreSQL, with two host processes sharing one database: each host runs its own
 * kill/restart cycle (25 kills each), so one dies while the other keeps writing to the same runs. Same checks as
 * the SQLite campaign (harness.ts). Optional toolchain `postgres`: skipped with the reason when no server can be
 * reached, required under WOPKIT_REQUIRE_TOOLCHAINS=1. Prints the seed; CRASH_SEED / CRASH_KILLS as there.
 */
import { afterAll, beforeAll, it } from 'vitest';
import { openStore } from '../../../runtime/storage/open-store.ts';
import { freshDatabase, type TestDatabase } from '../../support/postgres.ts';
import { toolchain } from '../../support/toolchains.ts';
import { CAMPAIGN_KILLS, expectCampaignHeld, runCampaign } from './harness.ts';

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
    kills: CAMPAIGN_KILLS,
    loadMs: [250, 1000],
    workersPerHost: 3,
    openStore: () => openStore({ kind: 'postgres', url }),
  });
  expectCampaignHeld(report);
}, 400_000);
