/**
 * Fleet throughput (issue 23): three host processes on one PostgreSQL database behind a round-robin balancer
 * (scripts/round-robin.ts: each request to the next host) against one host process behind the same balancer, with
 * the same mixed load (bench/host/mixed-load.ts: seeds, list pages and cursors, run event pages, forks) from the same
 * number of concurrent clients. Every host answers every request from the database; nothing is forwarded. Each of
 * the two databases is a copy of one store (a small history built by bulk inserts, history-layout.ts), so both
 * fleets start from the same data. Rounds alternate which goes first; the ratio is the median of the per-round
 * ratios of requests per second (three hosts ÷ one). Goal: ≥ 0.9×. Each run also records the hosts' CPU time per
 * request (all hosts together, /proc), which says whether a difference is work the fleet adds.
 * Run: npm run bench:fleet   → bench/results/host-fleet.json (BENCH_ROUNDS, default 5; skipped without PostgreSQL)
 */
import { Worker } from 'node:worker_threads';
import { median, round, writeResult, type BenchRow } from '../summary.ts';
import { KIND_LABEL, durableKinds, loadAverage } from '../storage/environment.ts';
import { historyPlan, historyRows, type HistoryLayout } from '../storage/history-layout.ts';
import { recordTemplates, shapeOf } from '../storage/rows.ts';
import { storeCopy, type StoreCopy } from '../storage/store-cache.ts';
import { cpuMs, launchHost, type HostProcess } from './child-host.ts';
import { driveMix } from './mixed-load.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION_MS = 6_000;
const CLIENTS = 24;
const GOAL = 0.9;
const GENERATOR_VERSION = 1;
const OPERATIONS = ['seed one entry', 'list page', 'list next page (cursor)', 'run events page', 'fork a recent run'];
const FLEET: HistoryLayout = {
  tenants: 50, refsPerTenant: 4, runs: 5_000, eventsPerRun: 10, entries: 50_000, journal: 50_000,
  commitments: 500, schedules: 500, questions: 500, proposals: 500, spanMs: 7 * 86_400_000,
};
const TEN_YEARS_MS = String(10 * 365 * 86_400_000);
const HOST_ENV = { OPENWOP_RUN_RETENTION_MS: TEN_YEARS_MS, OPENWOP_SNAPSHOT_RETENTION_MS: TEN_YEARS_MS, OPENWOP_LIVE_RUN_RETENTION_MS: TEN_YEARS_MS };

interface Balancer {
  readonly url: string;
  /** Close it; how many requests each host received. */
  close(): Promise<number[]>;
}

async function balance(targets: readonly string[]): Promise<Balancer> {
  const worker = new Worker(new URL('./proxy-worker.ts', import.meta.url), { workerData: targets });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', (m: { url: string }) => resolve(m.url));
    worker.once('error', reject);
  });
  return { url, close: () => new Promise((resolve) => { worker.once('message', (m: { counts: number[] }) => resolve(m.counts)); worker.postMessage('close'); }) };
}

const { kinds, skipped } = durableKinds();
if (!kinds.includes('postgres')) {
  console.log(`${KIND_LABEL.postgres}: ${skipped.postgres} — the fleet benchmark needs it; no row written`);
  process.exit(0);
}

const templates = await recordTemplates();
const recipe = { name: 'fleet', inputs: { FLEET, GENERATOR_VERSION, templates: shapeOf(templates) }, maxAgeMs: 7 * 86_400_000, rows: (builtMs: number) => historyRows(historyPlan(FLEET, builtMs), templates) };
const stores: StoreCopy[] = [await storeCopy('postgres', recipe), await storeCopy('postgres', recipe)];
const hosts: HostProcess[] = [];
const plan = historyPlan(FLEET, stores[0]!.manifest.builtMs);
try {
  for (const [i, n] of [1, 3].entries()) for (let k = 0; k < n; k++) hosts.push(await launchHost({ kind: 'postgres', url: stores[i]!.url! }, HOST_ENV));
  const fleets = { one: [hosts[0]!.url], three: hosts.slice(1).map((h) => h.url) };
  const pids = { one: [hosts[0]!.pid], three: hosts.slice(1).map((h) => h.pid) };
  const hostCpu = (name: 'one' | 'three') => pids[name].reduce((sum, pid) => sum + cpuMs(pid), 0);
  const run = async (name: 'one' | 'three', seed: number) => {
    const b = await balance(fleets[name]);
    try {
      const cpu0 = hostCpu(name);
      const mix = await driveMix(b.url, plan, { concurrency: CLIENTS, seed, durationMs: DURATION_MS, only: OPERATIONS, held: true });
      // Where the time goes: the hosts' CPU per request (all of them together), from /proc.
      const hostCpuMsPerRequest = round((hostCpu(name) - cpu0) / mix.requests, 3);
      return { rps: mix.requestsPerSecond, hostCpuMsPerRequest, statuses: mix.statuses, perHost: await b.close() };
    } catch (err) {
      await b.close();
      throw err;
    }
  };
  const loadBefore = loadAverage();
  // Warm-up, not measured: each host process sees as many requests as the single host does (its JIT warms per
  // process; three hosts behind one balancer each see a third of the load), so both sides are measured warm.
  await run('one', 0);
  for (let k = 0; k < 3; k++) await run('three', 0);
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 === 0 ? (['three', 'one'] as const) : (['one', 'three'] as const);
    const got: Partial<Record<'one' | 'three', Awaited<ReturnType<typeof run>>>> = {};
    for (const name of order) got[name] = await run(name, 1 + i);
    rounds.push({ first: order[0], one: got.one!, three: got.three!, ratio: round(got.three!.rps / got.one!.rps) });
    console.log(`round ${i + 1}: three hosts ${got.three!.rps} req/s (${got.three!.hostCpuMsPerRequest} ms host CPU per request), one host ${got.one!.rps} req/s (${got.one!.hostCpuMsPerRequest} ms) → ${round(got.three!.rps / got.one!.rps)}×`);
  }
  const loadAfter = loadAverage();
  const summary: BenchRow = {
    row: 'fleet throughput: three hosts on one PostgreSQL database behind a round-robin balancer, mixed load',
    ratio: round(median(rounds.map((r) => r.ratio))),
    peer: `one host behind the same balancer, same load and ${CLIENTS} clients: ${Math.round(median(rounds.map((r) => r.one.rps)))} req/s (load ${loadBefore[0]}–${loadAfter[0]})`,
    goal: `≥ ${GOAL}×`,
    figure: `${Math.round(median(rounds.map((r) => r.three.rps)))} req/s`,
  };
  const path = writeResult('host-fleet', {
    benchmark: 'host-fleet', node: process.version, summary,
    method: { rounds: ROUNDS, durationMs: DURATION_MS, clients: CLIENTS, operations: OPERATIONS, layout: FLEET, hostEnv: HOST_ENV },
    loadAverage: { before: loadBefore, after: loadAfter }, store: stores[0]!.manifest, rounds,
  }, `one PostgreSQL database built by bulk inserts (bench/.cache) for each side; ${CLIENTS} clients of a mixed load over random keys through a round-robin balancer, ${DURATION_MS / 1000} s per run, ${ROUNDS} interleaved rounds`);
  console.log(`${summary.row}: ${summary.figure}, ${summary.ratio}× (${summary.peer}; goal ${summary.goal}) → ${path}`);
} finally {
  for (const h of hosts) await h.stop();
  for (const s of stores) await s.drop();
}
