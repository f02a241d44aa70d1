/**
 * The run, fork and interrupt routes as upstream's scenarios drive them, over HTTP: POST /v1/runs with upstream's
 * `tenantId` (bound by the one binding rule: a tenant key names only its own tenant, an operator key acts as the one
 * it names), the fork answer (sourceRunId, mode, status, eventsUrl) and its refusals with their envelopes, and answers
 * addressed by node id. Malformed and hostile bodies get a 400 naming the field, and change nothing.
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent, RunSnapshot } from '../../generated/ts/index.ts';
import { validateErrorEnvelope, validateRunForkResponse, validateRunSnapshot } from '../../generated/validators/validators.js';
import { Credentials, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { createHost } from '../../runtime/host/server.ts';

const KEY_A = 'tenant-a-key-workflow-routes-0123';
const OPERATOR = 'operator-key-workflow-routes-0123';
let app: FastifyInstance;

beforeAll(async () => {
  app = (await createHost({ credentials: new Credentials(parseApiKeysEnv(`${KEY_A}=tenant-a:tenant,${OPERATOR}=*:operator`)), logger: false, seedConformanceFixtures: true })).app;
});
afterAll(() => app.close());

const call = (key: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}) });
const start = async (key: string, body: Record<string, unknown>) => call(key, 'POST', '/v1/runs', body);
const snapshot = async (key: string, runId: string) => (await call(key, 'GET', `/v1/runs/${runId}`)).json<RunSnapshot>();
const events = async (key: string, runId: string) => (await call(key, 'GET', `/v1/runs/${runId}/events`)).json<{ events: RunEvent[] }>().events;

describe('POST /v1/runs tenantId', () => {
  it('a tenant key may name only its own tenant; an operator key runs as the tenant it names, or as default', async () => {
    const foreign = await start(KEY_A, { workflowId: 'conformance-noop', tenantId: 'tenant-b' });
    expect([foreign.statusCode, foreign.json()]).toEqual([403, { error: 'forbidden', message: "tenantId belongs to another tenant than the API key's" }]);
    const own = await start(KEY_A, { workflowId: 'conformance-noop', tenantId: 'tenant-a', inputs: {} });
    expect(own.statusCode).toBe(201);
    const named = (await start(OPERATOR, { workflowId: 'conformance-noop', tenantId: 'mem-attr-x' })).json<{ runId: string }>();
    const defaulted = (await start(OPERATOR, { workflowId: 'conformance-noop' })).json<{ runId: string }>();
    const refOf = async (runId: string) => (await events(OPERATOR, runId)).find((e) => e.type === 'memory.written')?.payload['memoryRef'];
    expect(await refOf(named.runId)).toMatch(/^mem:\/\/mem-attr-x\//);
    expect(await refOf(defaulted.runId)).toMatch(/^mem:\/\/default\//);
    // the tenant key cannot read the operator's run of another tenant, nor tell it from none
    expect((await call(KEY_A, 'GET', `/v1/runs/${named.runId}`)).statusCode).toBe(404);
  });

  it('a malformed tenantId is a 400 naming the field, and starts nothing', async () => {
    for (const tenantId of ['Acme Corp', '', '../x', 'a'.repeat(64), 7]) {
      const r = await start(OPERATOR, { workflowId: 'conformance-noop', tenantId });
      expect(r.statusCode, String(tenantId)).toBe(400);
      expect(r.json()).toMatchObject({ error: 'validation_failed', details: { failures: [expect.objectContaining({ instancePath: '/tenantId' })] } });
    }
  });
});

describe('POST /v1/runs/{runId}:fork', () => {
  it('answers upstream\'s fork shape: a new run, its source, mode, status and events URL; the fork ran to completed', async () => {
    const { runId } = (await start(KEY_A, { workflowId: 'conformance-noop' })).json<{ runId: string }>();
    for (const [mode, body] of [['replay', { fromSeq: 0, mode: 'replay' }], ['branch', { fromSeq: 0, mode: 'branch', runOptionsOverlay: { configurable: { recursionLimit: 50 } } }], ['replay', { fromSeq: 1 }]] as const) {
      const r = await call(KEY_A, 'POST', `/v1/runs/${runId}:fork`, body);
      expect(r.statusCode).toBe(201);
      const fork = r.json<{ runId: string; eventsUrl: string }>();
      expect(validateRunForkResponse(fork)).toBe(true);
      expect(fork).toEqual({ runId: expect.not.stringMatching(runId), sourceRunId: runId, fromSeq: body.fromSeq, mode, status: 'completed', eventsUrl: `/v1/runs/${fork.runId}/events` });
      expect((await call(KEY_A, 'GET', fork.eventsUrl)).statusCode).toBe(200);
      expect(await snapshot(KEY_A, fork.runId)).toEqual({ runId: fork.runId, workflowId: 'conformance-noop', status: 'completed', variables: {} });
    }
  });

  it('refuses a negative or past-the-end fromSeq, an overlay on a replay and an unknown source — each with its envelope, creating nothing', async () => {
    const { runId } = (await start(KEY_A, { workflowId: 'conformance-noop' })).json<{ runId: string }>();
    const last = (await events(KEY_A, runId)).length - 1;
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ fromSeq: -1 }, 400, 'validation_failed', '/fromSeq'],
      [{ fromSeq: 0, mode: 'replay', runOptionsOverlay: { configurable: { recursionLimit: 50 } } }, 400, 'validation_failed', '/runOptionsOverlay'],
      [{ fromSeq: 0, runOptionsOverlay: { configurable: {} } }, 400, 'validation_failed', '/runOptionsOverlay'],
      [{ fromSeq: 0, mode: 'branch', runOptionsOverlay: { tags: ['x'] } }, 400, 'validation_failed', '/runOptionsOverlay'],
      [{ fromSeq: last + 1 }, 422, 'fork_point_invalid'],
      [{ fromSeq: 99_999, mode: 'branch' }, 422, 'fork_point_invalid'],
    ];
    for (const [body, status, error, pointer] of cases) {
      const r = await call(KEY_A, 'POST', `/v1/runs/${runId}:fork`, body);
      expect([r.statusCode, r.json<{ error: string }>().error], JSON.stringify(body)).toEqual([status, error]);
      expect(validateErrorEnvelope(r.json())).toBe(true);
      if (pointer !== undefined) expect(JSON.stringify(r.json())).toContain(pointer);
    }
    expect((await call(KEY_A, 'POST', `/v1/runs/${runId}:fork`, { fromSeq: last + 1 })).json()).toEqual({ error: 'fork_point_invalid', message: "fromSeq is past the end of the source run's event log", details: { fromSeq: last + 1, lastSeq: last, sourceRunId: runId } });
    expect((await call(KEY_A, 'POST', '/v1/runs/conformance-no-such-run:fork', { fromSeq: 0 })).statusCode).toBe(404);
  });
});

describe('POST /v1/runs/{runId}/interrupts/{nodeId}', () => {
  it('answers by node id: the waiting run names it; another node is 404, another action 400, accept 200 and completed, again 409', async () => {
    const { runId } = (await start(KEY_A, { workflowId: 'conformance-approval' })).json<{ runId: string }>();
    const waiting = await snapshot(KEY_A, runId);
    expect(validateRunSnapshot(waiting)).toBe(true);
    expect(waiting).toMatchObject({ status: 'waiting-approval', currentNodeId: 'gate', interrupt: { kind: 'approval', nodeId: 'gate' } });
    const answer = (nodeId: string, resumeValue: unknown) => call(KEY_A, 'POST', `/v1/runs/${runId}/interrupts/${nodeId}`, { resumeValue });
    expect((await answer('no-such-node', { action: 'accept' })).json()).toEqual({ error: 'interrupt_not_found', message: 'the run has no open interrupt of that id' });
    const wrong = await answer('gate', { action: 'approve' });
    expect([wrong.statusCode, wrong.json()]).toEqual([400, { error: 'validation_failed', message: 'node gate takes action accept or reject', details: { failures: [{ instancePath: '/resumeValue/action', message: 'must be one of accept, reject' }] } }]);
    expect((await answer('gate', { action: 'maybe' })).statusCode).toBe(400);
    expect((await answer('gate', null)).statusCode).toBe(400);
    expect(await snapshot(KEY_A, runId)).toEqual(waiting);
    const accepted = await answer('gate', { action: 'accept' });
    expect([accepted.statusCode, accepted.json<RunSnapshot>().status]).toEqual([200, 'completed']);
    expect((await answer('gate', { action: 'accept' })).json()).toEqual({ error: 'interrupt_already_resolved', message: 'the interrupt was answered already' });
  });

  it('the escalation fixture is answered by its node (supervisor) as well as by its interrupt id', async () => {
    const first = (await start(KEY_A, { workflowId: 'conformance-multi-agent-confidence-escalation' })).json<{ runId: string }>();
    const snap = await snapshot(KEY_A, first.runId);
    expect(snap).toMatchObject({ status: 'waiting-clarification', currentNodeId: 'supervisor', interrupt: { nodeId: 'supervisor' } });
    expect((await call(KEY_A, 'POST', `/v1/runs/${first.runId}/interrupts/supervisor`, { resumeValue: { action: 'accept' } })).json()).toMatchObject({ error: 'validation_failed', details: { failures: [{ instancePath: '/resumeValue/action' }] } });
    const r = await call(KEY_A, 'POST', `/v1/runs/${first.runId}/interrupts/supervisor`, { resumeValue: { action: 'approve' } });
    expect([r.statusCode, r.json<RunSnapshot>().status]).toEqual([200, 'completed']);
    expect((await events(KEY_A, first.runId)).map((e) => e.type).slice(-2)).toEqual(['interrupt.resolved', 'worker.dispatched']);
  });
});

describe('a host without write attribution (WOPKIT_MEMORY_ATTRIBUTION=off)', () => {
  it('advertises no memory.attribution and emits no memory.written; its runs still complete, and replay them without writing', async () => {
    const { app: off } = await createHost({ token: OPERATOR, seedConformanceFixtures: true, memoryAttribution: false });
    try {
      const auth = { authorization: `Bearer ${OPERATOR}` };
      const discovery = (await off.inject({ method: 'GET', url: '/.well-known/openwop' })).json<{ memory: Record<string, unknown>; capabilities: { memory: Record<string, unknown> } }>();
      expect(discovery.memory).not.toHaveProperty('attribution');
      expect(discovery.capabilities.memory).not.toHaveProperty('attribution');
      const { runId } = (await off.inject({ method: 'POST', url: '/v1/runs', headers: auth, payload: { workflowId: 'conformance-noop', tenantId: 'mem-attr-absent' } })).json<{ runId: string }>();
      const typesOf = async (id: string) => (await off.inject({ method: 'GET', url: `/v1/runs/${id}/events`, headers: auth })).json<{ events: RunEvent[] }>().events.map((e) => e.type);
      expect(await typesOf(runId)).toEqual(['run.started', 'node.started', 'node.completed', 'run.completed']);
      const fork = (await off.inject({ method: 'POST', url: `/v1/runs/${runId}:fork`, headers: auth, payload: { fromSeq: 0, mode: 'replay' } })).json<{ runId: string; status: string }>();
      expect(fork.status).toBe('completed');
      expect(await typesOf(fork.runId)).toEqual(['run.started', 'node.started', 'node.completed', 'run.completed']);
      // the summary was written once, by the source (the replay wrote nothing)
      const entries = (await off.inject({ method: 'GET', url: `/v1/runs/${runId}/memory`, headers: auth })).json<{ entries: unknown[] }>().entries;
      expect(entries).toHaveLength(1);
    } finally {
      await off.close();
    }
  });
});

describe('hostile bodies', () => {
  it('property: any JSON body to POST /v1/runs, :fork and an answer gets a status of the route\'s table with a valid envelope, never a 500, and a waiting run still waits', async () => {
    const { runId } = (await start(KEY_A, { workflowId: 'conformance-approval' })).json<{ runId: string }>();
    const waiting = await snapshot(KEY_A, runId);
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ workflowId: fc.oneof(fc.constantFrom('conformance-noop', 'conformance-approval'), fc.string()), tenantId: fc.oneof(fc.constant('tenant-a'), fc.string(), fc.integer()), inputs: fc.jsonValue() }, { requiredKeys: [] }),
      fc.record({ fromSeq: fc.oneof(fc.integer({ min: -3, max: 200_000 }), fc.double(), fc.string()), mode: fc.oneof(fc.constantFrom('replay', 'branch'), fc.string()), runOptionsOverlay: fc.jsonValue() }, { requiredKeys: [] }),
      fc.record({ resumeValue: fc.oneof(fc.jsonValue(), fc.record({ action: fc.oneof(fc.constantFrom('accept', 'reject', 'approve', 'amend'), fc.string()), decision: fc.jsonValue(), feedback: fc.string() }, { requiredKeys: [] })) }, { requiredKeys: [] }),
    );
    const targets = ['/v1/runs', `/v1/runs/${runId}:fork`, `/v1/runs/${runId}/interrupts/no-such-node`];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), body, async (url, payload) => {
        const r = await app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
        expect([200, 201, 400, 403, 404, 409, 422], `${url} ${JSON.stringify(payload)}`).toContain(r.statusCode);
        if (r.statusCode >= 400) expect(validateErrorEnvelope(r.json())).toBe(true);
      }),
      { numRuns: 150 },
    );
    expect(await snapshot(KEY_A, runId)).toEqual(waiting);
  });
});
