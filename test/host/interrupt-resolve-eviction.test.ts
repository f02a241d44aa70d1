/**
 * One tenant's runs never make another tenant's escalated run unanswerable: tenant A's run waits for its person's
 * answer while tenant B starts more runs than the runner keeps for a tenant; A's run still reads waiting and its
 * answer is applied. (The runner keeps run state per tenant, and a waiting step's state is in its log anyway.)
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunSnapshot } from '../../generated/ts/index.ts';
import { Credentials, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { createHost } from '../../runtime/host/server.ts';
import { MAX_KEPT_RUNS_PER_TENANT } from '../../runtime/openwop/fixtures/runner.ts';

const KEY_A = 'tenant-a-key-0123456789abcdef';
const KEY_B = 'tenant-b-key-0123456789abcdef';
const ESCALATION = 'conformance-multi-agent-confidence-escalation';
let app: FastifyInstance;

beforeAll(async () => {
  app = (await createHost({ credentials: new Credentials(parseApiKeysEnv(`${KEY_A}=tenant-a:tenant,${KEY_B}=tenant-b:tenant`)), logger: false, seedConformanceFixtures: true })).app;
});
afterAll(() => app.close());
const as = (key: string) => ({ authorization: `Bearer ${key}` });

describe("another tenant's runs", () => {
  it("do not make a tenant's waiting escalation unanswerable", async () => {
    const { runId } = (await app.inject({ method: 'POST', url: '/v1/runs', headers: as(KEY_A), payload: { workflowId: ESCALATION } })).json<{ runId: string }>();
    const interruptId = (await app.inject({ method: 'GET', url: `/v1/runs/${runId}`, headers: as(KEY_A) })).json<RunSnapshot>().interrupt!.interruptId;

    for (let i = 0; i < MAX_KEPT_RUNS_PER_TENANT + 10; i++) {
      const r = await app.inject({ method: 'POST', url: '/v1/runs', headers: as(KEY_B), payload: { workflowId: ESCALATION } });
      expect(r.statusCode).toBe(201);
    }

    const snap = (await app.inject({ method: 'GET', url: `/v1/runs/${runId}`, headers: as(KEY_A) })).json<RunSnapshot>();
    const answer = await app.inject({ method: 'POST', url: `/v1/runs/${runId}/interrupts/${interruptId}`, headers: as(KEY_A), payload: { resumeValue: { action: 'approve' } } });
    expect({ status: snap.status, answer: answer.statusCode }).toEqual({ status: 'waiting-clarification', answer: 200 });
  }, 120_000);
});
