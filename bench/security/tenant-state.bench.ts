/**
 * Per-tenant state bounds (issue 12 item 8b; issue 22: the state is in the store), measured against a named peer in
 * the same run:
 * - fixture seams: store rows kept per request past the bound (the replay journal aside: it is bounded by time), on
 *   a host with the default `fixturesPerTenant` bound vs. the same host with the bound lifted (the peer: how the
 *   host behaved before fixtures were retired); the journal rows and the heap kept per request are reported beside
 *   it (the process keeps no fixture state: both heaps are near zero);
 * - operator questions: the cost of one propose + answer on a host already holding many ended questions of other
 *   tenants vs. on an empty host (the peer) — questions are read by index, so the ratio should stay near 1.
 * Run: npx tsx bench/security/tenant-state.bench.ts   → bench/results/security-tenant-state.json
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DEFAULT_LIMITS } from '../../runtime/host/limits.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createHost } from '../../runtime/host/server.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { SCHEMA_TABLES } from '../../runtime/storage/sql/schema.ts';
import { ratio, report } from './measure.ts';
import { unitsOf } from '../../runtime/storage/index.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const TOKEN = 'bench-tenant-state-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const UNBOUNDED = 1_000_000_000;

/** Rows of every table of a store but the replay journal, and the journal's. */
async function storeRows(store: StoragePort): Promise<{ rows: number; journal: number }> {
  const out = { rows: 0, journal: 0 };
  for (const t of SCHEMA_TABLES) {
    const n = Number((await store.reads.get(`SELECT count(*) AS n FROM ${t}`))!.n);
    if (t === 'journal') out.journal += n;
    else out.rows += n;
  }
  return out;
}

/**
 * Store rows and heap bytes kept per fixture request, past the bound (steady state), on a host with
 * `fixturesPerTenant`. Journal records are counted apart: every memory write leaves one, bounded by time
 * (`snapshotRetentionMs`), not per tenant.
 */
async function fixtureKeptPerRequest(path: string, body: unknown, fixturesPerTenant: number, n: number): Promise<{ rows: number; journalRows: number; heapBytes: number }> {
  const { app, store } = await createHost({ token: TOKEN, logger: false, limits: { fixturesPerTenant } });
  const send = () => app.inject({ method: 'POST', url: path, headers: H, payload: JSON.stringify(body) });
  for (let i = 0; i < DEFAULT_LIMITS.fixturesPerTenant + 100; i++) await send(); // past the bound: steady state
  gc();
  gc();
  const [heapBefore, rowsBefore] = [process.memoryUsage().heapUsed, await storeRows(store)];
  for (let i = 0; i < n; i++) await send();
  gc();
  gc();
  const after = await storeRows(store);
  const kept = { rows: (after.rows - rowsBefore.rows) / n, journalRows: (after.journal - rowsBefore.journal) / n, heapBytes: Math.round((process.memoryUsage().heapUsed - heapBefore) / n) };
  await app.close();
  return kept;
}

const question = (tenantless: number) => ({
  schema: 'inquirium.operator-question.request.v1',
  'question/ref': `question/bench/${tenantless}`,
  'operation/ref': `operation/bench/${tenantless}`,
  'recipient/class': 'operator',
  'reason/code': 'operator-approval-required',
  prompt: { kind: 'confirm', text: 'Proceed?' },
  'widget/kind': 'confirm',
  'widget/payload': {},
  timeout: 'PT5M',
  classification: { input: 'public', output: 'public' },
  response: { 'target/ref': 'inquirium.operator-question.respond', method: 'POST', 'idempotency/key': `k-${tenantless}` },
  provenance: { 'source/component': 'inquirium-core', 'requested/by': 'runtime-selection', 'reason/code': 'remote-runtime-requires-operator-approval', origin: 'model-proposed' },
});
const answer = (n: number) => ({ schema: 'inquirium.operator-question.answer.v1', 'question/ref': `question/bench/${n}`, 'idempotency/key': `k-${n}`, answer: 'confirm' });

