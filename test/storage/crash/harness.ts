/**
 * A kill -9 campaign: start the host(s), drive the mixed load, `kill -9` each host at a random moment, restart it,
 * again and again; then restart once more, let the schedules tick, evaluate leftover commitments, and check
 * everything that was acknowledged (verify.ts). With several hosts (PostgreSQL), each host runs its own
 * kill/restart cycle on one shared database, so a host dies while the other keeps writing.
 *
 * Seeded: the seed (printed) fixes the operation mix and the kill moments; CRASH_SEED=<n> replays one.
 */
import { expect } from 'vitest';
import { rng } from '../../../bench/rng.ts';
import { ROUTES, urlOf } from '../../../runtime/host/seam-catalogue.ts';
import type { StoragePort } from '../../../runtime/storage/port.ts';
import { CRASH_TOKEN, startHost, type HostSpec, type RunningHost } from './host-process.ts';
import { AckLedger, driveLoad } from './load.ts';
import { verifyOverHttp, verifyStore } from './verify.ts';

export interface CampaignOptions {
  readonly name: string;
  /** Host processes sharing the store (1 for SQLite; 2 for PostgreSQL). */
  readonly hosts: readonly HostSpec[];
  /** kill -9 events in total, spread evenly over the hosts. */
  readonly kills: number;
  /** Load duration before each kill: uniform in [min, max] ms. */
  readonly loadMs: readonly [number, number];
  readonly workersPerHost: number;
  /** Open the store directly, after every host stopped, for the store-level checks. */
  readonly openStore: () => Promise<StoragePort>;
  readonly seed?: number;
  readonly log?: (line: string) => void;
}

export interface CampaignReport {
  readonly seed: number;
  readonly kills: number;
  readonly acknowledged: { readonly writes: number; readonly commitments: number; readonly schedules: number };
  readonly sent: number;
  readonly unanswered: number;
  readonly findings: readonly string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function campaignSeed(env: NodeJS.ProcessEnv = process.env): number {
  return env.CRASH_SEED !== undefined ? Number(env.CRASH_SEED) : Math.floor(Math.random() * 2 ** 31);
}

/**
 * Wait until `url` answers discovery with 200: at once for a host that serves on its own; for a host that shares
 * its store, once some host is active (a standby forwards). Resolves with how long it took (ms).
 */
async function whenServing(url: string, timeoutMs = 60_000): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    const status = await fetch(url + urlOf(ROUTES.discovery)).then((res) => res.status, () => 0);
    if (status === 200) return Date.now() - t0;
    if (Date.now() - t0 > timeoutMs) throw new Error(`${url} did not serve discovery within ${timeoutMs} ms (last status ${status})`);
    await sleep(25);
  }
}

/**
 * One host's cycles: start, wait until it serves, load for a random while, kill -9; `cycles` times. The wait
 * matters with several hosts: after the active host is killed the other takes over (loads the store) before
 * anything is served, and the load window must not be spent entirely in that takeover.
 */
async function killCycles(spec: HostSpec, cycles: number, r: () => number, o: CampaignOptions, ledger: AckLedger, label: string): Promise<void> {
  for (let i = 0; i < cycles; i++) {
    const host = await startHost(spec);
    ledger.waitedForServiceMs.push(await whenServing(host.url));
    const stop = new AbortController();
    const load = driveLoad(host.url, r, ledger, { workers: o.workersPerHost, signal: stop.signal, label: `${label}.${i}` });
    await sleep(o.loadMs[0] + r() * (o.loadMs[1] - o.loadMs[0]));
    await host.kill9();
    stop.abort();
    await load;
  }
}

export async function runCampaign(o: CampaignOptions): Promise<CampaignReport> {
  const seed = o.seed ?? campaignSeed();
  const log = o.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  log(`crash campaign ${o.name}: seed ${seed} (replay with CRASH_SEED=${seed}), ${o.kills} kills over ${o.hosts.length} host(s)`);
  const ledger = new AckLedger();
  const base = rng(seed);
  const perHost = Math.ceil(o.kills / o.hosts.length);
  await Promise.all(o.hosts.map((spec, h) => killCycles(spec, perHost, rng(Math.floor(base() * 2 ** 31)), o, ledger, `h${h}`)));

  // The last start: every host back, the schedules tick, the leftover commitments are evaluated once.
  const resumedSince = Date.now();
  const finals: RunningHost[] = await Promise.all(o.hosts.map((spec) => startHost(spec)));
  await Promise.all(finals.map((h) => whenServing(h.url)));
  const findings: string[] = [];
  try {
    await sleep(2_500);
    const flush = await fetch(finals[0]!.url + urlOf(ROUTES.commitmentFire), {
      method: 'POST',
      headers: { authorization: `Bearer ${CRASH_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ memoryRef: 'mem://crash-a/commitments', condition: 'time' }),
    });
    if (flush.status !== 200) findings.push(`the final commitment evaluation answered ${flush.status}: ${await flush.text()}`);
    else ledger.commitments.push({ tenant: 'crash-a', memoryRef: 'mem://crash-a/commitments', commitmentId: ((await flush.json()) as { event: { commitmentId: string } }).event.commitmentId });
    for (const h of finals) findings.push(...(await verifyOverHttp(h.url, ledger, resumedSince)).map((f) => `${h.url}: ${f}`));
  } finally {
    await Promise.all(finals.map((h) => h.stop()));
  }
  const store = await o.openStore();
  try {
    findings.push(...(await verifyStore(store, ledger)));
  } finally {
    await store.close();
  }
  const report: CampaignReport = {
    seed,
    kills: perHost * o.hosts.length,
    acknowledged: { writes: ledger.writes.length, commitments: ledger.commitments.length, schedules: ledger.schedules.length },
    sent: ledger.sent,
    unanswered: ledger.unanswered,
    findings,
  };
  const waits = [...ledger.waitedForServiceMs].sort((a, b) => a - b);
  log(`crash campaign ${o.name}: seed ${seed}, ${report.kills} kills, ${report.sent} requests sent, ${report.unanswered} unanswered, acknowledged ${JSON.stringify(report.acknowledged)}, start until discovery answered through the started host: median ${waits[waits.length >> 1] ?? 0} ms, max ${waits.at(-1) ?? 0} ms, ${findings.length} findings`);
  return report;
}

/** kill -9 events per campaign: 50, or CRASH_KILLS. */
export const CAMPAIGN_KILLS = Number(process.env.CRASH_KILLS ?? 50);

/** The acceptance of a campaign: no findings, the kills all happened, and the load really ran between them. */
export function expectCampaignHeld(report: CampaignReport): void {
  expect(report.findings, `seed ${report.seed}`).toEqual([]);
  expect(report.kills).toBeGreaterThanOrEqual(CAMPAIGN_KILLS);
  expect(report.acknowledged.writes).toBeGreaterThan(report.kills);
  expect(report.acknowledged.commitments).toBeGreaterThan(0);
  expect(report.acknowledged.schedules).toBeGreaterThan(0);
}
