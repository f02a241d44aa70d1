/**
 * The crash harness can fail: on stores that acknowledge before they commit, it must report losses.
 * - `--store memory`: a restart loses everything;
 * - SQLite behind a write-behind wrapper (lossy-host.ts, test only): memory writes are acknowledged at once and
 *   committed 400 ms later, so a kill -9 loses the tail of what was acknowledged — the subtle failure a real
 *   back-end bug would cause.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../../../runtime/storage/open-store.ts';
import { runCampaign } from './harness.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-crash-lossy-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('reports lost writes on the in-memory store', async () => {
  const report = await runCampaign({
    name: 'memory (must fail)',
    hosts: [{ args: ['--store', 'memory'] }],
    kills: 3,
    loadMs: [400, 700],
    workersPerHost: 3,
    openStore: () => openStore({ kind: 'memory' }),
  });
  expect(report.acknowledged.writes).toBeGreaterThan(0);
  expect(report.findings.filter((f) => f.includes('lost write')).length).toBeGreaterThan(0);
}, 120_000);

it('reports lost writes when SQLite writes are acknowledged before they commit (write-behind)', async () => {
  const report = await runCampaign({
    name: 'sqlite write-behind (must fail)',
    hosts: [{ args: ['--store', 'sqlite', '--data-dir', dataDir], entry: 'test/storage/crash/lossy-host.ts' }],
    kills: 5,
    loadMs: [400, 900],
    workersPerHost: 4,
    openStore: () => openStore({ kind: 'sqlite', dataDir }),
  });
  const lost = report.findings.filter((f) => f.includes('lost write'));
  expect(lost.length, JSON.stringify(report.findings.slice(0, 5))).toBeGreaterThan(0);
  // Only the acknowledged-but-uncommitted tail is lost, not everything: the harness sees a partial loss.
  expect(lost.length).toBeLessThan(report.acknowledged.writes);
}, 180_000);
