/**
 * Multi-agent fixtures (RFC 0039): a confidence-escalation run, a cross-run TTL run, and replay fixtures.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  validateHostSampleCrossRunTtlRequest, validateHostSampleEscalationRunRequest, validateHostSampleReplayFixtureRequest,
} from '../../../generated/validators/validators.js';
import type {
  HostSampleCrossRunTtlRequest, HostSampleEscalationRunRequest,
  HostSampleReplayFixtureRequest,
} from '../../../generated/ts/index.ts';
import { bodyOf, type HostContext } from '../context.ts';
import { tenantOrThrow } from './memory-seams.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function registerMultiAgentSeams(app: FastifyInstance, ctx: HostContext): void {
  const rt = ctx.openwop;

  // A supervisor step with the given decision; the interrupt is answered "approved" by the fixture operator.
  app.post('/v1/host/sample/multi-agent/escalation-run', async (req) => {
    const { confidence, kind = 'next-worker' } = bodyOf<HostSampleEscalationRunRequest>(req, validateHostSampleEscalationRunRequest);
    const memoryRef = `mem://conformance/escalation-${randomUUID().slice(0, 8)}`;
    const run = rt.startRun({ workflowId: 'conformance-escalation', memoryRef });
    const decision = { kind, confidence, ...(kind === 'next-worker' ? { worker: 'refund-agent' } : {}) };
    if (ctx.mutations.skipEscalationEvent) {
      rt.log.append(run.runId, { type: 'runOrchestrator.decided', payload: { decision } });
      rt.log.append(run.runId, { type: 'worker.dispatched', payload: { decisionKind: kind, ...(kind === 'next-worker' ? { worker: 'refund-agent' } : {}) } });
    } else {
      await rt.orchestratorStep(run.runId, decision, async () => ({ outcome: 'approved' }));
    }
    return { runId: run.runId, floor: rt.escalationPolicy.floor };
  });

  // A parent run that waits, then a child that writes with a TTL into the inherited scope.
  app.post('/v1/host/sample/multi-agent/cross-run-ttl', async (req) => {
    const { ttlSeconds, delayMs = 200 } = bodyOf<HostSampleCrossRunTtlRequest>(req, validateHostSampleCrossRunTtlRequest);
    const memoryRef = `mem://conformance/cross-run-${randomUUID().slice(0, 8)}`;
    const parent = rt.startRun({ workflowId: 'conformance-parent', memoryRef });
    const parentStartedAt = rt.log.read(parent.runId)[0]!.timestamp;
    await sleep(delayMs);
    const childRunId = `${parent.runId}-child`;
    rt.startRun({ runId: childRunId, workflowId: 'conformance-child', memoryRef, parentRunId: parent.runId });
    const { entry } = await rt.childWrite({ runId: parent.runId, memoryRef }, childRunId, { content: 'cached answer from the child', ttlSeconds });
    const seenByParent = (await rt.subRuns.readForParent(parent.runId, memoryRef)).some((e) => e.id === entry.id);
    return { parentRunId: parent.runId, childRunId, memoryRef, parentStartedAt, childWrittenAt: entry.createdAt, entry, seenByParent };
  });

  // Replay fixture: write k=v1, remember the index, overwrite k=v2. Fork at fromSeq should read v1.
  app.post('/v1/host/sample/multi-agent/replay-fixture', async (req) => {
    // No body at all counts as the empty object; a body that is there must match the schema.
    const { dropEventLog: dropLog = false } = req.body === undefined ? {} : bodyOf<HostSampleReplayFixtureRequest>(req, validateHostSampleReplayFixtureRequest);
    const memoryRef = `mem://conformance/replay-${randomUUID().slice(0, 8)}`;
    const tenant = tenantOrThrow(memoryRef);
    const run = rt.startRun({ workflowId: 'conformance-replay', memoryRef });
    rt.asRun(run.runId, () => rt.writer.put(memoryRef, { id: 'k', content: 'v1' }, { runId: run.runId, tenant }));
    const fromSeq = rt.log.lastSequence(run.runId);
    rt.asRun(run.runId, () => rt.writer.put(memoryRef, { id: 'k', content: 'v2' }, { runId: run.runId, tenant }));
    if (dropLog) {
      // The run's event log is gone (retention / degraded infra): a fork must be refused with 422.
      rt.journal.dropRun(run.runId);
    }
    return { runId: run.runId, memoryRef, memoryId: 'k', fromSeq, expectedAtFork: 'v1', current: 'v2' };
  });
}
