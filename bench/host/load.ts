/**
 * Host seam throughput: seam routes of the reference host (the whole request path: auth, tenant binding, body
 * parsing and validation, the runtime, logging off as in tests) against a bare Fastify app answering the same JSON
 * on the same paths, side by side in one run (method: ab.ts). Seams: a memory seed (one entry written through the
 * SR-1 chokepoint) and a memory list (ten entries of a seeded ref).
 * Run: npm run bench:host   → bench/results/host.json
 */
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { median, round, writeResult, type BenchRow } from '../summary.ts';
import { compareWithBare, type BenchRoute } from './ab.ts';

const GOAL = 0.5;
const LISTED = 'mem://bench/listed';
/** Fields that differ on every write (ids, times). */
const VARYING = ['id', 'runId', 'createdAt', 'updatedAt', 'expiresAt'];
const routes: BenchRoute[] = [
  {
    name: 'POST memory seed (one entry)',
    method: 'POST',
    path: ROUTES.memorySeed.path,
    body: JSON.stringify({ memoryRef: 'mem://bench/seeded', entries: [{ content: 'Customer prefers email follow-up.', tags: ['pref'] }] }),
    varying: VARYING,
  },
  { name: 'GET memory entries (10)', method: 'GET', path: `${ROUTES.memoryEntries.path}?tenant=bench&memoryRef=${encodeURIComponent(LISTED)}&limit=10`, varying: VARYING },
];
// The listed ref is seeded by a first seed route (not timed), in both servers alike: recorded by the bare one.
const seedListed: BenchRoute = { name: 'seed the listed ref', method: 'POST', path: ROUTES.memorySeed.path, body: JSON.stringify({ memoryRef: LISTED, entries: Array.from({ length: 10 }, (_, i) => ({ content: `Listed entry ${i}.` })) }), varying: VARYING };

const { results, method } = await compareWithBare([seedListed, ...routes], { measure: routes.map((r) => r.name) });
const summary: BenchRow[] = results.map((r) => ({ row: `host seam throughput: ${r.route}`, ratio: r.ratio, peer: `bare Fastify serving the same JSON: ${r.bareRps} req/s`, goal: `≥ ${GOAL}×`, figure: `${r.oursRps} req/s` }));
summary.push({ row: 'host seam throughput, median of the seams', ratio: round(median(results.map((r) => r.ratio))), peer: 'bare Fastify serving the same JSON', goal: `≥ ${GOAL}×` });
const path = writeResult('host', { benchmark: 'host-seams', node: process.version, summary, ...method, results });
console.log(`seams: ${results.map((r) => `${r.route} ${r.ratio}×`).join(', ')} → ${path}`);
