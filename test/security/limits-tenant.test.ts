/**
 * Issue 12 item 8b: every per-tenant resource has a bound. Past it a request is refused with 429 `quota_exceeded
 * {resource, limit}` and changes nothing (open operator questions, distillation schedules), or the oldest state is
 * retired (ended questions, fixtures of the multi-agent seams). An operator-question answer's `answered/by` is
 * checked against the caller and recorded on the answered state, and another tenant cannot answer a question.
 */
import { describe, expect, it } from 'vitest';
import { validateErrorEnvelope, validateInquiriumOperatorQuestionState } from '../../generated/validators/validators.js';
import { QuestionError } from '../../runtime/inquirium/operator-questions.ts';
import { LOCAL_OPERATOR, OPERATOR_TENANT } from '../../runtime/host/routes/inquirium.ts';
import { ROUTES, targetOf } from '../../runtime/host/seam-catalogue.ts';
import { createHost } from '../../runtime/host/server.ts';
import { ManualClock } from '../../runtime/shared/clock.ts';
import { question } from '../runtime/inquirium/questions.ts';
import { tenantRowCounts, total } from './store-rows.ts';
import { inUnit } from '../support/in-unit.ts';

const TOKEN = 'tenant-bounds-test-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
type App = Awaited<ReturnType<typeof createHost>>['app'];
const post = async (app: App, path: string, body: unknown) => {
  const res = await app.inject({ method: 'POST', url: path, headers: H, payload: JSON.stringify(body) });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> & { error?: string; details?: Record<string, unknown> } };
};
const get = async (app: App, url: string) => {
  const res = await app.inject({ method: 'GET', url, headers: H });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
};

/** The n-th question of a test: its own ref, operation and idempotency key. */
const q = (n: number, over: Record<string, unknown> = {}) => question({
  'question/ref': `question/bounds/${n}`,
  'operation/ref': `operation/bounds/${n}`,
  response: { 'target/ref': 'inquirium.operator-question.respond', method: 'POST', 'idempotency/key': `key-${n}` },
  ...over,
});
const answerOf = (n: number, over: Record<string, unknown> = {}) => ({ schema: 'inquirium.operator-question.answer.v1', 'question/ref': `question/bounds/${n}`, 'idempotency/key': `key-${n}`, answer: 'yes', ...over });
const readQuestion = (app: App, n: number) => get(app, targetOf(ROUTES.questionRead, { query: { ref: `question/bounds/${n}` } }));

const expectQuota = (r: { status: number; body: Record<string, unknown> }, resource: string, limit: number) => {
  expect(r.status).toBe(429);
  expect(validateErrorEnvelope(r.body)).toBe(true);
  expect(r.body).toMatchObject({ error: 'quota_exceeded', details: { resource, limit } });
};

describe('open operator questions per tenant', () => {
  it('past the bound a proposal is a 429 and opens nothing; answering, cancelling or timing out frees a place', async () => {
    const clock = new ManualClock(Date.now());
    const { app } = await createHost({ token: TOKEN, clock, limits: { openQuestionsPerTenant: 3 } });
    for (const n of [1, 2, 3]) expect((await post(app, ROUTES.questionPropose.path, q(n))).status).toBe(201);
    expectQuota(await post(app, ROUTES.questionPropose.path, q(4)), 'open-operator-questions', 3);
    expect((await readQuestion(app, 4)).status).toBe(404);
    // an answer frees a place
    expect((await post(app, ROUTES.inquiriumRespond.path, answerOf(1))).status).toBe(200);
    expect((await post(app, ROUTES.questionPropose.path, q(4))).status).toBe(201);
    expectQuota(await post(app, ROUTES.questionPropose.path, q(5)), 'open-operator-questions', 3);
    // so does a cancel
    expect((await post(app, ROUTES.questionCancel.path, { 'question/ref': 'question/bounds/2' })).status).toBe(200);
    expect((await post(app, ROUTES.questionPropose.path, q(5))).status).toBe(201);
    // and the deadline: every pending question times out (PT5M), and three new ones fit again
    clock.advance(5 * 60_000);
    for (const n of [6, 7, 8]) expect((await post(app, ROUTES.questionPropose.path, q(n))).status).toBe(201);
    expect((await readQuestion(app, 3)).body.state).toBe('timed_out');
    await app.close();
  });

  it('ended questions: the oldest past the retained bound is forgotten (404), the newer stay readable', async () => {
    const { app } = await createHost({ token: TOKEN, limits: { retainedQuestionsPerTenant: 2 } });
    for (const n of [1, 2, 3]) {
      await post(app, ROUTES.questionPropose.path, q(n));
      expect((await post(app, ROUTES.inquiriumRespond.path, answerOf(n))).status).toBe(200);
    }
    expect((await readQuestion(app, 1)).status).toBe(404);
    expect((await readQuestion(app, 2)).body.state).toBe('answered');
    expect((await readQuestion(app, 3)).body.state).toBe('answered');
    await app.close();
  });
});

