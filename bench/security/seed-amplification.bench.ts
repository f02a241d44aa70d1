/**
 * Issue 12, item 2: does per-request cost grow with history? (It did: 3,000 seeds with a secret took the host from
 * 122 MB to 572 MB, never freed, and writes from 5 ms to 38 ms; one library write from 0.2 ms to 177 ms after
 * 20,000 runs.) Peers are measured in the same run:
 *
 * - Host memory: a host after 10,000 seed-with-secret requests against a peer host after the same 10,000 seeds
 *   without a secret, each in its own child process (heap after GC and resident set). Every seed stores an entry,
 *   its journal record and an event, whatever it carries; what is measured is what the secret adds. The memory
 *   of the same host fresh is reported beside it.
 * - Host write latency (in-process `app.inject`): a host after 10,000 seeds with a secret against a fresh host,
 *   interleaved.
 * - Library: one write through the SR-1 chokepoint after 20,000 finished runs (ended), and after 20,000 runs
 *   abandoned without an end (dropped by the idle TTL on an injected clock), against a fresh runtime.
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
import { rng } from '../rng.ts';
import { interleavedMedians, memoryAfterGc, ratio, report, round } from './measure.ts';

const SEEDS = 10_000;
const FINISHED_RUNS = 20_000;
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

/** A runtime whose tenant has seen `runs` runs, each resolving a secret, writing and then ending or being abandoned. */
function libraryRuntime(runs: number, ending: 'ended' | 'abandoned') {
  const clock = new ManualClock();
  const rt = createOpenwopRuntime({ clock });
  const step = Math.ceil(DEFAULT_SECRET_REGISTRY_LIMITS.idleTtlMs / 200); // abandoned runs go idle over time: ~200 live at once
  for (let i = 0; i < runs; i++) {
    const secret = freshSecret();
    rt.byok.store(`k${i}`, secret, 'run');
    rt.byok.resolve(`run-${i}`, 'acme', `k${i}`);
    rt.writer.put('mem://acme/history', { content: `run ${i} used ${secret}` }, { runId: `run-${i}`, tenant: 'acme' });
    if (ending === 'ended') rt.registries.endRun(`run-${i}`);
    else clock.advance(step);
  }
  clock.advance(DEFAULT_SECRET_REGISTRY_LIMITS.idleTtlMs);
  // The measured writer: a live run with its own secret, writing 1 KiB that carries it.
  const secret = freshSecret();
  rt.registries.forRun('current', 'acme').register('k-current', secret, 'run');
  const content = `${CONTENT} key ${secret}.`;
  return { rt, write: () => rt.writer.put('mem://acme/measure', { content }, { runId: 'current', tenant: 'acme' }), live: rt.registries.liveForTenant('acme').length };
}

const lib0 = libraryRuntime(0, 'ended');
const libEnded = libraryRuntime(FINISHED_RUNS, 'ended');
const libAbandoned = libraryRuntime(FINISHED_RUNS, 'abandoned');
const library = await interleavedMedians({ fresh: lib0.write, ended: libEnded.write, abandoned: libAbandoned.write }, { rounds: 9, batch: 500 });

report('seed-amplification.json', {
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
});
