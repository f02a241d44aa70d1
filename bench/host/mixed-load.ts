/**
 * A mixed request load over HTTP on random keys of a history store (history-layout.ts): list pages (first, next by
 * cursor, by tag), single entries, run event pages, seeds, forks, commitments armed and fired, operator questions
 * proposed and answered, proposal lists — each operation a row of MIX with its weight and the statuses it may answer:
 * on a store that holds the plan every key read is found and every fork (of a run the journal still covers) served;
 * on an empty store a key answers 404. Anything else stops the load with the answer, so the load also checks that
 * the bulk-built store reads back through the runtime.
 *
 * `driveMix` sends a given number of operations, or sends for a given time, from `concurrency` clients; the same seed
 * sends the same operations.
 */
import { ROUTES, urlOf } from '../../runtime/host/seam-catalogue.ts';
import { HistoryKeys, type HistoryPlan } from '../storage/history-layout.ts';
import { contentOf, questionRequest } from '../storage/rows.ts';
import { BENCH_TOKEN } from './child-host.ts';

interface Call {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
}

interface Answer {
  readonly status: number;
  readonly json: unknown;
}

type Send = (call: Call, ok: readonly number[]) => Promise<Answer>;

interface MixOp {
  readonly name: string;
  readonly weight: number;
  /** Send the operation (one request, or a short sequence); `held`: the store holds the plan's keys. */
  run(k: HistoryKeys, send: Send, n: number, held: boolean): Promise<void>;
}

const FOUND = [200] as const;
/** A key of the plan: found on a store that holds the plan, unknown (404) on another. */
const keyed = (held: boolean, found: readonly number[] = FOUND): readonly number[] => (held ? found : [404]);

/** The operations of the mix and their weights (per 100). */
export const MIX: readonly MixOp[] = [
  { name: 'list page', weight: 20, run: async (k, send) => void (await send({ method: 'GET', path: urlOf(ROUTES.memoryList, { params: { memoryRef: k.ref().memoryRef }, query: { limit: 10 } }) }, FOUND)) },
  {
    name: 'list next page (cursor)',
    weight: 8,
    run: async (k, send) => {
      const { memoryRef } = k.ref();
      const first = (await send({ method: 'GET', path: urlOf(ROUTES.memoryList, { params: { memoryRef }, query: { limit: 10 } }) }, FOUND)).json as { nextCursor?: string };
      if (first.nextCursor !== undefined) await send({ method: 'GET', path: urlOf(ROUTES.memoryList, { params: { memoryRef }, query: { limit: 10, cursor: first.nextCursor } }) }, FOUND);
    },
  },
  { name: 'list by tag', weight: 8, run: async (k, send) => void (await send({ method: 'GET', path: urlOf(ROUTES.memoryList, { params: { memoryRef: k.ref().memoryRef }, query: { limit: 10, tag: k.tag() } }) }, FOUND)) },
  {
    name: 'get entry',
    weight: 15,
    run: async (k, send, _n, held) => {
      const e = k.entry();
      await send({ method: 'GET', path: urlOf(ROUTES.memoryEntry, { query: { tenant: e.tenant, memoryRef: e.memoryRef, id: e.id } }) }, keyed(held));
    },
  },
  {
    name: 'run events page',
    weight: 15,
    run: async (k, send, _n, held) => {
      const r = k.run();
      await send({ method: 'GET', path: urlOf(ROUTES.runEvents, { params: { runId: r.runId }, query: { fromSeq: k.pick([0, 3, 6]), limit: 10 } }) }, keyed(held));
    },
  },
  {
    name: 'seed one entry',
    weight: 15,
    run: async (k, send, n) => void (await send({ method: 'POST', path: ROUTES.memorySeed.path, body: { memoryRef: k.ref().memoryRef, entries: [{ content: contentOf(2_000_000 + n), tags: [k.tag()] }] } }, FOUND)),
  },
  {
    name: 'fork a recent run',
    weight: 7,
    run: async (k, send, _n, held) => {
      const r = k.run(true);
      await send({ method: 'POST', path: ROUTES.runFork.path.replace('{runId}', encodeURIComponent(r.runId)), body: { fromSeq: k.pick([1, 4, 8]) } }, keyed(held, [201]));
    },
  },
  { name: 'arm and fire a commitment', weight: 4, run: async (k, send) => void (await send({ method: 'POST', path: ROUTES.commitmentFire.path, body: { memoryRef: k.ref().memoryRef, condition: 'time' } }, FOUND)) },
  {
    name: 'propose and answer a question',
    weight: 4,
    run: async (_k, send, n) => {
      const ref = `question/mix/${process.pid}/${n}/${Math.random().toString(36).slice(2, 8)}`;
      const key = `mix:${ref}`;
      await send({ method: 'POST', path: ROUTES.questionPropose.path, body: questionRequest(ref, key) }, [201]);
      await send({ method: 'POST', path: ROUTES.inquiriumRespond.path, body: { schema: 'inquirium.operator-question.answer.v1', 'question/ref': ref, 'idempotency/key': key, answer: ['notes'] } }, FOUND);
    },
  },
  { name: 'list proposals', weight: 2, run: async (k, send) => void (await send({ method: 'GET', path: urlOf(ROUTES.proposals, { query: { tenant: k.tenant() } }) }, FOUND)) },
  {
    name: 'list page (sample seam)',
    weight: 2,
    run: async (k, send) => {
      const { tenant, memoryRef } = k.ref();
      await send({ method: 'GET', path: urlOf(ROUTES.memoryEntries, { query: { tenant, memoryRef, limit: 10 } }) }, FOUND);
    },
  },
];

