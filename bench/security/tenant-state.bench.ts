/**
 * Per-tenant state bounds (issue 12 item 8b), measured against a named peer in the same run:
 * - fixture seams: heap kept per request after warm-up, on a host with the default `fixturesPerTenant` bound vs.
 *   the same host with the bound lifted (the peer: how the host behaved before fixtures were retired);
 * - operator questions: the cost of one propose + answer on a host already holding many ended questions of other
 *   tenants vs. on an empty host (the peer) — deadlines fire from a timer heap, so the ratio should stay near 1.
 * Run: npx tsx bench/security/tenant-state.bench.ts   → bench/results/security-tenant-state.json
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DEFAULT_LIMITS } from '../../runtime/host/limits.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createHost } from '../../runtime/host/server.ts';
import { ratio, report } from './measure.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const TOKEN = 'bench-tenant-state-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const UNBOUNDED = 1_000_000_000;

async function fixtureBytesPerRequest(path: string, body: unknown, fixturesPerTenant: number, n: number): Promise<number> {
  const { app } = await createHost({ token: TOKEN, limits: { fixturesPerTenant } });
  const send = () => app.inject({ method: 'POST', url: path, headers: H, payload: JSON.stringify(body) });
  for (let i = 0; i < DEFAULT_LIMITS.fixturesPerTenant + 100; i++) await send(); // past the bound: steady state
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) await send();
  gc();
  gc();
  const bytes = (process.memoryUsage().heapUsed - before) / n;
  await app.close();
  return Math.round(bytes);
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

/** Mean µs of one propose + answer for the operator tenant, after `others` tenants each filled their ended-question bound. */
async function questionMicros(others: number, rounds: number): Promise<number> {
  const { runtime } = await createHost({ token: TOKEN });
  const per = DEFAULT_LIMITS.retainedQuestionsPerTenant;
  for (let t = 0; t < others; t++) {
    for (let i = 0; i < per; i++) {
      runtime.proposeQuestion(question(i), `tenant-${t}`);
      runtime.answerQuestion(answer(i), { tenant: `tenant-${t}`, participant: 'participant:did:key:z6Mkbench' });
    }
  }
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) {
    runtime.proposeQuestion(question(i), 'operator');
    runtime.answerQuestion(answer(i), { tenant: 'operator', participant: 'participant:did:key:z6Mkbench' });
  }
  return Math.round(((performance.now() - t0) * 1000) / rounds);
}

const N = Number(process.env.BENCH_N ?? 2000);
const fixtures = [];
for (const [name, path, body] of [
  ['replay-fixture', ROUTES.replayFixture.path, {}],
  ['escalation-run', ROUTES.escalationRun.path, { confidence: 0.2 }],
  ['cross-run-ttl', ROUTES.crossRunTtl.path, { ttlSeconds: 60, delayMs: 0 }],
] as const) {
  const bounded = await fixtureBytesPerRequest(path, body, DEFAULT_LIMITS.fixturesPerTenant, N);
  const unbounded = await fixtureBytesPerRequest(path, body, UNBOUNDED, N);
  const row = { seam: name, requests: N, bytesPerRequestBounded: bounded, bytesPerRequestUnboundedPeer: unbounded, ratio: Number((bounded / unbounded).toFixed(3)) };
  fixtures.push(row);
  console.log(JSON.stringify(row));
}
// Alternate the two hosts and keep each one's median, so JIT warm-up and GC timing do not favour either.
const rounds = 2000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const emptyRuns: number[] = [];
const crowdedRuns: number[] = [];
for (let i = 0; i < 5; i++) {
  emptyRuns.push(await questionMicros(0, rounds));
  crowdedRuns.push(await questionMicros(40, rounds));
}
const [empty, crowded] = [median(emptyRuns), median(crowdedRuns)];
const questions = { otherTenants: 40, endedQuestionsHeld: 40 * DEFAULT_LIMITS.retainedQuestionsPerTenant, rounds, microsPerProposeAnswer: crowded, microsPerProposeAnswerEmptyPeer: empty, ratio: Number((crowded / empty).toFixed(2)) };
console.log(JSON.stringify(questions));
report('security-tenant-state.json', {
  fixtures,
  questions,
  checks: [
    ...fixtures.map((f) => ratio(`${f.seam} seam: heap kept per request, bounded / bound lifted`, f.ratio, 1, 'the same host with the fixturesPerTenant bound lifted')),
    ratio('operator question propose + answer: beside 40 tenants of ended questions / empty host', crowded / empty, 1.2, 'an empty host'),
  ],
});