describe('answered/by (item 8b)', () => {
  it('is recorded on the answered state: the caller when the answer names nobody, the named caller otherwise', async () => {
    const { app } = await createHost({ token: TOKEN });
    await post(app, ROUTES.questionPropose.path, q(1));
    await post(app, ROUTES.questionPropose.path, q(2));
    const implicit = await post(app, ROUTES.inquiriumRespond.path, answerOf(1));
    expect(validateInquiriumOperatorQuestionState(implicit.body)).toBe(true);
    expect(implicit.body['answered/by']).toBe(LOCAL_OPERATOR);
    const named = await post(app, ROUTES.inquiriumRespond.path, answerOf(2, { 'answered/by': LOCAL_OPERATOR }));
    expect(named.body['answered/by']).toBe(LOCAL_OPERATOR);
    expect((await readQuestion(app, 2)).body['answered/by']).toBe(LOCAL_OPERATOR);
    await app.close();
  });

  it('an answer naming another participant is a 403, one naming an over-long id a 400 at /answered~1by; the question stays pending', async () => {
    const { app } = await createHost({ token: TOKEN });
    await post(app, ROUTES.questionPropose.path, q(1));
    const other = await post(app, ROUTES.inquiriumRespond.path, answerOf(1, { 'answered/by': 'participant:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doM' }));
    expect(other.status).toBe(403);
    expect(validateErrorEnvelope(other.body)).toBe(true);
    const long = await post(app, ROUTES.inquiriumRespond.path, answerOf(1, { 'answered/by': `participant:did:key:z${'6'.repeat(300)}` }));
    expect(long.status).toBe(400);
    expect((long.body.details as { failures: { instancePath: string }[] }).failures[0]!.instancePath).toBe('/answered~1by');
    expect((await readQuestion(app, 1)).body.state).toBe('pending');
    await app.close();
  });

  it('another tenant cannot answer, read or cancel a question: it is unknown to it (404), and the question stays pending', async () => {
    const { app, runtime, store } = await createHost({ token: TOKEN });
    expect((await inUnit(store, (tx) => runtime.proposeQuestion(tx, q(1), 'acme'))).state).toBe('pending');
    for (const act of [
      () => inUnit(store, (tx) => runtime.answerQuestion(tx, answerOf(1), { tenant: 'globex', participant: LOCAL_OPERATOR })),
      () => inUnit(store, (tx) => runtime.questionState(tx, 'question/bounds/1', 'globex')),
      () => inUnit(store, (tx) => runtime.cancelQuestion(tx, 'question/bounds/1', 'globex')),
    ]) {
      const err = await act().then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(QuestionError);
      expect((err as QuestionError).status).toBe(404);
    }
    // the HTTP caller's tenant is the operator tenant, not acme: the same ref reads as unknown over the wire too
    expect(OPERATOR_TENANT).not.toBe('acme');
    expect((await readQuestion(app, 1)).status).toBe(404);
    expect((await inUnit(store, (tx) => runtime.questionState(tx, 'question/bounds/1', 'acme'))).state).toBe('pending');
    // the same ref in another tenant is another question
    expect((await inUnit(store, (tx) => runtime.proposeQuestion(tx, q(1), 'globex'))).state).toBe('pending');
    expect((await inUnit(store, (tx) => runtime.answerQuestion(tx, answerOf(1), { tenant: 'acme', participant: LOCAL_OPERATOR }))).state).toBe('answered');
    expect((await inUnit(store, (tx) => runtime.questionState(tx, 'question/bounds/1', 'globex'))).state).toBe('pending');
    await app.close();
  });
});

describe('distillation schedules per tenant', () => {
  it('past the bound a schedule is a 429 and nothing is stored; another tenant keeps its own bound', async () => {
    const { app, store } = await createHost({ token: TOKEN, limits: { distillSchedulesPerTenant: 2 } });
    const schedule = (ref: string) => post(app, ROUTES.distillSchedule.path, { memoryRef: ref, every: 'PT1H' });
    expect((await schedule('mem://acme/a')).status).toBe(201);
    expect((await schedule('mem://acme/b')).status).toBe(201);
    const before = await tenantRowCounts(store, 'acme');
    expectQuota(await schedule('mem://acme/c'), 'distillation-schedules', 2);
    expect(await tenantRowCounts(store, 'acme')).toEqual(before);
    expect(before.schedules).toBe(2);
    expect((await schedule('mem://globex/a')).status).toBe(201);
    await app.close();
  });
});

