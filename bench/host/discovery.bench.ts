/**
 * Discovery throughput: the reference host's GET /.well-known/openwop against a bare Fastify app serving the same
 * document, side by side in one run. Each server runs in its own worker thread on loopback; autocannon (10
 * connections, 2 s) loads one at a time, alternating which goes first; the ratio is the median of the per-round
 * ratios of requests per second. Both answers are checked to be the same JSON first.
 * Run: npm run bench:discovery   → bench/results/host-discovery.json
 */
import { Worker } from 'node:worker_threads';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { median, round, writeResult } from '../summary.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const DURATION_S = 2;
const CONNECTIONS = 10;
const GOAL = 0.8;

async function start(kind: 'ours' | 'bare'): Promise<{ url: string; stop: () => Promise<void> }> {
  const worker = new Worker(new URL('./discovery-server.ts', import.meta.url), { workerData: { kind } });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', (m: { url: string }) => resolve(m.url));
    worker.once('error', reject);
  });
  return { url, stop: () => new Promise((resolve) => worker.once('exit', () => resolve()).postMessage('close')) };
}

const rps = async (url: string): Promise<number> => {
  const out = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  if (out.non2xx > 0 || out.errors > 0) throw new Error(`${url}: ${out.non2xx} non-2xx, ${out.errors} errors`);
  return out.requests.average;
};

const ours = await start('ours');
const bare = await start('bare');
const [a, b] = await Promise.all([fetch(ours.url), fetch(bare.url)]);
const [bodyA, bodyB] = [await a.json(), await b.json()];
if (!isDeepStrictEqual(bodyA, bodyB)) throw new Error('the two servers answer different documents');
await autocannon({ url: ours.url, connections: CONNECTIONS, duration: 1 }); // warm-up
await autocannon({ url: bare.url, connections: CONNECTIONS, duration: 1 });
const oursRps: number[] = [];
const bareRps: number[] = [];
const ratios: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  let x: number;
  let y: number;
  if (r % 2 === 0) {
    x = await rps(ours.url);
    y = await rps(bare.url);
  } else {
    y = await rps(bare.url);
    x = await rps(ours.url);
  }
  oursRps.push(x);
  bareRps.push(y);
  ratios.push(x / y);
  console.log(`round ${r + 1}: ours ${Math.round(x)} req/s, bare ${Math.round(y)} req/s, ratio ${(x / y).toFixed(2)}`);
}
await Promise.all([ours.stop(), bare.stop()]);
const ratio = round(median(ratios));
const path = writeResult('host-discovery', {
  benchmark: 'host-discovery',
  node: process.version,
  summary: {
    row: 'host discovery throughput (GET /.well-known/openwop)',
    ratio,
    peer: `bare Fastify serving the same JSON: ${Math.round(median(bareRps))} req/s`,
    goal: `≥ ${GOAL}×`,
    figure: `${Math.round(median(oursRps))} req/s`,
  },
  connections: CONNECTIONS,
  durationSec: DURATION_S,
  rounds: ROUNDS,
  documentBytes: JSON.stringify(bodyA).length,
  oursRequestsPerSec: oursRps.map(Math.round),
  bareRequestsPerSec: bareRps.map(Math.round),
  ratios: ratios.map((x) => round(x)),
});
console.log(`discovery: ${ratio}× bare Fastify → ${path}`);
