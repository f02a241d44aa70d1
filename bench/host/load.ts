/**
 * Load run against the reference host on loopback (bounded: 3 s per route, 10 connections), side by side in one
 * run: discovery and the two RFC 0068 seams. Records requests/s and p99 latency.
 * Run: npm run bench:host   → bench/results/host.json
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { createHost } from '../../runtime/host/server.ts';

const TOKEN = 'load-bench-token-0123456789';
const { app } = await createHost({ token: TOKEN });
const url = await app.listen({ port: 0, host: '127.0.0.1' });
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const routes = [
  { name: 'GET /.well-known/openwop', method: 'GET' as const, path: '/.well-known/openwop' },
  { name: 'POST /v1/host/sample/memory/consolidate', method: 'POST' as const, path: '/v1/host/sample/memory/consolidate', body: JSON.stringify({ memoryRef: 'mem://load/consolidation' }) },
  { name: 'POST /v1/host/sample/commitment/fire', method: 'POST' as const, path: '/v1/host/sample/commitment/fire', body: JSON.stringify({ memoryRef: 'mem://load/commitments', condition: 'time' }) },
];
const results = [];
for (const r of routes) {
  const out = await autocannon({ url: url + r.path, method: r.method, headers, ...(r.body ? { body: r.body } : {}), connections: 10, duration: 3 });
  results.push({ route: r.name, requestsPerSec: Math.round(out.requests.average), p50Ms: out.latency.p50, p99Ms: out.latency.p99, non2xx: out.non2xx, errors: out.errors });
}
await app.close();
console.table(results);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/host.json', `${JSON.stringify({ benchmark: 'host-load', node: process.version, connections: 10, durationSec: 3, results }, null, 2)}\n`);
