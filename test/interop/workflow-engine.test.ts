/**
 * The runtime's workflow runs (runtime/openwop/workflow-engine.ts), which run upstream's conformance-noop and
 * conformance-approval fixtures: a run executes its nodes in order and ends in its start request; an approval gate
 * waits, takes only its own actions, once; a fork copies its source's events before fromSeq and executes again —
 * a replay re-emits what its source recorded (never a new memoryId), a branch writes anew; nothing of a run lives in
 * the process (a second runtime on the store answers and forks it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../generated/ts/index.ts';
import { InterruptAlreadyResolvedError, InterruptNotFoundError } from '../../runtime/multi-agent/escalation.ts';
import { ForkSeqOutOfRangeError } from '../../runtime/multi-agent/replay-snapshots.ts';
import { CONFORMANCE_FIXTURES } from '../../runtime/openwop/fixtures/table.ts';
import { ResumeValueRefusedError, type WorkflowDefinition } from '../../runtime/openwop/workflow-engine.ts';
import type { OpenwopRuntime } from '../../runtime/openwop/index.ts';
import { openRuntime, request, withRuntime } from '../runtime/support.ts';
import { unitOfWork } from '../../runtime/storage/index.ts';

const NOOP = CONFORMANCE_FIXTURES['conformance-noop'].definition;
const APPROVAL = CONFORMANCE_FIXTURES['conformance-approval'].definition;
const TWO_GATES: WorkflowDefinition = {
  workflowId: 'two-gates',
  nodes: [{ nodeId: 'first', typeId: 'core.noop' }, { nodeId: 'a', typeId: 'core.approvalGate', actions: ['accept', 'reject'] }, { nodeId: 'b', typeId: 'core.approvalGate', actions: ['accept'] }],
  runSummary: true,
};
const REF = 'mem://acme/conformance/wf';

async function eventsOf(rt: OpenwopRuntime, runId: string): Promise<RunEvent[]> {
  return (await unitOfWork(rt.port, (tx) => rt.log.read(tx, runId))).events;
}
const types = async (rt: OpenwopRuntime, runId: string) => (await eventsOf(rt, runId)).map((e) => (e.nodeId === undefined ? e.type : `${e.type}@${e.nodeId}`));
const ids = async (rt: OpenwopRuntime, runId: string) => (await eventsOf(rt, runId)).filter((e) => e.type === 'memory.written').map((e) => e.payload['memoryId']);

describe('workflow runs', () => {
  it('a noop run ends in its start request: node events, its summary written through SR-1 and attributed, then run.completed', async () => {
    const { rt, port } = await openRuntime();
    const run = await request(port, (plan) => rt.workflows.start(plan, NOOP, REF));
    expect(await types(rt, run.runId)).toEqual(['run.started', 'node.started@noop', 'node.completed@noop', 'memory.written', 'run.completed']);
    const written = (await eventsOf(rt, run.runId)).find((e) => e.type === 'memory.written')!;
    expect(Object.keys(written.payload).sort()).toEqual(['byteSize', 'memoryId', 'memoryRef', 'operation']);
    expect(await unitOfWork(rt.port, (tx) => rt.adapterFor(tx, 'acme').get(REF, String(written.payload['memoryId'])))).toMatchObject({ tags: ['run-summary', 'conformance-noop'] });
    expect(await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, run.runId))).toEqual({ status: 'completed' });
    expect((await unitOfWork(rt.port, (tx) => rt.runs.row(tx, run.runId)))?.endedMs).toBeDefined();
  });

  it('an approval gate waits at its node, takes only its actions, and one answer: accept completes, reject fails with approval_rejected', async () => {
    const { rt, port } = await openRuntime();
    const [a, r] = [await request(port, (p) => rt.workflows.start(p, APPROVAL, REF)), await request(port, (p) => rt.workflows.start(p, APPROVAL, REF))];
    const waiting = await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, a.runId));
    expect(waiting).toMatchObject({ status: 'waiting-approval', currentNodeId: 'gate', interrupt: { kind: 'approval', nodeId: 'gate' } });
    await expect(request(port, (p) => rt.workflows.resume(p, a.runId, 'elsewhere', { action: 'accept' }))).rejects.toBeInstanceOf(InterruptNotFoundError);
    for (const action of ['approve', 'amend', 'confirm'] as const) {
      const refused = request(port, (p) => rt.workflows.resume(p, a.runId, 'gate', { action }));
      await expect(refused).rejects.toBeInstanceOf(ResumeValueRefusedError);
      await expect(refused).rejects.toMatchObject({ status: 400, details: { failures: [{ instancePath: '/resumeValue/action', message: 'must be one of accept, reject' }] } });
    }
    expect(await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, a.runId))).toEqual(waiting);
    // by the interrupt's id as well as by the node's
    await request(port, (p) => rt.workflows.resume(p, a.runId, waiting!.interrupt!.interruptId, { action: 'accept', decidedAt: '2026-11-20T10:00:00Z' }));
    expect(await types(rt, a.runId)).toEqual(['run.started', 'node.started@gate', 'interrupt.requested@gate', 'interrupt.resolved@gate', 'approval.received@gate', 'node.completed@gate', 'memory.written', 'run.completed']);
    expect((await eventsOf(rt, a.runId)).find((e) => e.type === 'approval.received')?.payload).toEqual({ nodeId: 'gate', action: 'accept', interruptId: waiting!.interrupt!.interruptId, decidedAt: '2026-11-20T10:00:00Z' });
    await expect(request(port, (p) => rt.workflows.resume(p, a.runId, 'gate', { action: 'accept' }))).rejects.toBeInstanceOf(InterruptAlreadyResolvedError);

    await request(port, (p) => rt.workflows.resume(p, r.runId, 'gate', { action: 'reject' }));
    expect(await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, r.runId))).toEqual({ status: 'failed', error: { code: 'approval_rejected', message: 'the approval gate was answered reject' } });
    expect((await types(rt, r.runId)).slice(-2)).toEqual(['node.failed@gate', 'run.failed']);
    expect(await ids(rt, r.runId)).toEqual([]);
  });

  it('the conformance agent suspends below the host\'s confidence floor (node.suspended, low-confidence) and goes on at or above it', async () => {
    const LOW = CONFORMANCE_FIXTURES['conformance-agent-low-confidence'].definition;
    const sure: WorkflowDefinition = { ...LOW, workflowId: 'sure', nodes: [{ ...LOW.nodes[0], agent: { ...LOW.nodes[0].agent, confidence: 0.9 } }] };
    const { rt, port } = await openRuntime();
    const low = await request(port, (p) => rt.workflows.start(p, LOW, REF));
    expect(await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, low.runId))).toMatchObject({ status: 'waiting-approval', currentNodeId: 'low-conf-decider' });
    const log = await eventsOf(rt, low.runId);
    expect(log.find((e) => e.type === 'agent.decided')?.payload).toEqual({ agentId: 'core.conformance.low-conf-decider', decision: 'route-to-refunds', confidence: 0.3 });
    const suspended = log.find((e) => e.type === 'node.suspended')!;
    expect(suspended.payload).toEqual({ nodeId: 'low-conf-decider', interruptId: log.find((e) => e.type === 'interrupt.requested')!.payload['interruptId'], kind: 'approval', reason: 'low-confidence', agentId: 'core.conformance.low-conf-decider', threshold: 0.5, observed: 0.3 });
    await request(port, (p) => rt.workflows.resume(p, low.runId, 'low-conf-decider', { action: 'accept' }));
    expect(await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, low.runId))).toEqual({ status: 'completed' });
    expect(await types(rt, (await request(port, (p) => rt.workflows.start(p, sure, REF))).runId)).toEqual(['run.started', 'node.started@low-conf-decider', 'agent.decided@low-conf-decider', 'node.completed@low-conf-decider', 'memory.written', 'run.completed']);
    // a host advertising a stricter floor suspends the 0.9 decision too, and says which threshold it applied
    const { rt: strict, port: strictPort } = await openRuntime({ confidenceEscalationFloor: 0.95 });
    const held = await request(strictPort, (p) => strict.workflows.start(p, sure, REF));
    expect((await eventsOf(strict, held.runId)).find((e) => e.type === 'node.suspended')?.payload).toMatchObject({ threshold: 0.95, observed: 0.9 });
  });

  it('of concurrent answers from two runtimes on one store exactly one applies; the others are 409', async () => {
    const { rt, port } = await openRuntime();
    const { rt: other } = await openRuntime({ port });
    const run = await request(port, (p) => rt.workflows.start(p, APPROVAL, REF));
    const answers = await Promise.allSettled([rt, other, rt, other].map((r) => request(port, (p) => r.workflows.resume(p, run.runId, 'gate', { action: 'accept' }))));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 'rejected')) expect((a as PromiseRejectedResult).reason).toMatchObject({ code: 'interrupt_already_resolved', status: 409 });
    expect((await types(rt, run.runId)).filter((t) => t.startsWith('interrupt.resolved'))).toHaveLength(1);
  });

  it('a replay fork re-emits the recorded summary and answer (same ids); a branch writes anew; both end in the fork request', async () => {
    const { rt, port } = await openRuntime();
    const src = await request(port, (p) => rt.workflows.start(p, APPROVAL, REF));
    await request(port, (p) => rt.workflows.resume(p, src.runId, 'gate', { action: 'accept' }));
    const replay = await request(port, (p) => rt.fork(p, src.runId, 0, 'replay'));
    const branch = await request(port, (p) => rt.fork(p, src.runId, 0, 'branch'));
    expect(await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, replay.runId))).toEqual({ status: 'completed' });
    expect(await ids(rt, replay.runId)).toEqual(await ids(rt, src.runId));
    const srcAnswer = (await eventsOf(rt, src.runId)).find((e) => e.type === 'interrupt.resolved')!.payload;
    expect((await eventsOf(rt, replay.runId)).find((e) => e.type === 'interrupt.resolved')?.payload).toEqual(srcAnswer);
    // the branch waits for its own answer (it does not inherit the source's), then writes its own summary
    expect(await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, branch.runId))).toMatchObject({ status: 'waiting-approval', currentNodeId: 'gate' });
    await request(port, (p) => rt.workflows.resume(p, branch.runId, 'gate', { action: 'accept' }));
    const [mine] = await ids(rt, branch.runId);
    expect(mine).toBeDefined();
    expect(await ids(rt, src.runId)).not.toContain(mine);
    expect((await eventsOf(rt, replay.runId))[0]?.payload).toMatchObject({ forkedFrom: { runId: src.runId, fromSeq: 0 } });
  });

  it('a replay past what its source recorded fails closed at the summary write (replay_source_missing), never writing', async () => {
    const { rt, port } = await openRuntime();
    const src = await request(port, (p) => rt.workflows.start(p, APPROVAL, REF));
    const replay = await request(port, (p) => rt.fork(p, src.runId, 0, 'replay'));
    expect(await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, replay.runId))).toMatchObject({ status: 'waiting-approval', currentNodeId: 'gate' });
    // the replay raised the interrupt its source raised (same id)
    const interruptOf = async (runId: string) => (await eventsOf(rt, runId)).find((e) => e.type === 'interrupt.requested')?.payload['interruptId'];
    expect(await interruptOf(replay.runId)).toBe(await interruptOf(src.runId));
    await request(port, (p) => rt.workflows.resume(p, replay.runId, 'gate', { action: 'accept' }));
    expect(await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, replay.runId))).toEqual({ status: 'failed', error: { code: 'replay_source_missing', message: 'the replay reached a write its source run never recorded; it is not performed' } });
    expect(await ids(rt, replay.runId)).toEqual([]);
  });

  it('property: a fork at any fromSeq copies the source events before it, and ends as its source with the same recorded ids (replay)', async () => {
    const { rt, port } = await openRuntime();
    const src = await request(port, (p) => rt.workflows.start(p, TWO_GATES, REF));
    await request(port, (p) => rt.workflows.resume(p, src.runId, 'a', { action: 'accept' }));
    await request(port, (p) => rt.workflows.resume(p, src.runId, 'b', { action: 'accept' }));
    const source = await eventsOf(rt, src.runId);
    const shape = (e: RunEvent) => [e.type, e.nodeId ?? null, e.type === 'run.started' ? null : e.payload];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: source.length - 1 }), fc.constantFrom('replay' as const, 'branch' as const), async (fromSeq, mode) => {
        const fork = await request(port, (p) => rt.fork(p, src.runId, fromSeq, mode));
        const log = await eventsOf(rt, fork.runId);
        expect(log.slice(1, Math.max(1, fromSeq)).map(shape)).toEqual(source.slice(1, Math.max(1, fromSeq)).map(shape));
        expect(log.map((e) => e.sequence)).toEqual(log.map((_, i) => i));
        if (mode === 'replay') {
          expect(await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, fork.runId))).toEqual({ status: 'completed' });
          expect(log.map(shape).slice(1)).toEqual(source.map(shape).slice(1));
        } else {
          // a branch goes on from its fork point as an independent run: it waits at the first gate its history did not
          // answer, or completes — with the summary its history holds, else one of its own
          const prefix = source.slice(1, fromSeq);
          const unanswered = TWO_GATES.nodes.find((n) => n.typeId === 'core.approvalGate' && !prefix.some((e) => e.type === 'interrupt.resolved' && e.nodeId === n.nodeId));
          const state = await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, fork.runId));
          if (unanswered !== undefined) expect(state).toMatchObject({ status: 'waiting-approval', currentNodeId: unanswered.nodeId });
          else {
            expect(state).toEqual({ status: 'completed' });
            const inherited = prefix.some((e) => e.type === 'memory.written');
            expect((await ids(rt, fork.runId)).every((id) => (inherited ? source.some((e) => e.payload['memoryId'] === id) : !source.some((e) => e.payload['memoryId'] === id)))).toBe(true);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a fork point past the source log (422 fork_point_invalid, nothing created); runs live in the store, not the process', async () => {
    await withRuntime({}, async ({ rt, port }) => {
      const src = await request(port, (p) => rt.workflows.start(p, APPROVAL, REF));
      const last = (await eventsOf(rt, src.runId)).length - 1;
      const refused = request(port, (p) => rt.fork(p, src.runId, last + 1, 'replay'));
      await expect(refused).rejects.toBeInstanceOf(ForkSeqOutOfRangeError);
      await expect(refused).rejects.toMatchObject({ status: 422, details: { fromSeq: last + 1, lastSeq: last, sourceRunId: src.runId } });
      // a second runtime on the store (another host, a restart) answers the gate and forks the run
      const { rt: other } = await openRuntime({ port });
      await request(port, (p) => other.workflows.resume(p, src.runId, 'gate', { action: 'accept' }));
      const fork = await request(port, (p) => other.fork(p, src.runId, 0, 'replay'));
      expect(await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, fork.runId))).toEqual({ status: 'completed' });
      expect(await unitOfWork(rt.port, (tx) => rt.workflows.state(tx, 'run_nope'))).toBeUndefined();
      await expect(request(port, (p) => rt.workflows.resume(p, 'run_nope', 'gate', { action: 'accept' }))).rejects.toBeInstanceOf(InterruptNotFoundError);
    });
  });
});
