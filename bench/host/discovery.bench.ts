/**
 * Discovery throughput: the reference host's GET /.well-known/openwop against a bare Fastify app serving the same
 * document, side by side in one run (method: ab.ts).
 * Run: npm run bench:discovery   → bench/results/host-discovery.json
 */
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { writeResult } from '../summary.ts';
import { loadAverage } from '../storage/environment.ts';
import { compareWithBare } from './ab.ts';

const GOAL = 0.8;
const before = loadAverage();
const { results, method } = await compareWithBare([{ name: 'discovery', method: 'GET', path: ROUTES.discovery.path }]);
const after = loadAverage();
const r = results[0]!;
const path = writeResult('host-discovery', {
  benchmark: 'host-discovery',
  node: process.version,
  summary: {
    row: 'host discovery throughput (GET /.well-known/openwop)',
    ratio: r.ratio,
    peer: `bare Fastify serving the same JSON: ${r.bareRps} req/s (load ${before[0]}–${after[0]})`,
    goal: `≥ ${GOAL}×`,
    figure: `${r.oursRps} req/s`,
  },
  ...method,
  loadAverage: { before, after },
  rounds: r.rounds,
}, `the reference host on an empty in-memory store, bare Fastify answering the discovery document it recorded; autocannon, ${method.connections} connections, ${method.durationSec} s per run, ${method.rounds} interleaved rounds`);
console.log(`discovery: ${r.ratio}× bare Fastify → ${path}`);
