/**
 * kill -9 ×50 under load on PostgreSQL: one host process on the database, killed and restarted; the same checks as
 * the SQLite campaign (harness.ts). Optional toolchain `postgres`: skipped with the reason when no server can be
 * reached, required under WOPKIT_REQUIRE_TOOLCHAINS=1. Prints the seed; CRASH_SEED / CRASH_KILLS as there.
 *
 * The two-process campaign (two hosts on one database, each with its own kill/restart cycle) is kept and skipped
 * with its reason: the store holds every cross-process rule, but each host keeps its own working state loaded at
 * start and assigns event sequences and journal numbers itself, so the second host's first append to a shared run
 * is refused by the store and it fails stop (docs/storage.md, "Several host processes on one database").
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

/** Why the two-process campaign does not run yet (printed by the runner as the skipped test's name). */
export const TWO_HOSTS_NOT_YET = 'two host processes on one database: runtime read-through not built yet — issue 13';

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

it.skip(`PostgreSQL, two hosts on one database: kill -9 ×50 under load — skipped: ${TWO_HOSTS_NOT_YET}`, () => campaign('postgres (two hosts)', 2, 3), 400_000);
