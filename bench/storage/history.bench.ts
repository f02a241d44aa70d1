/**
 * History does not cost memory or start time (issue 22): the reference host started on a store holding a long
 * history (history-layout.ts: 1,000,000 memory entries, 1,000,000 events of 100,000 runs, 100,000 journal records,
 * 10,000 each of armed commitments, schedules, open questions and proposals) against the same host on an empty
 * store, side by side, on SQLite and on PostgreSQL.
 *
 * Each round starts a host process on each store (bench/host/child-host.ts: `npm start` bundled, `--expose-gc`),
 * alternating which goes first, and measures
 * - the time from spawn to the first `GET /readyz` 200;
 * - its RSS (VmRSS) after 2,000 mixed requests over random keys of the history (bench/host/mixed-load.ts: list pages
 *   and cursors, tag lists, entries, run event pages, seeds, forks, commitments, questions, proposals) and a full GC
 *   (the process runs it on SIGUSR2, bench/host/report-signal.ts).
 * The same requests go to both hosts (on the empty store, keys it does not hold answer 404). A ratio is the median
 * of the per-round ratios, empty ÷ history: 1 means history costs nothing.
 *
 * The stores are built once by bulk inserts and kept under bench/.cache (a copy is measured: every run starts from the
 * same data). Both hosts run with retention windows of ten years, so the measurement is serving, not a retention
 * sweep of a history built days ago.
 * Run: npm run bench:history   → bench/results/storage-history.json (BENCH_ROUNDS, default 5)
 */
import { launchHost, type HostProcess, type HostStore } from '../host/child-host.ts';
import { driveMix, type MixResult } from '../host/mixed-load.ts';
import { median, round, writeResult, type BenchRow } from '../summary.ts';
import { eachDurableKind, KIND_LABEL, loadAverage, loadNote, type DurableKind } from './environment.ts';
import { HISTORY, historyPlan, historyRows } from './history-layout.ts';
import { checkRows, recordTemplates, shapeOf } from './rows.ts';
import { emptyStore, storeCopy, type StoreCopy, type StoreRecipe } from './store-cache.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = 2_000;
const CONCURRENCY = 8;
/** Bump when the generator's output changes: the cached stores are rebuilt. */
const GENERATOR_VERSION = 1;
const TEN_YEARS_MS = String(10 * 365 * 86_400_000);
const HOST_ENV = { OPENWOP_RUN_RETENTION_MS: TEN_YEARS_MS, OPENWOP_SNAPSHOT_RETENTION_MS: TEN_YEARS_MS, OPENWOP_LIVE_RUN_RETENTION_MS: TEN_YEARS_MS };
const GOALS = { ready: 1.5, rss: 1.3 } as const;

const templates = await recordTemplates();
const checker = checkRows();
const recipe: StoreRecipe = {
  name: 'history',
  inputs: { HISTORY, GENERATOR_VERSION, templates: shapeOf(templates) },
  // Open questions fall due within the runtime's longest timeout (30 days) of the build: rebuilt well before.
  maxAgeMs: 7 * 86_400_000,
  rows: (builtMs) => historyRows(historyPlan(HISTORY, builtMs), templates),
  each: (row) => checker.check(row),
};

const hostStore = (c: StoreCopy): HostStore => (c.kind === 'sqlite' ? { kind: 'sqlite', dataDir: c.dataDir! } : { kind: 'postgres', url: c.url! });

interface Sample {
  readonly readyMs: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
  readonly mix: Pick<MixResult, 'requests' | 'requestsPerSecond' | 'statuses'>;
}

async function sample(store: StoreCopy, plan: ReturnType<typeof historyPlan>, seed: number, held: boolean): Promise<Sample> {
  const host: HostProcess = await launchHost(hostStore(store), HOST_ENV);
  try {
    const mix = await driveMix(host.url, plan, { concurrency: CONCURRENCY, seed, requests: REQUESTS, held });
    const report = await host.report();
    if (!report.gc) throw new Error('the host ran without --expose-gc');
    return { readyMs: Math.round(host.readyMs), rssBytes: report.vmRssBytes, heapUsedBytes: report.memory.heapUsed, mix: { requests: mix.requests, requestsPerSecond: mix.requestsPerSecond, statuses: mix.statuses } };
  } finally {
    await host.stop();
  }
}

