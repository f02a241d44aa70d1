/**
 * Issue 12, item 4: predicate commitments stay armed, and every fire request used to evaluate all of them three
 * times, one at a time (750 → 44 req/s after 6,000 commitments). The fire rate with 10,000 armed predicate
 * commitments against 10, measured in the same run, interleaved. Both peers carry the same history (entries,
 * events, runs, ledger), so the ratio measures the armed commitments and not the size of the heap:
 *
 * - library: what the fire seam does, on the runtime — write an intention entry, arm its commitment, turn its
 *   predicate true, evaluate three times. Both runtimes arm 10,000 predicate commitments first (half of them
 *   fire); the peer then cancels all but 10.
 * - host: the fire seam itself over `app.inject`, after 10,000 earlier predicate fire requests (each leaves its
 *   commitment armed) against a host after 10,000 earlier time fire requests (each fires and disarms).
 *
 * Run: npm run bench:security   → bench/results/commitments.json
 */
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createOpenwopRuntime } from '../../runtime/openwop/index.ts';
import { interleavedMedians, ratio, report, round } from './measure.ts';

const MANY = 10_000;
const FEW = 10;
const REF = 'mem://acme/agent';

/** A runtime that armed 10,000 predicate commitments (half fired) and keeps `armed` of them, and one fire request on it. */
async function library(armed: number) {
  const rt = createOpenwopRuntime();
  let n = 0;
  const arm = () => {
    const entry = rt.writer.put(REF, { content: 'Remind me to follow up on the contract', tags: ['intent:remind', `when:p-${n}`, 'action:run'] }, { tenant: 'acme' });
    return { predicate: `p-${n++}`, ids: rt.commitments.inferFrom(REF, entry).map((c) => c.commitmentId) };
  };
  const history = Array.from({ length: MANY }, (_, i) => {
    const { predicate, ids } = arm();
    if (i % 2 === 0) rt.predicates.set('acme', predicate, true);
    return ids;
  });
  await rt.commitments.tick();
  for (const id of history.slice(armed).flat()) rt.commitments.cancel(id);
  const fire = async () => {
    rt.predicates.set('acme', arm().predicate, true);
    for (let i = 0; i < 3; i++) await rt.commitments.tick();
  };
  return { fire, armedCount: () => rt.commitments.armedCount };
}

const TOKEN = 'security-bench-token-0123456789';
const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const FIRE = JSON.stringify({ memoryRef: REF, condition: 'predicate' });

/** A host after `earlier` fire requests of `condition`, and one more predicate fire request on it. */
async function host(earlier: number, condition: 'predicate' | 'time') {
  const { app } = await createHost({ token: TOKEN });
  const fire = async (body = FIRE) => {
    const r = await app.inject({ method: 'POST', url: ROUTES.commitmentFire.path, headers: HEADERS, payload: body });
    if (r.statusCode !== 200) throw new Error(`fire answered ${r.statusCode}: ${r.body}`);
  };
  const before = JSON.stringify({ memoryRef: REF, condition });
  for (let i = 0; i < earlier; i++) await fire(before);
  return { app, fire: () => fire() };
}

const [libFew, libMany] = [await library(FEW), await library(MANY)];
const lib = await interleavedMedians({ few: libFew.fire, many: libMany.fire }, { rounds: 15, batch: 300 });
const [hostFew, hostMany, hostSmall] = [await host(MANY, 'time'), await host(MANY, 'predicate'), await host(FEW, 'predicate')];
const seam = await interleavedMedians({ few: hostFew.fire, many: hostMany.fire, small: hostSmall.fire }, { rounds: 15, batch: 200 });
await Promise.all([hostFew.app.close(), hostMany.app.close(), hostSmall.app.close()]);

const perSecond = (ms: number) => Math.round(1000 / ms);
report('commitments.json', {
  benchmark: 'commitment-fire-rate',
  library: { armedAtStart: { few: FEW, many: MANY }, armedAtEnd: { few: libFew.armedCount(), many: libMany.armedCount() }, fireMs: { few: round(lib.few, 5), many: round(lib.many, 5) }, firesPerSecond: { few: perSecond(lib.few), many: perSecond(lib.many) } },
  host: {
    earlierFires: MANY,
    fireMs: { afterTimeFires: round(seam.few, 4), afterPredicateFires: round(seam.many, 4), afterTenFires: round(seam.small, 4) },
    requestsPerSecond: { afterTimeFires: perSecond(seam.few), afterPredicateFires: perSecond(seam.many), afterTenFires: perSecond(seam.small) },
  },
  checks: [
    ratio('library fire rate: 10 armed / 10k armed (same history)', lib.many / lib.few, 1.5, '10 armed predicate commitments'),
    ratio('fire seam rate: 10k armed / none armed (same history)', seam.many / seam.few, 1.5, 'a host after 10k time fire requests'),
  ],
});
