import { describe, expect, it } from 'vitest';
import { backgroundRunId } from '../../../runtime/events/log.ts';
import { validateRunEvent } from '../../../runtime/events/validate.ts';
import { ReplayMemorySnapshotUnavailableError } from '../../../runtime/multi-agent/replay-snapshots.ts';
import { commitDetached, detachedTx } from '../../../runtime/storage/unit-of-work.ts';
import { allEvents, eventsOf, openRuntime, put, registerSecrets, request, storedEntries, thrown } from '../support.ts';
import { unitOfWork } from '../../../runtime/storage/index.ts';

const REF = 'mem://tenant-a/agent-7';

describe('OpenWOP runtime, wired end to end', () => {
  it('advertises exactly what is wired, and the document validates', async () => {
    const doc = (await openRuntime()).rt.discovery() as Record<string, any>;
    expect(doc.agents.memoryConsolidation).toEqual({ supported: true, schedule: 'on-demand' });
    expect(doc.agents.commitments).toEqual({ supported: true, fireConditions: ['time', 'predicate'] });
    expect(doc.agents.memoryBackends).toEqual(['long-term']);
    expect(doc.memory.compaction.supported).toBe(true);
    expect(doc.multiAgent.executionModel).toMatchObject({ supported: true, version: 2, confidenceEscalationFloor: 0.5, crossChildMemoryConcurrency: 'strict' });
  });
  it('advertises a stricter floor and refuses one below 0.5', async () => {
    expect(((await openRuntime({ confidenceEscalationFloor: 0.7 })).rt.discovery() as any).multiAgent.executionModel.confidenceEscalationFloor).toBe(0.7);
    await expect(openRuntime({ confidenceEscalationFloor: 0.3 })).rejects.toThrow();
  });
  it('every write emits a content-free memory.written event in the writing run, with the write, and every event validates', async () => {
    const { rt, port } = await openRuntime();
    const run = await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: REF }));
    const e = await put(rt, REF, { content: 'CANARY-TEXT-123 prefers email' }, { runId: run.runId });
    const written = (await eventsOf(rt, run.runId)).filter((x) => x.type === 'memory.written');
    expect(written.map((x) => x.payload)).toEqual([{ memoryRef: REF, memoryId: e.id, operation: 'put', byteSize: Buffer.byteLength(e.content) }]);
    expect(JSON.stringify(written)).not.toContain('CANARY-TEXT');
    for (const x of await allEvents(port)) expect(validateRunEvent(x).ok).toBe(true);
  });
  it('a write and its event are one transaction: a write refused at commit leaves neither', async () => {
    const { rt, port } = await openRuntime({ memoryBounds: { entriesPerMemoryRef: 1 } });
    const run = await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: REF }));
    await put(rt, REF, { content: 'first' }, { runId: run.runId });
    expect(await thrown(() => put(rt, REF, { content: 'second' }, { runId: run.runId }))).toMatchObject({ code: 'quota_exceeded' });
    expect((await eventsOf(rt, run.runId)).filter((x) => x.type === 'memory.written')).toHaveLength(1);
    expect(await storedEntries(port, REF)).toHaveLength(1);
  });
  it('a write attributed to a run of another tenant is refused: a run\'s log never carries another tenant\'s memory', async () => {
    const { rt, port } = await openRuntime();
    const other = await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: 'mem://tenant-b/x' }));
    expect(await thrown(() => put(rt, REF, { content: 'a fact of tenant a' }, { runId: other.runId }))).toMatchObject({ code: 'run_tenant_conflict' });
    expect((await eventsOf(rt, other.runId)).map((x) => x.type)).toEqual(['run.started']);
    expect(await storedEntries(port, REF)).toEqual([]);
  });
  it('consolidation: first pass merges, second pass is a no-op, secret stays redacted, event content-free', async () => {
    const { rt, port } = await openRuntime();
    await registerSecrets(rt, 'tenant-a', 'run-x', { 'byok-1': 'sk-secret-ABCDEFGH' });
    for (const c of ['Refund policy is 30 days.', 'Refund policy is 30 days.', 'Customer likes email. sk-secret-ABCDEFGH', 'Shipping is free over 50.']) await put(rt, REF, { content: c });
    const first = await request(port, (plan) => rt.consolidation.consolidate(plan, REF, { trigger: 'on-demand' }));
    expect(first.payload.outputCount).toBeLessThan(first.payload.inputCount);
    const second = await request(port, (plan) => rt.consolidation.consolidate(plan, REF, { trigger: 'on-demand' }));
    expect(second.payload.inputCount).toBe(second.payload.outputCount);
    const contents = (await unitOfWork(rt.port, (tx) => rt.adapterFor(tx, 'tenant-a').list(REF))).map((e) => e.content).join('\n');
    expect(contents).not.toContain('sk-secret-ABCDEFGH');
    const ev = (await allEvents(port)).filter((e) => e.type === 'agent.memory.consolidated');
    expect(ev).toHaveLength(2);
    expect(JSON.stringify(ev)).not.toMatch(/Refund|sk-secret/);
  });
  it('commitments: fires once per satisfied predicate, content-free, with provenance and an enqueued run in the same tenant', async () => {
    const { rt, port } = await openRuntime();
    const entry = await put(rt, REF, { content: 'Remind me when the SOC2 report is filed INTENT-CANARY', tags: ['intent:remind', 'when:soc2-filed', 'action:run'] });
    await request(port, (plan) => rt.commitments.inferFrom(plan, REF, entry));
    expect(await rt.commitments.tick()).toHaveLength(0);
    await unitOfWork(rt.port, (tx) => rt.commitments.setPredicate(tx, 'tenant-a', 'soc2-filed', true));
    const fired = await rt.commitments.tick();
    expect(fired).toHaveLength(1);
    expect(await rt.commitments.tick()).toHaveLength(0);
    const ev = (await allEvents(port)).filter((e) => e.type === 'commitment.fired');
    expect(ev).toHaveLength(1);
    expect(ev[0]!.payload).toMatchObject({ memoryRef: REF, memoryId: entry.id, condition: 'predicate' });
    expect(JSON.stringify(ev)).not.toContain('INTENT-CANARY');
    const runId = (ev[0]!.payload as { enqueuedRunId: string }).enqueuedRunId;
    expect(ev[0]!.runId).toBe(runId);
    expect((await unitOfWork(rt.port, (tx) => rt.runs.row(tx, runId)))?.tenant).toBe('tenant-a');
  });
  it('confidence escalation: the escalation event precedes the interrupt and any dispatch', async () => {
    const { rt, port } = await openRuntime();
    const run = await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: REF }));
    const dispatched: string[] = [];
    const plan = detachedTx(port);
    await rt.orchestratorStep(plan, run.runId, { kind: 'next-worker', confidence: 0.3, worker: 'refund-agent' }, async () => ({ outcome: 'approved' }), (d) => { dispatched.push(String(d.worker)); });
    await commitDetached(plan, port);
    const types = (await eventsOf(rt, run.runId)).map((e) => e.type);
    expect(types).toEqual(['run.started', 'runOrchestrator.decided', 'core.workflowChain.confidence-escalated', 'interrupt.requested', 'interrupt.resolved', 'worker.dispatched']);
    expect(dispatched).toEqual(['refund-agent']);
  });
  it('a suspended step is carried on from the log, exactly once: a second answer is refused, an unknown interrupt is not found', async () => {
    const { rt, port } = await openRuntime();
    const run = await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: REF }));
    let interruptId = '';
    const plan = detachedTx(port);
    await rt.orchestratorStep(plan, run.runId, { kind: 'next-worker', confidence: 0.1, worker: 'w' }, async (req) => {
      interruptId = req.interruptId;
      throw new Error('the person answers later');
    }).catch(() => undefined);
    await commitDetached(plan, port);
    expect((await eventsOf(rt, run.runId)).map((e) => e.type).at(-1)).toBe('interrupt.requested');
    const answer = () => request(port, (p) => rt.continueStep(p, run.runId, interruptId, { outcome: 'approved' }));
    const [first, second] = await Promise.allSettled([answer(), answer()]);
    expect([first.status, second.status].sort()).toEqual(['fulfilled', 'rejected']);
    // the loser read the interrupt open too; the claim its transaction took refuses it as answered already (409)
    expect([first, second].find((a) => a.status === 'rejected')).toMatchObject({ reason: { code: 'interrupt_already_resolved', status: 409 } });
    expect((await eventsOf(rt, run.runId)).filter((e) => e.type === 'interrupt.resolved')).toHaveLength(1);
    expect(await thrown(() => answer())).toMatchObject({ code: 'interrupt_already_resolved' });
    expect(await thrown(() => request(port, (p) => rt.continueStep(p, run.runId, 'int_nope', { outcome: 'approved' })))).toMatchObject({ code: 'interrupt_not_found' });
  });
  it('a decision at the floor dispatches without escalation', async () => {
    const { rt, port } = await openRuntime();
    const run = await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: REF }));
    await request(port, (plan) => rt.orchestratorStep(plan, run.runId, { kind: 'terminate', confidence: 0.5 }, async () => { throw new Error('no interrupt expected'); }));
    expect((await eventsOf(rt, run.runId)).map((e) => e.type)).toEqual(['run.started', 'runOrchestrator.decided', 'worker.dispatched']);
  });
  it('child TTL counts from the child write time, not the parent start', async () => {
    const { rt, port, clock } = await openRuntime();
    const parent = await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: REF }));
    clock.advance(10_000);
    await request(port, (plan) => rt.startRun(plan, { runId: 'child-1', workflowId: 'wf', memoryRef: REF, parentRunId: parent.runId }));
    const { entry } = await rt.childWrite({ runId: parent.runId, memoryRef: REF }, 'child-1', { content: 'cached answer', ttlSeconds: 5 });
    expect(Date.parse(entry.expiresAt!)).toBe(clock.now() + 5000);
    clock.advance(4999);
    expect(await unitOfWork(rt.port, (tx) => rt.adapterFor(tx, 'tenant-a').get(REF, entry.id))).not.toBeNull();
    clock.advance(1);
    expect(await unitOfWork(rt.port, (tx) => rt.adapterFor(tx, 'tenant-a').get(REF, entry.id))).toBeNull();
  });
  it('replay: a fork at N reads memory as it was at N; an unknown source or an unavailable snapshot is refused', async () => {
    const { rt, port, clock } = await openRuntime();
    const run = await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: REF }));
    await put(rt, REF, { id: 'k', content: 'v1' }, { runId: run.runId });
    const n = (await unitOfWork(rt.port, (tx) => rt.runs.row(tx, run.runId)))!.nextSeq - 1;
    await put(rt, REF, { id: 'k', content: 'v2' }, { runId: run.runId });
    const fork = await request(port, (plan) => rt.fork(plan, run.runId, n));
    expect(fork).toMatchObject({ tenant: 'tenant-a', memoryRef: REF, forkedFrom: { runId: run.runId, fromSeq: n } });
    expect((await (await unitOfWork(rt.port, (tx) => rt.memoryOfRun(tx, fork.runId)))!.get(REF, 'k'))?.content).toBe('v1');
    expect((await eventsOf(rt, fork.runId))[0]).toMatchObject({ type: 'run.started', payload: { forkedFrom: { runId: run.runId, fromSeq: n } } });
    expect(await thrown(() => request(port, (plan) => rt.fork(plan, 'no-such-run', 0)))).toBeInstanceOf(RangeError);
    clock.advance(120_000);
    await put(rt, REF, { id: 'k2', content: 'later' });
    await request(port, (plan) => rt.runs.update(plan, { runId: fork.runId, tenant: 'tenant-a', kind: 'fork' }, { ended: true }));
    await request(port, (plan) => void plan.add('run.remove', { runIds: [fork.runId] }));
    await request(port, (plan) => plan.add('journal.prune', { beforeMs: clock.now() - 60_000, limit: 100 }));
    const err = await thrown(() => request(port, (plan) => rt.fork(plan, run.runId, 0)));
    expect(err).toBeInstanceOf(ReplayMemorySnapshotUnavailableError);
    expect((err as ReplayMemorySnapshotUnavailableError).details).toMatchObject({ fromSeq: 0, sourceRunId: run.runId, reason: 'retention_expired' });
  });
  it('writes no run made are attributed to the tenant\'s background log, one per tenant', async () => {
    const { rt } = await openRuntime();
    await put(rt, REF, { content: 'x' });
    await put(rt, 'mem://tenant-b/y', { content: 'y' });
    expect((await eventsOf(rt, backgroundRunId('tenant-a'))).map((e) => [e.type, e.payload.memoryRef])).toEqual([['memory.written', REF]]);
    expect((await eventsOf(rt, backgroundRunId('tenant-b'))).map((e) => e.payload.memoryRef)).toEqual(['mem://tenant-b/y']);
    expect((await unitOfWork(rt.port, (tx) => rt.runs.row(tx, backgroundRunId('tenant-a'))))?.tenant).toBe('tenant-a');
  });
  it('live runs per tenant are bounded (429 runs); ended runs are kept up to their bound, the oldest retired with its log', async () => {
    const { rt, port, clock } = await openRuntime({ runBounds: { runsPerTenant: 2, endedRunsPerTenant: 2 } });
    const start = () => request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: REF }));
    const end = (runId: string) => request(port, (plan) => rt.runs.update(plan, { runId, tenant: 'tenant-a', kind: 'run' }, { status: 'completed', ended: true }));
    const [a, b] = [await start(), await start()];
    expect(await thrown(start)).toMatchObject({ code: 'quota_exceeded', resource: 'runs', limit: 2 });
    await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: 'mem://tenant-b/x' })); // another tenant is counted apart
    await end(a.runId);
    clock.advance(1);
    const c = await start();
    await end(b.runId);
    clock.advance(1);
    await end(c.runId); // a third ended run: the oldest ended one (a) is retired, its log with it
    expect(await unitOfWork(rt.port, (tx) => rt.runs.row(tx, a.runId))).toBeUndefined();
    expect(await unitOfWork(rt.port, (tx) => rt.log.has(tx, a.runId))).toBe(false);
    expect((await unitOfWork(rt.port, (tx) => rt.runs.row(tx, b.runId)))?.endedMs).toBeDefined();
    expect(await unitOfWork(rt.port, (tx) => rt.log.has(tx, c.runId))).toBe(true);
  });
});
