/**
 * POST /v1/runs/{runId}/interrupts/{nodeId}: answering the interrupt an escalated run is suspended on, over HTTP,
 * as its tenant. What the conformance scenario `multi-agent-escalation-resolve` cannot check from one key: another
 * tenant cannot answer (or learn about) the run, nor make it unanswerable by starting runs up to its own bound; a malformed answer is a 400 that changes nothing; amend carries out the amended decision;
 * every answer after the first is refused, whatever the mix (property).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent, RunSnapshot } from '../../generated/ts/index.ts';
import { Credentials, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { createHost } from '../../runtime/host/server.ts';
import { openStore } from '../../runtime/storage/open-store.ts';

const KEY_A = 'tenant-a-key-0123456789abcdef';
const KEY_B = 'tenant-b-key-0123456789abcdef';
const ESCALATION = 'conformance-multi-agent-confidence-escalation';
let app: FastifyInstance;

beforeAll(async () => {
  app = (await createHost({ credentials: new Credentials(parseApiKeysEnv(`${KEY_A}=tenant-a:tenant,${KEY_B}=tenant-b:tenant`)), logger: false, seedConformanceFixtures: true })).app;
});
afterAll(() => app.close());

const as = (key: string) => ({ authorization: `Bearer ${key}` });
async function waitingRun(key = KEY_A, on = app): Promise<{ runId: string; interruptId: string }> {
  const started = await on.inject({ method: 'POST', url: '/v1/runs', headers: as(key), payload: { workflowId: ESCALATION } });
  const { runId } = started.json<{ runId: string }>();
  const snap = (await on.inject({ method: 'GET', url: `/v1/runs/${runId}`, headers: as(key) })).json<RunSnapshot>();
  expect(snap.status).toBe('waiting-clarification');
  return { runId, interruptId: snap.interrupt!.interruptId };
}
const answer = (key: string, runId: string, nodeId: string, resumeValue: unknown, on = app) =>
  on.inject({ method: 'POST', url: `/v1/runs/${runId}/interrupts/${nodeId}`, headers: as(key), payload: { resumeValue } });
const events = async (runId: string, on = app) => (await on.inject({ method: 'GET', url: `/v1/runs/${runId}/events`, headers: as(KEY_A) })).json<{ events: RunEvent[] }>().events;

/** Of any burst of answers to one interrupt exactly one is applied, the rest are 409 (on `on`'s store). */
async function burstProperty(on: FastifyInstance, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.constantFrom('approve', 'confirm', 'reject'), { minLength: 1, maxLength: 6 }), async (actions) => {
      const { runId, interruptId } = await waitingRun(KEY_A, on);
      const answers = await Promise.all(actions.map((action) => answer(KEY_A, runId, interruptId, { action }, on)));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(actions.length - 1).fill(409)]);
      expect(answers.filter((a) => a.statusCode === 409).map((a) => a.json<{ error: string }>().error)).toEqual(Array(actions.length - 1).fill('interrupt_already_resolved'));
      expect((await events(runId, on)).filter((e) => e.type === 'interrupt.resolved')).toHaveLength(1);
    }),
    { numRuns },
  );
}

