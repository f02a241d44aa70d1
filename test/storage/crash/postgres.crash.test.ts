/**
 * kill -9 ×50 under load on PostgreSQL, with the same checks as the SQLite campaign (harness.ts): one host process
 * killed and restarted; then three host processes on one database, each serving every request it gets (no leader,
 * no forwarding), each under its own load and its own kill/restart cycle — while one is down the others keep
 * serving, and every due commitment and schedule slot is done exactly once by whichever host gets there first.
 * Optional toolchain `postgres`: skipped with the reason when no server can be reached, required under
 * WOPKIT_REQUIRE_TOOLCHAINS=1. Prints the seed; CRASH_SEED / CRASH_KILLS as there.
 */
import { afterAll, beforeAll, it } from 'vitest';
import { openStore } from '../../../runtime/storage/open-store.ts';
import { freshDatabase, type TestDatabase } from '../../support/postgres.ts';
import { toolchain } from '../../support/toolchains.ts';
import { CAMPAIGN_KILLS, expectCampaignHeld, runCampaign } from './harness.ts';
import type { HostSpec } from './host-process.ts';

const pg = toolchain('postgres');
let db: TestDatabase | undefined;
beforeAll(async () => {
  if (!pg.skip) db = await freshDatabase('crash');
});
afterAll(() => db?.drop());

async function campaign(name: string, hosts: number, workersPerHost: number): Promise<void> {
  pg.assert();
  const url = db!.url;
  const host: HostSpec = { args: ['--store', 'postgres'], env: { WOPKIT_DATABASE_URL: url } };
  const report = await runCampaign({
    name,
    hosts: Array.from({ length: hosts }, () => host),
    kills: CAMPAIGN_KILLS,
    loadMs: [250, 1000],
    workersPerHost,
    openStore: () => openStore({ kind: 'postgres', url }),
  });
  expectCampaignHeld(report);
}

it.skipIf(pg.skip)('PostgreSQL, one host: kill -9 ×50 under load loses nothing acknowledged and fires nothing twice', () => campaign('postgres (one host)', 1, 4), 400_000);

it.skipIf(pg.skip)('PostgreSQL, three hosts on one database: kill -9 ×50 under load loses nothing acknowledged, fires nothing twice, keeps every run gap-free', () => campaign('postgres (three hosts)', 3, 2), 400_000);