/** A host whose `others` tenants each filled their ended-question bound, and a timed batch of the operator's propose + answer on it. */
async function questionHost(others: number) {
  const { app, runtime, store } = await createHost({ token: TOKEN, logger: false });
  const unit = unitsOf(store);
  const per = DEFAULT_LIMITS.retainedQuestionsPerTenant;
  for (let t = 0; t < others; t++) {
    for (let i = 0; i < per; i++) {
      await unit((tx) => runtime.proposeQuestion(tx, question(i), `tenant-${t}`));
      await unit((tx) => runtime.answerQuestion(tx, answer(i), { tenant: `tenant-${t}`, participant: 'participant:did:key:z6Mkbench' }));
    }
  }
  let next = 0;
  /** Mean µs of one propose + answer over `rounds` of them. */
  const micros = async (rounds: number) => {
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++, next++) {
      await unit((tx) => runtime.proposeQuestion(tx, question(next), 'operator'));
      await unit((tx) => runtime.answerQuestion(tx, answer(next), { tenant: 'operator', participant: 'participant:did:key:z6Mkbench' }));
    }
    return Math.round(((performance.now() - t0) * 1000) / rounds);
  };
  return { micros, close: () => app.close() };
}

const N = Number(process.env.BENCH_N ?? 2000);
const fixtures = [];
for (const [name, path, body] of [
  ['replay-fixture', ROUTES.replayFixture.path, {}],
  ['escalation-run', ROUTES.escalationRun.path, { confidence: 0.2 }],
  ['cross-run-ttl', ROUTES.crossRunTtl.path, { ttlSeconds: 60, delayMs: 0 }],
] as const) {
  const bounded = await fixtureKeptPerRequest(path, body, DEFAULT_LIMITS.fixturesPerTenant, N);
  const lifted = await fixtureKeptPerRequest(path, body, UNBOUNDED, N);
  const row = {
    seam: name, requests: N, rowsPerRequestBounded: bounded.rows, rowsPerRequestUnboundedPeer: lifted.rows, ratio: Number((bounded.rows / lifted.rows).toFixed(3)),
    journalRowsPerRequestBounded: bounded.journalRows, journalRowsPerRequestUnboundedPeer: lifted.journalRows,
    heapBytesPerRequestBounded: bounded.heapBytes, heapBytesPerRequestUnboundedPeer: lifted.heapBytes,
  };
  fixtures.push(row);
  console.log(JSON.stringify(row));
}
// Alternate the two hosts and keep each one's median, so JIT warm-up and GC timing do not favour either.
const rounds = Number(process.env.BENCH_ROUNDS ?? 2000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const [emptyHost, crowdedHost] = [await questionHost(0), await questionHost(40)];
const emptyRuns: number[] = [];
const crowdedRuns: number[] = [];
for (let i = 0; i < 5; i++) {
  emptyRuns.push(await emptyHost.micros(rounds));
  crowdedRuns.push(await crowdedHost.micros(rounds));
}
await Promise.all([emptyHost.close(), crowdedHost.close()]);
const [empty, crowded] = [median(emptyRuns), median(crowdedRuns)];
const questions = { otherTenants: 40, endedQuestionsHeld: 40 * DEFAULT_LIMITS.retainedQuestionsPerTenant, rounds, microsPerProposeAnswer: crowded, microsPerProposeAnswerEmptyPeer: empty, ratio: Number((crowded / empty).toFixed(2)) };
console.log(JSON.stringify(questions));
report('security-tenant-state', {
  fixtures,
  questions,
  checks: [
    ...fixtures.map((f) => ratio(`${f.seam} seam: store rows (journal aside) kept per request, bounded / bound lifted`, f.ratio, 0.05, 'the same host with the fixturesPerTenant bound lifted')),
    ratio('operator question propose + answer: beside 40 tenants of ended questions / empty host', crowded / empty, 1.2, 'an empty host'),
  ],
}, `${N} fixture requests per seam past the bound (the default bound against one lifted), each host on its own in-memory store; operator propose + answer with 40 other tenants holding their ended-question bound against an empty host`);