describe('answering an escalation over HTTP', () => {
  it("another tenant's key cannot answer the run, nor tell it from a run that does not exist", async () => {
    const { runId, interruptId } = await waitingRun();
    const foreign = await answer(KEY_B, runId, interruptId, { action: 'approve' });
    const missing = await answer(KEY_B, 'run_does_not_exist', interruptId, { action: 'approve' });
    expect([foreign.statusCode, foreign.json()]).toEqual([404, { error: 'not_found', message: 'no such run' }]);
    expect([missing.statusCode, missing.json()]).toEqual([foreign.statusCode, foreign.json()]);
    // The run still waits for its own tenant's answer.
    expect((await answer(KEY_A, runId, interruptId, { action: 'approve' })).statusCode).toBe(200);
  });

  it('a malformed answer is a 400 naming the field, and the run still waits', async () => {
    const { runId, interruptId } = await waitingRun();
    for (const bad of [{ action: 'maybe' }, { action: 'amend' }, { action: 'approve', decision: { kind: 'terminate' } }, 'approve', null]) {
      const r = await answer(KEY_A, runId, interruptId, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
      expect(r.json()).toMatchObject({ error: 'validation_failed' });
    }
    expect((await events(runId)).some((e) => e.type === 'interrupt.resolved')).toBe(false);
    expect((await answer(KEY_A, runId, interruptId, { action: 'reject' })).statusCode).toBe(200);
  });

  it('amend carries out the amended decision, recorded with when it was decided and without the feedback text', async () => {
    const { runId, interruptId } = await waitingRun();
    const decision = { kind: 'next-worker', worker: 'billing-agent', confidence: 0.3 };
    const r = await answer(KEY_A, runId, interruptId, { action: 'amend', decision, decidedAt: '2026-11-26T10:00:00Z', feedback: 'private note: call the customer' });
    expect(r.statusCode).toBe(200);
    expect(r.json<RunSnapshot>().status).toBe('completed');
    const log = await events(runId);
    // The amended decision is carried out as the person gave it (a below-floor confidence does not escalate again),
    // recorded with when they decided; their free-text feedback is not in the log.
    expect(log.find((e) => e.type === 'interrupt.resolved')?.payload).toEqual({ interruptId, outcome: 'amended', decision, decidedAt: '2026-11-26T10:00:00Z' });
    expect(JSON.stringify(log)).not.toContain('private note');
    expect(log.find((e) => e.type === 'worker.dispatched')?.payload).toMatchObject({ worker: 'billing-agent' });
  });

  it('property: of any burst of answers to one interrupt exactly one is applied, the rest are 409', () => burstProperty(app, 20));

  it("another tenant's runs, up to its bound and past it, do not make a tenant's waiting escalation unanswerable", async () => {
    const RUNS = 6;
    const host = (await createHost({ credentials: new Credentials(parseApiKeysEnv(`${KEY_A}=tenant-a:tenant,${KEY_B}=tenant-b:tenant`)), logger: false, seedConformanceFixtures: true, limits: { runsPerTenant: RUNS } })).app;
    const start = (key: string) => host.inject({ method: 'POST', url: '/v1/runs', headers: as(key), payload: { workflowId: ESCALATION } });
    const a = (await start(KEY_A)).json<{ runId: string }>().runId;
    const waiting = (await host.inject({ method: 'GET', url: `/v1/runs/${a}`, headers: as(KEY_A) })).json<RunSnapshot>();
    expect(waiting.status).toBe('waiting-clarification');
    // Tenant B fills its own bound of live runs (each waits on its interrupt), then is refused.
    const statuses = [];
    for (let i = 0; i < RUNS + 3; i++) statuses.push((await start(KEY_B)).statusCode);
    expect(statuses).toEqual([...Array(RUNS).fill(201), 429, 429, 429]);
    const snap = (await host.inject({ method: 'GET', url: `/v1/runs/${a}`, headers: as(KEY_A) })).json<RunSnapshot>();
    const answered = await host.inject({ method: 'POST', url: `/v1/runs/${a}/interrupts/${waiting.interrupt!.interruptId}`, headers: as(KEY_A), payload: { resumeValue: { action: 'approve' } } });
    expect({ status: snap.status, answer: answered.statusCode }).toEqual({ status: 'waiting-clarification', answer: 200 });
    // And tenant A may still start runs of its own: B's bound is B's.
    expect((await start(KEY_A)).statusCode).toBe(201);
    await host.close();
  });
});

describe('answering an escalation on a SQLite store (reads and the writer thread run side by side)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-interrupt-burst-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('property: of any burst of answers exactly one is applied, the rest are 409 (the losers\' claims are refused at commit)', async () => {
    const storage = await openStore({ kind: 'sqlite', dataDir });
    const host = (await createHost({ credentials: new Credentials(parseApiKeysEnv(`${KEY_A}=tenant-a:tenant`)), logger: false, seedConformanceFixtures: true, storage })).app;
    try {
      await burstProperty(host, 10);
    } finally {
      await host.close();
    }
  }, 60_000);
});