const mb = (bytes: number): string => `${(bytes / 1_048_576).toFixed(0)} MB`;

async function measure(kind: DurableKind) {
  const history = await storeCopy(kind, recipe);
  const empty = await emptyStore(kind);
  try {
    const plan = historyPlan(HISTORY, history.manifest.builtMs);
    const loadBefore = loadAverage();
    // One start of each first, not measured: file caches, the bundle, the database's buffers.
    await sample(history, plan, 0, true);
    await sample(empty, plan, 0, false);
    const rounds: { first: string; history: Sample; empty: Sample; readyRatio: number; rssRatio: number }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 === 0 ? (['history', 'empty'] as const) : (['empty', 'history'] as const);
      const got: Partial<Record<'history' | 'empty', Sample>> = {};
      for (const which of order) got[which] = await sample(which === 'history' ? history : empty, plan, 1 + i, which === 'history');
      const h = got.history!;
      const e = got.empty!;
      rounds.push({ first: order[0], history: h, empty: e, readyRatio: round(e.readyMs / h.readyMs), rssRatio: round(e.rssBytes / h.rssBytes) });
      console.log(`${KIND_LABEL[kind]} round ${i + 1}: /readyz ${h.readyMs} ms vs ${e.readyMs} ms empty; RSS ${mb(h.rssBytes)} vs ${mb(e.rssBytes)} empty (${h.mix.requestsPerSecond} vs ${e.mix.requestsPerSecond} req/s)`);
    }
    return { kind, store: history.manifest, loadAverage: { before: loadBefore, after: loadAverage() }, rounds };
  } finally {
    await history.drop();
    await empty.drop();
  }
}

const { results, skipped } = await eachDurableKind(measure);

const summary: BenchRow[] = results.flatMap((r) => {
  const med = (f: (x: (typeof r.rounds)[number]) => number) => median(r.rounds.map(f));
  const label = KIND_LABEL[r.kind];
  const load = loadNote(r.loadAverage);
  return [
    {
      row: `host start on a long history (${label}): time to /readyz`,
      ratio: round(med((x) => x.readyRatio)),
      peer: `the same host on an empty store: ${Math.round(med((x) => x.empty.readyMs))} ms (${load})`,
      goal: `≥ ${round(1 / GOALS.ready)}× (within ${GOALS.ready}× of the empty store)`,
      figure: `${Math.round(med((x) => x.history.readyMs))} ms`,
    },
    {
      row: `host memory on a long history (${label}): RSS after 2,000 mixed requests and a GC`,
      ratio: round(med((x) => x.rssRatio)),
      peer: `the same host on an empty store: ${mb(med((x) => x.empty.rssBytes))} (${load})`,
      goal: `≥ ${round(1 / GOALS.rss)}× (within ${GOALS.rss}× of the empty store)`,
      figure: mb(med((x) => x.history.rssBytes)),
    },
  ];
});
const path = writeResult('storage-history', {
  benchmark: 'storage-history',
  node: process.version,
  summary,
  method: { rounds: ROUNDS, requests: REQUESTS, concurrency: CONCURRENCY, layout: HISTORY, hostEnv: HOST_ENV, rowsChecked: checker.checked },
  skipped,
  results,
}, `stores built by bulk inserts (bench/.cache): 1,000,000 memory entries, 1,000,000 events of 100,000 runs, 100,000 journal records, 10,000 each of armed commitments, schedules, open questions and proposals, against an empty store; ${REQUESTS} mixed requests over random keys, ${ROUNDS} interleaved rounds`);
for (const s of summary) console.log(`${s.row}: ${s.figure}, ${s.ratio}× (${s.peer}; goal ${s.goal})`);
console.log(`→ ${path}`);
