/**
 * An escalated run waiting for a person's answer, on a durable store, across a host restart (the same as a
 * takeover by another host of an active/standby pair): its state is its log, so after the restart it still reads
 * waiting with its open interrupt, and the person's answer is applied (before the fix the pending interrupt lived
 * only in the runner's memory: the run read `completed` and the answer was a 404).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent, RunSnapshot } from '../../generated/ts/index.ts';
import { Credentials, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { createHost } from '../../runtime/host/server.ts';
import { openStore } from '../../runtime/storage/open-store.ts';

const KEY = 'tenant-a-key-0123456789abcdef';
const ESCALATION = 'conformance-multi-agent-confidence-escalation';
const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-interrupt-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function startHost() {
  const storage = await openStore({ kind: 'sqlite', dataDir });
  return (await createHost({ credentials: new Credentials(parseApiKeysEnv(`${KEY}=tenant-a:tenant`)), storage, logger: false, seedConformanceFixtures: true })).app;
}
const headers = { authorization: `Bearer ${KEY}` };

describe('an escalated run across a restart', () => {
  it('is not reported completed while its interrupt is unanswered, and can still be answered', async () => {
    let app = await startHost();
    const { runId } = (await app.inject({ method: 'POST', url: '/v1/runs', headers, payload: { workflowId: ESCALATION } })).json<{ runId: string }>();
    const before = (await app.inject({ method: 'GET', url: `/v1/runs/${runId}`, headers })).json<RunSnapshot>();
    expect(before.status).toBe('waiting-clarification');
    const interruptId = before.interrupt!.interruptId;
    await app.close();

    app = await startHost();
    try {
      const log = (await app.inject({ method: 'GET', url: `/v1/runs/${runId}/events`, headers })).json<{ events: RunEvent[] }>().events;
      // The durable log: asked, never answered, nothing dispatched.
      expect(log.map((e) => e.type)).toContain('interrupt.requested');
      expect(log.some((e) => e.type === 'interrupt.resolved' || e.type === 'worker.dispatched')).toBe(false);

      const after = (await app.inject({ method: 'GET', url: `/v1/runs/${runId}`, headers })).json<RunSnapshot>();
      const answer = await app.inject({ method: 'POST', url: `/v1/runs/${runId}/interrupts/${interruptId}`, headers, payload: { resumeValue: { action: 'approve' } } });
      expect({ status: after.status, answer: answer.statusCode }).toEqual({ status: 'waiting-clarification', answer: 200 });
    } finally {
      await app.close();
    }
  });
});