describe('fixtures of the multi-agent seams per tenant', () => {
  it('past the bound the oldest fixture is retired: its runs read as unknown, its entries and event log are gone; the newest stay', async () => {
    const { app, runtime, store } = await createHost({ token: TOKEN, limits: { fixturesPerTenant: 3 } });
    const made: { runId: string; memoryRef: string }[] = [];
    for (let i = 0; i < 3; i++) made.push((await post(app, ROUTES.replayFixture.path, {})).body as { runId: string; memoryRef: string });
    const ttl = (await post(app, ROUTES.crossRunTtl.path, { ttlSeconds: 60, delayMs: 0 })).body as { parentRunId: string; childRunId: string; memoryRef: string };
    const esc = (await post(app, ROUTES.escalationRun.path, { confidence: 0.2 })).body as { runId: string };
    // five fixtures, bound 3: the two oldest replay fixtures are retired
    for (const old of made.slice(0, 2)) {
      expect(await inUnit(store, (tx) => runtime.run(tx, old.runId))).toBeUndefined();
      expect(await inUnit(store, (tx) => runtime.events(tx, old.runId))).toBeUndefined();
      expect(await inUnit(store, (tx) => runtime.storedCount(tx, old.memoryRef))).toBe(0);
      expect((await get(app, targetOf(ROUTES.runEvents, { params: { runId: old.runId } }))).status).toBe(404);
      // a fork of a retired fixture's run is refused with a 4xx, not served from leftovers
      const fork = await post(app, targetOf(ROUTES.runFork, { params: { runId: old.runId } }), { fromSeq: 0 });
      expect(fork.status).toBeGreaterThanOrEqual(400);
      expect(fork.status).toBeLessThan(500);
    }
    for (const runId of [made[2]!.runId, ttl.parentRunId, ttl.childRunId, esc.runId]) expect(await inUnit(store, (tx) => runtime.run(tx, runId)), runId).toBeDefined();
    expect(await inUnit(store, (tx) => runtime.storedCount(tx, made[2]!.memoryRef))).toBe(1);
    // the newest replay fixture still forks and reads its snapshot
    const fork = await post(app, targetOf(ROUTES.runFork, { params: { runId: made[2]!.runId } }), { fromSeq: 0 });
    expect(fork.status).toBe(201);
    await app.close();
  });

  it('retiring keeps the state bounded: 60 fixtures with a bound of 5 leave 5 fixtures\' runs', async () => {
    const { app, runtime, store } = await createHost({ token: TOKEN, limits: { fixturesPerTenant: 5 } });
    const runIds: string[] = [];
    const rows: number[] = [];
    for (let i = 0; i < 60; i++) {
      runIds.push(((await post(app, ROUTES.replayFixture.path, {})).body as { runId: string }).runId);
      rows.push(total(await tenantRowCounts(store, 'conformance')) - (await tenantRowCounts(store, 'conformance')).journal!);
    }
    const live = async (ids: string[], f: (id: string) => Promise<boolean>) => (await Promise.all(ids.map(async (id) => ((await f(id)) ? id : undefined)))).filter((id) => id !== undefined);
    expect(await live(runIds, async (id) => (await inUnit(store, (tx) => runtime.run(tx, id))) !== undefined)).toEqual(runIds.slice(-5));
    expect(await live(runIds, async (id) => (await inUnit(store, (tx) => runtime.events(tx, id))) !== undefined)).toEqual(runIds.slice(-5));
    // The tenant's rows (the journal aside: it is bounded by time) stop growing once the bound is reached.
    expect(rows[10]).toBeGreaterThan(0);
    expect(new Set(rows.slice(10))).toEqual(new Set([rows[10]]));
    await app.close();
  });
});

describe('SR-1 registry bounds come from the same table', () => {
  it('createHost({limits: {secretsPerRun}}) bounds the secrets of one seeded run (429 quota_exceeded, nothing written)', async () => {
    const { app, runtime, store } = await createHost({ token: TOKEN, limits: { secretsPerRun: 1 } });
    const ref = 'mem://acme/secrets';
    const secret = (n: number) => ({ secretId: `s-${n}`, value: `value-number-${n}-${'x'.repeat(12)}` });
    const r = await post(app, ROUTES.memorySeed.path, { memoryRef: ref, entries: [{ content: 'plain' }], secrets: [secret(1), secret(2)] });
    expect(r.status).toBe(429);
    expect(validateErrorEnvelope(r.body)).toBe(true);
    expect(r.body).toMatchObject({ error: 'quota_exceeded', details: { resource: 'secrets-per-run', limit: 1, setting: 'maxSecretsPerRun' } });
    expect(await inUnit(store, (tx) => runtime.storedCount(tx, ref))).toBe(0);
    expect(total(await tenantRowCounts(store, 'acme')), 'nothing of the refused seed is stored').toBe(0);
    expect((await post(app, ROUTES.memorySeed.path, { memoryRef: ref, entries: [{ content: 'plain' }], secrets: [secret(3)] })).status).toBe(200);
    await app.close();
  });
});

