/**
 * Issue 12, item 4: predicate commitments stay armed, and every fire request used to evaluate all of them three
 * times, one at a time (750 → 44 req/s after 6,000 commitments). Now the store keeps them and a tick reads only
 * the predicates that changed (issue 22). The fire rate with 10,000 armed predicate commitments against 10,
 * measured in the same run, interleaved. Both peers carry the same history (entries, events, runs, ledger), so
 * the ratio measures the armed commitments and not the size of the store:
 *
 * - library: what the fire seam does, on the runtime over an in-memory store — write an intention entry and arm its
 *   commitment (one request), turn its predicate true, evaluate three times. Both runtimes arm 10,000 predicate
 *   commitments first (half of them fire); the peer then cancels all but 10.
 * - host: the fire seam itself over `app.inject`, after 10,000 earlier predicate fire requests (each leaves its
 *   commitment armed) against a host after 10,000 earlier time fire requests (each fires and disarms).
 *
 * Run: npm run bench:security   → bench/results/commitments.json
 */
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createOpenwopRuntime } from '../../runtime/openwop/index.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import { unitOfWork, type Tx } from '../../runtime/storage/index.ts';
import { agenda } from '../../runtime/storage/reads/work.ts';
import { interleavedMedians, ratio, report, round } from './measure.ts';

/** Armed commitments of the large peer (BENCH_MANY overrides, for a quick look). */
const MANY = Number(process.env.BENCH_MANY ?? 10_000);
const FEW = 10;
const REF = 'mem://acme/agent';
/** The bounds on armed commitments and on follow-up runs are not what is measured here: lifted. */
const LIFTED = 1_000_000_000;

/** A runtime that armed 10,000 predicate commitments (half fired) and keeps `armed` of them, and one fire request on it. */
async function library(armed: number) {
  const port = await openMemoryStore();
  const rt = createOpenwopRuntime({ port, armedCommitmentsPerTenant: LIFTED, runBounds: { followUpRunsPerTenant: LIFTED } });
  const request = async <T>(f: (tx: Tx) => Promise<T> | T): Promise<T> => {
    return unitOfWork(port, f);
  };
  let n = 0;
  const arm = () => request(async (plan) => {
    const predicate = `p-${n++}`;
    const { entry } = await rt.writer.put(plan, REF, { content: 'Remind me to follow up on the contract', tags: ['intent:remind', `when:${predicate}`, 'action:run'] }, { tenant: 'acme' });
    return { predicate, ids: rt.commitments.inferFrom(plan, REF, entry).map((c) => c.commitmentId) };
  });
  const history: string[][] = [];
  for (let i = 0; i < MANY; i++) {
    const { predicate, ids } = await arm();
    if (i % 2 === 0) await unitOfWork(rt.port, (tx) => rt.commitments.setPredicate(tx, 'acme', predicate, true));
    history.push(ids);
  }
  while ((await agenda(port.reads)).predicates > 0) await rt.commitments.tick(); // every changed predicate evaluated once
  await request(async (plan) => {
    for (const id of history.slice(armed).flat()) await rt.commitments.cancel(plan, 'acme', id);
  });
  const fire = async () => {
    const { predicate } = await arm();
    await unitOfWork(rt.port, (tx) => rt.commitments.setPredicate(tx, 'acme', predicate, true));
    for (let i = 0; i < 3; i++) await rt.commitments.tick();
  };
  const armedCount = async () => Number((await port.reads.get("SELECT count(*) AS n FROM commitments WHERE tenant = 'acme' AND state = 'armed'"))!.n);
  return { fire, armedCount, close: () => port.close() };
}

const TOKEN = 'security-bench-token-0123456789';
const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const FIRE = JSON.stringify({ memoryRef: REF, condition: 'predicate' });

/** A host after `earlier` fire requests of `condition`, and one more predicate fire request on it. */
async function host(earlier: number, condition: 'predicate' | 'time') {
  const { app } = await createHost({ token: TOKEN, logger: false, limits: { armedCommitmentsPerTenant: LIFTED, followUpRunsPerTenant: LIFTED } });
  const fire = async (body = FIRE) => {
    const r = await app.inject({ method: 'POST', url: ROUTES.commitmentFire.path, headers: HEADERS, payload: body });
    if (r.statusCode !== 200) throw new Error(`fire answered ${r.statusCode}: ${r.body}`);
  };
  const before = JSON.stringify({ memoryRef: REF, condition });
  for (let i = 0; i < earlier; i++) await fire(before);
  return { app, fire: () => fire() };
}

const [libFew, libMany] = [await library(FEW), await library(MANY)];
const lib = await interleavedMedians({ few: libFew.fire, many: libMany.fire }, { rounds: 15, batch: 100 });
const armedAtEnd = { few: await libFew.armedCount(), many: await libMany.armedCount() };
await Promise.all([libFew.close(), libMany.close()]);
const [hostFew, hostMany, hostSmall] = [await host(MANY, 'time'), await host(MANY, 'predicate'), await host(FEW, 'predicate')];
const seam = await interleavedMedians({ few: hostFew.fire, many: hostMany.fire, small: hostSmall.fire }, { rounds: 15, batch: 100 });
await Promise.all([hostFew.app.close(), hostMany.app.close(), hostSmall.app.close()]);

const perSecond = (ms: number) => Math.round(1000 / ms);
report('commitments', {
  benchmark: 'commitment-fire-rate',
  library: { armedAtStart: { few: FEW, many: MANY }, armedAtEnd, fireMs: { few: round(lib.few, 5), many: round(lib.many, 5) }, firesPerSecond: { few: perSecond(lib.few), many: perSecond(lib.many) } },
  host: {
    earlierFires: MANY,
    fireMs: { afterTimeFires: round(seam.few, 4), afterPredicateFires: round(seam.many, 4), afterTenFires: round(seam.small, 4) },
    requestsPerSecond: { afterTimeFires: perSecond(seam.few), afterPredicateFires: perSecond(seam.many), afterTenFires: perSecond(seam.small) },
  },
  checks: [
    ratio('library fire rate: 10 armed / 10k armed (same history)', lib.many / lib.few, 1.5, '10 armed predicate commitments'),
    ratio('fire seam rate: 10k armed / none armed (same history)', seam.many / seam.few, 1.5, 'a host after 10k time fire requests'),
  ],
}, `each runtime on its own in-memory store with the same history; ${MANY} armed predicate commitments against ${FEW}; the host: ${MANY} earlier predicate fire requests against as many time fire requests (app.inject)`);
