import { describe, expect, it } from 'vitest';
import { createOpenwopRuntime, BACKGROUND_RUN_ID } from '../../../runtime/openwop/index.ts';
import { ReplayMemorySnapshotUnavailableError } from '../../../runtime/multi-agent/replay-snapshots.ts';
import { validateRunEvent } from '../../../runtime/events/validate.ts';
import { ManualClock, SequentialIds } from '../../../runtime/shared/clock.ts';

const REF = 'mem://tenant-a/agent-7';
const make = (o: Parameters<typeof createOpenwopRuntime>[0] = {}) => createOpenwopRuntime({ clock: new ManualClock(), ids: new SequentialIds(), ...o });
const allEvents = (rt: ReturnType<typeof make>) => rt.log.runIds().flatMap((r) => rt.log.read(r));

describe('OpenWOP runtime, wired end to end', () => {
  it('advertises exactly what is wired, and the document validates', () => {
    const doc = make().discovery() as Record<string, any>;
    expect(doc.agents.memoryConsolidation).toEqual({ supported: true, schedule: 'on-demand' });
    expect(doc.agents.commitments).toEqual({ supported: true, fireConditions: ['time', 'predicate'] });
    expect(doc.agents.memoryBackends).toEqual(['long-term']);
    expect(doc.memory.compaction.supported).toBe(true);
    expect(doc.multiAgent.executionModel).toMatchObject({ supported: true, version: 2, confidenceEscalationFloor: 0.5, crossChildMemoryConcurrency: 'strict' });
  });
  it('advertises a stricter floor and refuses one below 0.5', () => {
    expect((make({ confidenceEscalationFloor: 0.7 }).discovery() as any).multiAgent.executionModel.confidenceEscalationFloor).toBe(0.7);
    expect(() => make({ confidenceEscalationFloor: 0.3 })).toThrow();
  });
  it('every write emits a content-free memory.written event, and every event validates', () => {
    const rt = make();
    const run = rt.startRun({ workflowId: 'wf', memoryRef: REF });
    rt.asRun(run.runId, () => rt.writer.put(REF, { content: 'CANARY-TEXT-123 prefers email' }, { runId: run.runId }));
    const written = rt.log.read(run.runId).filter((e) => e.type === 'memory.written');
    expect(written).toHaveLength(1);
    expect(JSON.stringify(written)).not.toContain('CANARY-TEXT');
    for (const e of allEvents(rt)) expect(validateRunEvent(e).ok).toBe(true);
  });
  it('consolidation: first pass merges, second pass is a no-op, secret stays redacted, event content-free', async () => {
    const rt = make();
    const reg = rt.registries.forRun('run-x', 'tenant-a');
    reg.register('byok-1', 'sk-secret-ABCDEFGH', 'run');
    for (const c of ['Refund policy is 30 days.', 'Refund policy is 30 days.', 'Customer likes email. sk-secret-ABCDEFGH', 'Shipping is free over 50.']) rt.writer.put(REF, { content: c });
    const first = await rt.consolidation.consolidate(REF, { trigger: 'on-demand' });
    expect(first.payload.outputCount).toBeLessThan(first.payload.inputCount);
    const second = await rt.consolidation.consolidate(REF, { trigger: 'on-demand' });
    expect(second.payload.inputCount).toBe(second.payload.outputCount);
    const contents = (await rt.adapterFor('tenant-a').list(REF)).map((e) => e.content).join('\n');
    expect(contents).not.toContain('sk-secret-ABCDEFGH');
    const ev = allEvents(rt).filter((e) => e.type === 'agent.memory.consolidated');
    expect(ev).toHaveLength(2);
    expect(JSON.stringify(ev)).not.toMatch(/Refund|sk-secret/);
  });
  it('commitments: fires once per satisfied predicate, content-free, with provenance and an enqueued run in the same tenant', async () => {
    const rt = make();
    const entry = rt.writer.put(REF, { content: 'Remind me when the SOC2 report is filed INTENT-CANARY', tags: ['intent:remind', 'when:soc2-filed', 'action:run'] });
    rt.commitments.inferFrom(REF, entry);
    expect(await rt.commitments.tick()).toHaveLength(0);
    rt.predicates.set('tenant-a', 'soc2-filed', true);
    const fired = await rt.commitments.tick();
    expect(fired).toHaveLength(1);
    expect(await rt.commitments.tick()).toHaveLength(0);
    const ev = allEvents(rt).filter((e) => e.type === 'commitment.fired');
    expect(ev).toHaveLength(1);
    expect(ev[0]!.payload).toMatchObject({ memoryRef: REF, memoryId: entry.id, condition: 'predicate' });
    expect(JSON.stringify(ev)).not.toContain('INTENT-CANARY');
    const runId = (ev[0]!.payload as { enqueuedRunId: string }).enqueuedRunId;
    expect(rt.runs.get(runId)?.tenant).toBe('tenant-a');
  });
  it('confidence escalation: the escalation event precedes the interrupt and any dispatch', async () => {
    const rt = make();
    const run = rt.startRun({ workflowId: 'wf', memoryRef: REF });
    const dispatched: string[] = [];
    await rt.orchestratorStep(run.runId, { kind: 'next-worker', confidence: 0.3, worker: 'refund-agent' }, async () => ({ outcome: 'approved' }), (d) => { dispatched.push(String(d.worker)); });
    const types = rt.log.read(run.runId).map((e) => e.type);
    expect(types).toEqual(['run.started', 'runOrchestrator.decided', 'core.workflowChain.confidence-escalated', 'interrupt.requested', 'interrupt.resolved', 'worker.dispatched']);
    expect(dispatched).toEqual(['refund-agent']);
  });
  it('a decision at the floor dispatches without escalation', async () => {
    const rt = make();
    const run = rt.startRun({ workflowId: 'wf', memoryRef: REF });
    await rt.orchestratorStep(run.runId, { kind: 'terminate', confidence: 0.5 }, async () => { throw new Error('no interrupt expected'); });
    expect(rt.log.read(run.runId).map((e) => e.type)).toEqual(['run.started', 'runOrchestrator.decided', 'worker.dispatched']);
  });
  it('child TTL counts from the child write time, not the parent start', async () => {
    const clock = new ManualClock();
    const rt = make({ clock });
    const parent = rt.startRun({ workflowId: 'wf', memoryRef: REF });
    clock.advance(10_000);
    const { entry } = await rt.childWrite({ runId: parent.runId, memoryRef: REF }, 'child-1', { content: 'cached answer', ttlSeconds: 5 });
    expect(Date.parse(entry.expiresAt!)).toBe(clock.now() + 5000);
    clock.advance(4999);
    expect(await rt.adapterFor('tenant-a').get(REF, entry.id)).not.toBeNull();
    clock.advance(1);
    expect(await rt.adapterFor('tenant-a').get(REF, entry.id)).toBeNull();
  });
  it('replay: a fork at N reads memory as it was at N; an unavailable snapshot is refused with its details', async () => {
    const clock = new ManualClock();
    const rt = make({ clock, snapshotRetentionMs: 60_000 });
    const run = rt.startRun({ workflowId: 'wf', memoryRef: REF });
    rt.asRun(run.runId, () => rt.writer.put(REF, { id: 'k', content: 'v1' }, { runId: run.runId }));
    const n = rt.log.lastSequence(run.runId);
    rt.asRun(run.runId, () => rt.writer.put(REF, { id: 'k', content: 'v2' }, { runId: run.runId }));
    const { view } = rt.fork(run.runId, n);
    expect((await view.get(REF, 'k'))?.content).toBe('v1');
    view.close();
    expect(() => rt.fork('no-such-run', 0)).toThrow(ReplayMemorySnapshotUnavailableError);
    clock.advance(120_000);
    rt.writer.put(REF, { id: 'k2', content: 'later' });
    rt.journal.prune();
    try { rt.fork(run.runId, 0); expect.unreachable(); } catch (e) {
      expect(e).toBeInstanceOf(ReplayMemorySnapshotUnavailableError);
      expect((e as ReplayMemorySnapshotUnavailableError).details).toMatchObject({ fromSeq: 0, sourceRunId: run.runId, reason: 'retention_expired' });
    }
  });
  it('background writes are attributed to the host background log', () => {
    const rt = make();
    rt.writer.put(REF, { content: 'x' });
    expect(rt.log.read(BACKGROUND_RUN_ID).map((e) => e.type)).toEqual(['memory.written']);
  });
});
