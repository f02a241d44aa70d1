/**
 * kill -9 ×50 under load on PostgreSQL, with the same checks as the SQLite campaign (harness.ts): one host process
 * killed and restarted; then two host processes on one database, each under its own load and its own kill/restart
 * cycle. With two, one is the active host and the other forwards to it (runtime/host/cluster/), so a kill of the
 * active host is a takeover under load. Optional toolchain `postgres`: skipped with the reason when no server can
 * be reached, required under WOPKIT_REQUIRE_TOOLCHAINS=1. Prints the seed; CRASH_SEED / CRASH_KILLS as there.
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

it.skipIf(pg.skip)('PostgreSQL, two hosts on one database: kill -9 ×50 under load loses nothing acknowledged, fires nothing twice, keeps every run gap-free', () => campaign('postgres (two hosts)', 2, 3), 400_000);
