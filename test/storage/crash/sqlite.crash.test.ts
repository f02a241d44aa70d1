/**
 * kill -9 ×50 under load on the SQLite store (the default of `npm start`): 0 acknowledged writes lost, 0 torn
 * records, 0 double fires, gap-free event sequences, schedules resumed without double runs (harness.ts).
 * Prints the seed; CRASH_SEED=<n> replays a campaign, CRASH_KILLS=<n> changes its length.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, it } from 'vitest';
import { openStore } from '../../../runtime/storage/open-store.ts';
import { CAMPAIGN_KILLS, expectCampaignHeld, runCampaign } from './harness.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-crash-sqlite-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('SQLite: kill -9 ×50 under a mixed write load loses nothing acknowledged and fires nothing twice', async () => {
  const report = await runCampaign({
    name: 'sqlite',
    hosts: [{ args: ['--store', 'sqlite', '--data-dir', dataDir] }],
    kills: CAMPAIGN_KILLS,
    loadMs: [250, 1000],
    workersPerHost: 4,
    openStore: () => openStore({ kind: 'sqlite', dataDir }),
  });
  expectCampaignHeld(report);
}, 400_000);
