/**
 * Issue 12, item 2: does per-request cost grow with history? (It did: 3,000 seeds with a secret took the host from
 * 122 MB to 572 MB, never freed, and writes from 5 ms to 38 ms; one library write from 0.2 ms to 177 ms after
 * 20,000 runs.) Since issue 22 the history is in the store, never in the process: what is measured is that neither
 * the process nor a write's cost grows with it. Peers are measured in the same run:
 *
 * - Host memory: a host after 10,000 seed-with-secret requests against a peer host after the same 10,000 seeds
 *   without a secret, each in its own child process (heap after GC and resident set). Every seed stores an entry,
 *   its journal record and an event, whatever it carries; what is measured is what the secret adds. The memory
 *   of the same host fresh is reported beside it.
 * - Host write latency (in-process `app.inject`): a host after 10,000 seeds with a secret against a fresh host,
 *   interleaved.
 * - Library: one write through the SR-1 chokepoint (one request, committed) after 20,000 finished runs (ended), and
 *   after 20,000 runs abandoned without an end (dropped by the idle rule on an injected clock), against a fresh
 *   runtime — each on its own in-memory store.
 *
 * Run: npm run bench:security   → bench/results/seed-amplification.json
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createOpenwopRuntime } from '../../runtime/openwop/index.ts';
import { DEFAULT_SECRET_REGISTRY_LIMITS } from '../../runtime/redaction/secret-registry.ts';
import { ManualClock } from '../../runtime/shared/clock.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import { unitOfWork, type Tx } from '../../runtime/storage/index.ts';
import { rng } from '../rng.ts';
import { interleavedMedians, memoryAfterGc, ratio, report, round } from './measure.ts';

/** Seeds and finished runs of the peers (BENCH_SCALE divides both, for a quick look). */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const SEEDS = 10_000 / SCALE;
const FINISHED_RUNS = 20_000 / SCALE;
const TOKEN = 'security-bench-token-0123456789';
const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const random = rng(12);
const freshSecret = () => `sk-live-${Math.floor(random() * 2 ** 52).toString(36)}-${Math.floor(random() * 2 ** 52).toString(36)}`;

type Host = Awaited<ReturnType<typeof createHost>>['app'];
let n = 0;
async function seed(app: Host, withSecret: boolean): Promise<void> {
  const secret = freshSecret();
  const body = { memoryRef: 'mem://acme/notes', entries: [{ content: `note ${n++}: the deploy key is ${secret}` }], ...(withSecret ? { secrets: [{ secretId: `byok-${n}`, value: secret }] } : {}) };
  const r = await app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: HEADERS, payload: JSON.stringify(body) });
  if (r.statusCode !== 200) throw new Error(`seed answered ${r.statusCode}: ${r.body}`);
}

async function freshHost(): Promise<Host> {
  const { app } = await createHost({ token: TOKEN });
  for (let i = 0; i < 200; i++) await seed(app, i % 2 === 0); // warm-up
  return app;
}

/** Memory of a host fresh and after `count` seeds, in this (child) process. */
async function seeded(count: number, withSecret: boolean) {
  const app = await freshHost();
  const fresh = memoryAfterGc();
  const t = performance.now();
  for (let i = 0; i < count; i++) await seed(app, withSecret);
  const msPerSeed = round((performance.now() - t) / count);
  const after = memoryAfterGc();
  await app.close();
  return { fresh, after, msPerSeed, retainedBytesPerSeed: Math.round(((after.heapMiB - fresh.heapMiB) * 2 ** 20) / count) };
}
type Seeded = Awaited<ReturnType<typeof seeded>>;

if (process.argv[2] === 'child') {
  process.stdout.write(JSON.stringify(await seeded(SEEDS, process.argv[3] === 'secret')));
  process.exit(0);
}