/** The statuses each operation got, and how fast the whole mix went. */
export interface MixResult {
  readonly requests: number;
  readonly operations: number;
  readonly elapsedMs: number;
  readonly requestsPerSecond: number;
  /** operation → status → count. */
  readonly statuses: Record<string, Record<string, number>>;
}

export interface MixOptions {
  readonly concurrency: number;
  readonly seed: number;
  /** Stop once this many requests were answered (an operation may send two: the count can pass it by one per client) … */
  readonly requests?: number;
  /** … or after this many operations … */
  readonly operations?: number;
  /** … or after this long. */
  readonly durationMs?: number;
  /** Only these operations (by name); default all. */
  readonly only?: readonly string[];
  /** The store holds the plan's keys (a key read must be found, a recent run forked); false: an empty store (404). */
  readonly held: boolean;
}

/** Send the mix to `baseUrl` (every request with the benchmark's operator token). */
export async function driveMix(baseUrl: string, plan: HistoryPlan, o: MixOptions): Promise<MixResult> {
  const ops = MIX.filter((m) => o.only === undefined || o.only.includes(m.name));
  const total = ops.reduce((s, m) => s + m.weight, 0);
  const keys = new HistoryKeys(plan, o.seed);
  const choose = (): MixOp => {
    let x = keys.int(total);
    for (const m of ops) if ((x -= m.weight) < 0) return m;
    return ops[0]!;
  };
  const statuses: Record<string, Record<string, number>> = {};
  let requests = 0;
  let inFlight = 0;
  let started = 0;
  const t0 = performance.now();
  const more = () =>
    o.requests !== undefined ? requests + inFlight < o.requests : o.operations !== undefined ? started < o.operations : performance.now() - t0 < (o.durationMs ?? 0);
  const sendAs = (op: string): Send => async (call, ok) => {
    const res = await fetch(baseUrl + call.path, {
      method: call.method,
      headers: { authorization: `Bearer ${BENCH_TOKEN}`, ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    });
    const text = await res.text();
    requests++;
    const byStatus = (statuses[op] ??= {});
    byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
    if (!ok.includes(res.status)) throw new Error(`${op}: ${call.method} ${call.path} answered ${res.status}: ${text.slice(0, 300)}`);
    return { status: res.status, json: text.length > 0 ? (JSON.parse(text) as unknown) : undefined };
  };
  await Promise.all(Array.from({ length: o.concurrency }, async () => {
    while (more()) {
      const n = started++;
      const op = choose();
      inFlight++;
      try {
        await op.run(keys, sendAs(op.name), n, o.held);
      } finally {
        inFlight--;
      }
    }
  }));
  const elapsedMs = performance.now() - t0;
  return { requests, operations: started, elapsedMs: Math.round(elapsedMs), requestsPerSecond: Math.round((requests * 1000) / elapsedMs), statuses };
}
