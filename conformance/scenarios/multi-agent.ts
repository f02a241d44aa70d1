/** RFC 0039: confidence floor escalation before dispatch, cross-run TTL from child write time, replay snapshot + 422. */
import { validateReplayMemorySnapshotUnavailableDetails } from '../../generated/validators/validators.js';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import type { Scenario } from '../scenario.ts';
import * as gate from './gates.ts';

interface Ev { type: string; sequence: number; payload: Record<string, unknown> }

export const multiAgentScenarios: Scenario[] = [
  {
    id: 'multi-agent-confidence-escalation',
    title: 'A below-floor decision records confidence-escalated, then an interrupt, before any dispatch',
    rfc: 'RFC 0039 §A, §D',
    profile: 'multi-agent',
    gate: gate.executionModelV2,
    async run(t) {
      t.req('openwop.requirement.proposed.0039.a3-event-before-interrupt');
      const r = await t.call<{ runId: string; floor: number }>(ROUTES.escalationRun, { body: { confidence: 0.3, kind: 'next-worker' } });
      const { body } = await t.call<{ events: Ev[] }>(ROUTES.runEvents, { params: { runId: r.body.runId } });
      const types = body.events.map((e) => e.type);
      const esc = types.indexOf('core.workflowChain.confidence-escalated');
      const intr = types.indexOf('interrupt.requested');
      const disp = types.indexOf('worker.dispatched');
      t.check(esc !== -1, 'no core.workflowChain.confidence-escalated event for a 0.3 next-worker decision');
      t.check(intr !== -1 && esc < intr, 'the escalation event must precede the interrupt');
      t.check(disp === -1 || (esc !== -1 && esc < disp && intr < disp), 'a dispatch happened before the escalation and interrupt');
      const e = body.events[esc];
      t.req('openwop.requirement.proposed.0039.a2-floor-at-least-half');
      if (e) {
        t.check(Number(e.payload.floor) >= 0.5, 'escalation floor below 0.5');
        t.check(Number(e.payload.confidence) < Number(e.payload.floor), 'escalated a decision that was not below the floor');
      }
      const ok = await t.call<{ runId: string }>(ROUTES.escalationRun, { body: { confidence: 0.95, kind: 'next-worker' } });
      const okEvents = await t.call<{ events: Ev[] }>(ROUTES.runEvents, { params: { runId: ok.body.runId } });
      t.check(!okEvents.body.events.some((x) => x.type === 'core.workflowChain.confidence-escalated'), 'a 0.95 decision was escalated');
    },
  },
  {
    id: 'agent-memory-cross-run-ttl',
    title: "A child's TTL counts from the child's write time, and the parent sees the child's write",
    rfc: 'RFC 0039 §B (MAE-2)',
    profile: 'multi-agent',
    gate: gate.v2WithMemory,
    async run(t) {
      t.req('openwop.requirement.proposed.0039.b2-ttl-from-child-write');
      const r = await t.call<{ parentStartedAt: string; childWrittenAt: string; entry: { expiresAt: string }; seenByParent: boolean }>(ROUTES.crossRunTtl, { body: { ttlSeconds: 5, delayMs: 300 } });
      const exp = Date.parse(r.body.entry.expiresAt);
      t.check(Date.parse(r.body.childWrittenAt) - Date.parse(r.body.parentStartedAt) >= 250, 'the fixture did not separate parent start and child write');
      t.equal(exp - Date.parse(r.body.childWrittenAt), 5000, 'expiresAt - child write time (ms)');
      t.check(exp - Date.parse(r.body.parentStartedAt) !== 5000, 'expiresAt was anchored at the parent start');
      t.req('openwop.requirement.proposed.0039.b1-child-memory-scope').equal(r.body.seenByParent, true, "the parent's supervisor read sees the child's entry");
    },
  },
  {
    id: 'replay-memory-snapshot',
    title: 'A fork at index N reads memory as it was at N; an unservable snapshot is refused with 422',
    rfc: 'RFC 0039 §B–C (MAE-3)',
    profile: 'multi-agent',
    gate: gate.v2WithMemory,
    async run(t) {
      t.req('openwop.requirement.proposed.0039.b4-replay-reads-the-past');
      const fx = await t.call<{ runId: string; memoryRef: string; memoryId: string; fromSeq: number; expectedAtFork: string; current: string }>(ROUTES.replayFixture, { body: {} });
      const fork = await t.call<{ runId: string; sourceRunId: string; fromSeq?: number }>(ROUTES.runFork, { params: { runId: fx.body.runId }, body: { fromSeq: fx.body.fromSeq } });
      t.equal(fork.status, 201, 'fork status');
      t.equal(fork.body.sourceRunId, fx.body.runId, 'the fork names its source run');
      if (fork.body.fromSeq !== undefined) t.equal(fork.body.fromSeq, fx.body.fromSeq, 'the fork names its fork point');
      const read = await t.call<{ content: string }>(ROUTES.runMemory, { params: { runId: fork.body.runId }, query: { memoryRef: fx.body.memoryRef, id: fx.body.memoryId } });
      t.equal(read.body.content, fx.body.expectedAtFork, 'the fork reads the snapshot at fromSeq, not current memory');
      t.req('openwop.requirement.proposed.0039.c1-snapshot-unavailable-refusal');
      const gone = await t.call<{ runId: string; fromSeq: number }>(ROUTES.replayFixture, { body: { dropEventLog: true } });
      const refused = await t.call<{ error: string; details: { fromSeq: number; sourceRunId?: string; reason?: string } }>(ROUTES.runFork, { params: { runId: gone.body.runId }, body: { fromSeq: gone.body.fromSeq } }, { refusal: true });
      t.equal(refused.status, 422, 'status of a fork whose snapshot is unavailable');
      t.equal(refused.body.error, 'replay_memory_snapshot_unavailable', 'error code');
      t.equal(refused.body.details?.fromSeq, gone.body.fromSeq, 'details.fromSeq');
      // The seed asks only for fromSeq; sourceRunId and reason are the locked envelope's optional extras (upstream
      // hosts may omit them), so they are checked when a host sends them.
      if (refused.body.details?.sourceRunId !== undefined) t.equal(refused.body.details.sourceRunId, gone.body.runId, 'details.sourceRunId');
      if (refused.body.details?.reason !== undefined) t.check(['retention_expired', 'event_log_unavailable'].includes(refused.body.details.reason), 'details.reason');
      t.check(validateReplayMemorySnapshotUnavailableDetails(refused.body.details), 'the 422 details do not match ReplayMemorySnapshotUnavailableDetails');
    },
  },
  {
    id: 'replay-fork-mode',
    title: 'A fork takes mode replay or branch, reads memory as of fromSeq, is readable as a run, and an unservable replay is a 422',
    rfc: 'RFC 0039 §B–C (MAE-3)',
    profile: 'multi-agent',
    gate: gate.v2WithMemory,
    async run(t) {
      t.req('openwop.requirement.proposed.0039.b4-replay-reads-the-past');
      const fx = await t.call<{ runId: string; memoryRef: string; memoryId: string; fromSeq: number; expectedAtFork: string }>(ROUTES.replayFixture, { body: {} });
      for (const mode of ['replay', 'branch'] as const) {
        const fork = await t.call<{ runId: string }>(ROUTES.runFork, { params: { runId: fx.body.runId }, body: { mode, fromSeq: fx.body.fromSeq } });
        t.equal(fork.status, 201, `fork status (${mode})`);
        const read = await t.call<{ content: string }>(ROUTES.runMemory, { params: { runId: fork.body.runId }, query: { memoryRef: fx.body.memoryRef, id: fx.body.memoryId } });
        t.equal(read.body.content, fx.body.expectedAtFork, `a ${mode} fork reads memory as of fromSeq`);
        const run = await t.call<{ status: string }>(ROUTES.runRead, { params: { runId: fork.body.runId } });
        t.equal(run.status, 200, `GET on the ${mode} fork's run path`);
      }
      t.req('openwop.requirement.proposed.0039.c1-snapshot-unavailable-refusal');
      const gone = await t.call<{ runId: string }>(ROUTES.replayFixture, { body: { dropEventLog: true } });
      const refused = await t.call<{ error: string; details: { fromSeq: number } }>(ROUTES.runFork, { params: { runId: gone.body.runId }, body: { mode: 'replay', fromSeq: 0 } }, { refusal: true });
      t.equal([refused.status, refused.body.error, refused.body.details?.fromSeq], [422, 'replay_memory_snapshot_unavailable', 0], 'an unservable replay');
    },
  },
];
