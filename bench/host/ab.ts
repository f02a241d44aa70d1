/**
 * The host benchmarks' A/B method: the reference host and a bare Fastify app serving the same JSON on the same paths
 * (server-worker.ts), each in its own worker thread on loopback; autocannon (10 connections, 2 s) loads one route of
 * one server at a time, alternating which server goes first; a route's ratio is the median of its per-round ratios
 * of requests per second. Both servers' answers are checked to be the same JSON first.
 */
import { Worker } from 'node:worker_threads';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import { DEFAULT_LIMITS } from '../../runtime/host/limits.ts';
import { median, round } from '../summary.ts';

export interface BenchRoute {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** Path and query string. */
  readonly path: string;
  readonly body?: string;
  /** Fields of the answer that differ on every request (ids): left out of the same-JSON check. */
  readonly varying?: readonly string[];
}

export const TOKEN = 'host-bench-token-0123456789';
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const DURATION_S = 2;
const CONNECTIONS = 10;

interface Server {
  readonly url: string;
  stop(): Promise<void>;
}

async function start(kind: 'ours' | 'bare', routes: readonly BenchRoute[], measure: readonly string[]): Promise<Server> {
  const worker = new Worker(new URL('./server-worker.ts', import.meta.url), { workerData: { kind, routes, measure, token: TOKEN } });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', (m: { url: string }) => resolve(m.url));
    worker.once('error', reject);
  });
  return { url, stop: () => new Promise((resolve) => worker.once('exit', () => resolve()).postMessage('close')) };
}

const requestOf = (base: string, r: BenchRoute) => ({
  url: base + r.path,
  method: r.method,
  headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
  ...(r.body !== undefined ? { body: r.body } : {}),
});

async function rps(base: string, r: BenchRoute, duration = DURATION_S): Promise<number> {
  const out = await autocannon({ ...requestOf(base, r), connections: CONNECTIONS, duration });
  // The reference host closes a kept-alive connection after maxRequestsPerSocket requests (limits.ts), and a request
  // the client already sent on it gets a 429: at most one per closed connection is expected, nothing else.
  const closings = Math.ceil(out.requests.total / DEFAULT_LIMITS.maxRequestsPerSocket) + CONNECTIONS;
  if (out.non2xx > closings || out.errors > 0) throw new Error(`${r.name}: ${out.non2xx} non-2xx, ${out.errors} errors`);
  return out.requests.average;
}

/** The answer without its varying fields, arrays in a canonical order (entries listed by random id come in any order). */
const without = (value: unknown, keys: readonly string[]): unknown =>
  Array.isArray(value)
    ? value.map((v) => without(v, keys)).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))
    : typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k)).map(([k, v]) => [k, without(v, keys)]))
      : value;

export interface RouteResult {
  readonly route: string;
  readonly ratio: number;
  readonly oursRps: number;
  readonly bareRps: number;
  readonly rounds: { ours: number; bare: number; ratio: number }[];
}

/**
 * Measure routes of ours against bare, interleaved (see the module comment): every route is checked and warmed in
 * order (a route may set up state a later one reads), and those named in `measure` (default: all) are measured.
 */
export async function compareWithBare(routes: readonly BenchRoute[], { measure = routes.map((r) => r.name) }: { readonly measure?: readonly string[] } = {}): Promise<{ results: RouteResult[]; method: Record<string, number> }> {
  const ours = await start('ours', routes, measure);
  const bare = await start('bare', routes, measure);
  try {
    const send = async (u: string, r: BenchRoute): Promise<unknown> => {
      const { url, ...init } = requestOf(u, r);
      return (await fetch(url, init)).json();
    };
    for (const r of routes) {
      if (!measure.includes(r.name)) {
        await send(ours.url, r); // set-up, ours only (the bare server answers recorded JSON)
        continue;
      }
      const [a, b] = [await send(ours.url, r), await send(bare.url, r)];
      if (!isDeepStrictEqual(without(a, r.varying ?? []), without(b, r.varying ?? []))) throw new Error(`${r.name}: the two servers answer different documents`);
      await rps(ours.url, r, 1); // warm-up
      await rps(bare.url, r, 1);
    }
    const results: RouteResult[] = [];
    for (const r of routes.filter((x) => measure.includes(x.name))) {
      const rounds: RouteResult['rounds'] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const first = i % 2 === 0 ? await rps(ours.url, r) : await rps(bare.url, r);
        const second = i % 2 === 0 ? await rps(bare.url, r) : await rps(ours.url, r);
        const [o, b] = i % 2 === 0 ? [first, second] : [second, first];
        rounds.push({ ours: Math.round(o), bare: Math.round(b), ratio: round(o / b) });
        console.log(`${r.name} round ${i + 1}: ours ${Math.round(o)} req/s, bare ${Math.round(b)} req/s, ratio ${(o / b).toFixed(2)}`);
      }
      results.push({ route: r.name, ratio: round(median(rounds.map((x) => x.ratio))), oursRps: Math.round(median(rounds.map((x) => x.ours))), bareRps: Math.round(median(rounds.map((x) => x.bare))), rounds });
    }
    return { results, method: { connections: CONNECTIONS, durationSec: DURATION_S, rounds: ROUNDS } };
  } finally {
    await Promise.all([ours.stop(), bare.stop()]);
  }
}