/** One host's memory measured in a child process of its own (the resident set of a process never shrinks back). */
function inChild(mode: 'secret' | 'plain'): Seeded {
  const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), 'child', mode], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`child ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Seeded;
}

// ── Host ────────────────────────────────────────────────────────────────────────────────────────────────────────
const withSecrets = inChild('secret');
const withoutSecrets = inChild('plain');
const afterSeeds = await freshHost();
for (let i = 0; i < SEEDS; i++) await seed(afterSeeds, true);
const fresh = await freshHost();
const latency = await interleavedMedians({ afterSeeds: () => seed(afterSeeds, true), fresh: () => seed(fresh, true) }, { rounds: 15, batch: 200 });
await Promise.all([fresh.close(), afterSeeds.close()]);

// ── Library ─────────────────────────────────────────────────────────────────────────────────────────────────────
const CONTENT = `Customer note. ${'The refund window is thirty days and shipping is free above fifty euros. '.repeat(13)}`;

/**
 * A runtime over an in-memory store whose tenant has seen `runs` runs, each resolving a secret and writing in one
 * request, then ending (another request) or being abandoned (its registry dropped by the idle rule as the clock
 * moves, as the host's background work does); and the measured write: a live run with its own secret, writing
 * 1 KiB that carries it, in one request.
 */
async function libraryRuntime(runs: number, ending: 'ended' | 'abandoned') {
  const clock = new ManualClock();
  const port = await openMemoryStore();
  const rt = createOpenwopRuntime({ port, clock, runBounds: { endedRunsPerTenant: 10 * FINISHED_RUNS } });
  // One request, as the host runs it: its reads and writes in one plan, re-run from its reads when the store refuses
  // the plan as stale (a tenant's registries moved since the runtime last read them: the idle drop above moves them).
  const request = <T>(f: (tx: Tx) => Promise<T> | T): Promise<T> => unitOfWork(port, f);
  const idle = DEFAULT_SECRET_REGISTRY_LIMITS.idleTtlMs;
  const step = Math.ceil(idle / 200); // abandoned runs go idle over time: ~200 live at once
  for (let i = 0; i < runs; i++) {
    const secret = freshSecret();
    rt.byok.store(`k${i}`, secret, 'run');
    await request(async (plan) => {
      const scope = await rt.secretsOf(plan, 'acme');
      scope.claimRun(`run-${i}`);
      await rt.byok.resolve(scope, `run-${i}`, `k${i}`);
      await rt.writer.put(plan, 'mem://acme/history', { content: `run ${i} used ${secret}` }, { runId: `run-${i}`, tenant: 'acme' });
    });
    if (ending === 'ended') await request(async (plan) => (await rt.secretsOf(plan, 'acme')).endRun(`run-${i}`));
    else {
      clock.advance(step);
      await request((plan) => void plan.add('secrets.dropIdle', { cutoffMs: clock.now() - idle, limit: 500 }));
    }
  }
  clock.advance(idle);
  await request((plan) => void plan.add('secrets.dropIdle', { cutoffMs: clock.now() - idle, limit: 1_000_000 }));
  const secret = freshSecret();
  await request(async (plan) => {
    const scope = await rt.secretsOf(plan, 'acme');
    scope.claimRun('current');
    await scope.register('current', 'k-current', secret, 'run');
  });
  const content = `${CONTENT} key ${secret}.`;
  const live = Number((await port.reads.get("SELECT count(*) AS n FROM secret_registries WHERE tenant = 'acme' AND state = 'live'"))!.n);
  return { write: () => request((plan) => rt.writer.put(plan, 'mem://acme/measure', { content }, { runId: 'current', tenant: 'acme' })), live, close: () => port.close() };
}

const lib0 = await libraryRuntime(0, 'ended');
const libEnded = await libraryRuntime(FINISHED_RUNS, 'ended');
const libAbandoned = await libraryRuntime(FINISHED_RUNS, 'abandoned');
const library = await interleavedMedians({ fresh: lib0.write, ended: libEnded.write, abandoned: libAbandoned.write }, { rounds: 9, batch: 500 });
await Promise.all([lib0.close(), libEnded.close(), libAbandoned.close()]);

report('seed-amplification', {
  benchmark: 'seed-amplification',
  host: {
    seeds: SEEDS,
    withSecret: withSecrets,
    withoutSecret: withoutSecrets,
    heapRatioVsSameHostFresh: round(withSecrets.after.heapMiB / withSecrets.fresh.heapMiB),
    writeLatencyMs: { afterSeeds: round(latency.afterSeeds, 4), fresh: round(latency.fresh, 4) },
  },
  library: {
    finishedRuns: FINISHED_RUNS,
    liveRegistriesAtMeasure: { fresh: lib0.live, ended: libEnded.live, abandoned: libAbandoned.live },
    writeMs: { fresh: round(library.fresh, 5), ended: round(library.ended, 5), abandoned: round(library.abandoned, 5) },
  },
  checks: [
    ratio('host heap after 10k seeds: with a secret / without', withSecrets.after.heapMiB / withoutSecrets.after.heapMiB, 1.2, 'a host given the same seeds without secrets'),
    ratio('host RSS after 10k seeds: with a secret / without', withSecrets.after.rssMiB / withoutSecrets.after.rssMiB, 1.2, 'a host given the same seeds without secrets'),
    ratio('host write latency after 10k seeds / fresh host', latency.afterSeeds / latency.fresh, 1.2, 'a fresh host'),
    ratio('library write after 20k ended runs / fresh', library.ended / library.fresh, 1.2, 'a fresh runtime'),
    ratio('library write after 20k abandoned runs / fresh', library.abandoned / library.fresh, 1.2, 'a fresh runtime'),
  ],
}, `host: ${SEEDS} seeds of a 1 KiB entry with and without a fresh secret (child processes), write latency by app.inject; library: ${FINISHED_RUNS} runs ended or abandoned before the measured write, each runtime on its own in-memory store`);
