/**
 * Multi-agent fixtures (RFC 0039): a confidence-escalation run, a cross-run TTL run, and replay fixtures. Each
 * fixture's runs start as fixture runs: the host keeps a bounded number per tenant and retires the oldest.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { bodyOf, serveSteps, tenantOrThrow } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function registerMultiAgentSeams(app: FastifyInstance, host: HostRuntime): void {
  // Every seam here is a sequence of steps (route-helpers.ts serveSteps), each reading what the one before committed.
  // A supervisor step with the given decision; the interrupt is answered "approved" by the fixture operator.
  serveSteps(app, ROUTES.escalationRun, async (req, _reply, step) => {
    const { confidence, kind = 'next-worker' } = bodyOf(req, ROUTES.escalationRun);
    const memoryRef = `mem://conformance/escalation-${randomUUID().slice(0, 8)}`;
    const run = await step((tx) => host.startFixtureRun(tx, { workflowId: 'conformance-escalation', memoryRef }));
    // A step that halts at its interrupt keeps the events it recorded up to it.
    await step((tx) => host.supervisorStep(tx, run.runId, { kind, confidence, ...(kind === 'next-worker' ? { worker: 'refund-agent' } : {}) }), { commitOnThrow: true });
    return { runId: run.runId, floor: host.escalationFloor() };
  });

  // A parent run that waits, then a child that writes with a TTL into the inherited scope.
  serveSteps(app, ROUTES.crossRunTtl, async (req, _reply, step) => {
    const { ttlSeconds, delayMs = 200 } = bodyOf(req, ROUTES.crossRunTtl);
    const memoryRef = `mem://conformance/cross-run-${randomUUID().slice(0, 8)}`;
    const parent = await step((tx) => host.startFixtureRun(tx, { workflowId: 'conformance-parent', memoryRef }));
    const parentStartedAt = (await step((tx) => host.events(tx, parent.runId, 0, 1)))!.events[0]!.timestamp;
    await sleep(delayMs);
    const childRunId = `${parent.runId}-child`;
    await step((tx) => host.startFixtureRun(tx, { runId: childRunId, workflowId: 'conformance-child', memoryRef, parentRunId: parent.runId }));
    const entry = await host.childWrite({ runId: parent.runId, memoryRef }, childRunId, { content: 'cached answer from the child', ttlSeconds });
    const seenByParent = (await step((tx) => host.parentReads(tx, parent.runId, memoryRef))).some((e) => e.id === entry.id);
    return { parentRunId: parent.runId, childRunId, memoryRef, parentStartedAt, childWrittenAt: entry.createdAt, entry, seenByParent };
  });

  // Replay fixture: write k=v1, remember the index, overwrite k=v2. Fork at fromSeq should read v1.
  serveSteps(app, ROUTES.replayFixture, async (req, _reply, step) => {
    // No body at all counts as the empty object (the row's bodyOptional); a body that is there matched the schema.
    const { dropEventLog: dropLog = false } = bodyOf(req, ROUTES.replayFixture);
    const memoryRef = `mem://conformance/replay-${randomUUID().slice(0, 8)}`;
    const tenant = tenantOrThrow(memoryRef);
    const run = await step((tx) => host.startFixtureRun(tx, { workflowId: 'conformance-replay', memoryRef }));
    await step((tx) => host.write(tx, memoryRef, { id: 'k', content: 'v1' }, { runId: run.runId, tenant }));
    const fromSeq = await step((tx) => host.lastSequence(tx, run.runId));
    await step((tx) => host.write(tx, memoryRef, { id: 'k', content: 'v2' }, { runId: run.runId, tenant }));
    // The run's event log is gone (retention / degraded infra): a fork must be refused with 422.
    if (dropLog) await step((tx) => host.dropEventLog(tx, run.runId));
    return { runId: run.runId, memoryRef, memoryId: 'k', fromSeq, expectedAtFork: 'v1', current: 'v2' };
  });
}
