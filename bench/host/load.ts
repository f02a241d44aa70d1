/**
 * Host seam throughput: seam routes of the reference host on its in-memory store (the whole request path: auth,
 * tenant binding, body parsing and validation, the runtime, the store's transaction; logging off as in tests)
 * against a bare Fastify app in its fastest mode (no logger, its own JSON body parser) answering the same JSON on the
 * same paths, side by side in one run (method: ab.ts). Seams: a memory seed (one entry written through the SR-1
 * chokepoint, committed in one transaction with its journal record, event and counts; issue 22's goal ≥ 0.3×) and a
 * memory list (a 10-entry page of a seeded ref).
 * Run: npm run bench:host   → bench/results/host.json
 */
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { writeResult, type BenchRow } from '../summary.ts';
import { loadAverage } from '../storage/environment.ts';
import { compareWithBare, type BenchRoute } from './ab.ts';

const LISTED = 'mem://bench/listed';
/** Fields that differ on every write (ids, times). */
const VARYING = ['id', 'runId', 'createdAt', 'updatedAt', 'expiresAt'];
/** Each measured seam and its goal against bare Fastify. */
const routes: (BenchRoute & { readonly goal: number })[] = [
  {
    name: 'POST memory seed (one entry), in-memory store',
    method: 'POST',
    path: ROUTES.memorySeed.path,
    body: JSON.stringify({ memoryRef: 'mem://bench/seeded', entries: [{ content: 'Customer prefers email follow-up.', tags: ['pref'] }] }),
    varying: VARYING,
    goal: 0.3,
  },
  { name: 'GET memory entries (10), in-memory store', method: 'GET', path: `${ROUTES.memoryEntries.path}?tenant=bench&memoryRef=${encodeURIComponent(LISTED)}&limit=10`, varying: VARYING, goal: 0.5 },
];
// The listed ref is seeded by a first seed route (not timed), in both servers alike: recorded by the bare one.
const seedListed: BenchRoute = { name: 'seed the listed ref', method: 'POST', path: ROUTES.memorySeed.path, body: JSON.stringify({ memoryRef: LISTED, entries: Array.from({ length: 10 }, (_, i) => ({ content: `Listed entry ${i}.` })) }), varying: VARYING };

const before = loadAverage();
const { results, method } = await compareWithBare([seedListed, ...routes], { measure: routes.map((r) => r.name) });
const load = `load ${before[0]}–${loadAverage()[0]}`;
const summary: BenchRow[] = results.map((r) => ({
  row: `host seam throughput: ${r.route}`,
  ratio: r.ratio,
  peer: `bare Fastify serving the same JSON: ${r.bareRps} req/s (${load})`,
  goal: `≥ ${routes.find((x) => x.name === r.route)!.goal}×`,
  figure: `${r.oursRps} req/s`,
}));
const path = writeResult(
  'host',
  { benchmark: 'host-seams', node: process.version, summary, ...method, loadAverage: { before, after: loadAverage() }, results },
  `the reference host on an empty in-memory store, bare Fastify answering the JSON it recorded; the seed route posts the same one-entry body every time (its store grows by one entry per request), the list route reads a 10-entry page of one ref seeded once; autocannon, ${method.connections} connections, ${method.durationSec} s per run, ${method.rounds} interleaved rounds`,
);
console.log(`seams: ${results.map((r) => `${r.route} ${r.ratio}×`).join(', ')} → ${path}`);
