/**
 * The fixture runner (runtime/openwop/fixtures/): fixtures exist only once seeded (idempotently), each memory probe
 * witnesses both halves of its rule and fails typed when the host breaks it, and the escalation fixture waits on its
 * interrupt — nothing dispatched — until it is resolved.
 */
import { describe, expect, it } from 'vitest';
import { createInquiriumRuntime } from '../../../runtime/inquirium/index.ts';
import { createHostRuntime } from '../../../runtime/host/reference-runtime.ts';
import { withWorkflowRuns } from '../../../runtime/host/workflow-runs.ts';
import { withMutations, type HostMutations } from '../../../runtime/host/mutants.ts';
import { CONFORMANCE_FIXTURE_IDS } from '../../../runtime/openwop/fixtures/table.ts';
import { InterruptAlreadyResolvedError, InterruptNotFoundError, UnknownWorkflowError } from '../../../runtime/openwop/fixtures/runner.ts';

import { openRuntime } from '../support.ts';
import { unitsOf } from '../../../runtime/storage/index.ts';

/** The reference host runtime (with the test-only mutants asked for) over a fresh store; seeded unless told not to be. */
async function host(mutations: HostMutations = {}, seed = true) {
  const { rt, port, clock } = await openRuntime();
  const h = withWorkflowRuns(withMutations(createHostRuntime(rt, createInquiriumRuntime({ port, clock })), rt, mutations), rt);
  if (seed) await h.seedFixtures();
  return Object.assign(h, { port });
}

describe('fixture runner', () => {
  it('advertises and runs nothing until seeded; seeding twice changes nothing', async () => {
    const h = await host({}, false);
    expect(await h.fixtureIds()).toEqual([]);
    expect(await h.discovery()).not.toHaveProperty('fixtures');
    await expect(h.startWorkflow('conformance-agent-memory-roundtrip', 'acme')).rejects.toBeInstanceOf(UnknownWorkflowError);
    expect(await h.seedFixtures()).toEqual(CONFORMANCE_FIXTURE_IDS);
    expect(await h.seedFixtures()).toEqual(CONFORMANCE_FIXTURE_IDS);
    expect((await h.discovery())['fixtures']).toEqual(CONFORMANCE_FIXTURE_IDS);
    // seeded once for every host on the store: another runtime over it sees the fixtures too
    const { rt: other } = await openRuntime({ port: h.port });
    expect(await withWorkflowRuns(createHostRuntime(other, createInquiriumRuntime({ port: h.port })), other).fixtureIds()).toEqual(CONFORMANCE_FIXTURE_IDS);
    await expect(h.startWorkflow('not-a-fixture', 'acme')).rejects.toBeInstanceOf(UnknownWorkflowError);
  });

  it('memory probes complete with their variables on a sound host; a run\'s outcome is kept in the store', async () => {
    const h = await host();
    const rt = await h.startWorkflow('conformance-agent-memory-roundtrip', 'acme');
    expect(rt.status).toBe('completed');
    expect(rt.variables['memoryReadback']).toMatchObject({ tags: ['conformance', 'memory-roundtrip'] });
    const sr1 = await h.startWorkflow('conformance-agent-memory-redaction', 'acme');
    expect(sr1.status).toBe('completed');
    expect(String((sr1.variables['memoryReadback'] as { content: string }).content)).toMatch(/\[REDACTED:conformance-byok-[^\]]+\]/);
    const ttl = await h.startWorkflow('conformance-agent-memory-ttl', 'acme');
    expect((ttl.variables['memoryList'] as { id: string }[]).map((e) => e.id)).toEqual([ttl.variables['freshId']]);
    const cti = await h.startWorkflow('conformance-agent-memory-cross-tenant', 'cti1-foreign');
    expect(cti.status).toBe('completed');
    expect(cti.variables['crossTenantProbe']).toEqual([]);
    expect(await h.workflowRun(cti.runId)).toEqual(cti);
  });

  it.each([
    ['writeAroundRedaction', 'conformance-agent-memory-redaction', 'sr1_redaction_failed'],
    ['ignoreTtl', 'conformance-agent-memory-ttl', 'ttl_expired_entry_surfaced'],
    ['crossTenantRead', 'conformance-agent-memory-cross-tenant', 'cti1_cross_tenant_leak'],
  ] as const)('a host broken by %s fails %s typed (%s)', async (mutation, fixture, code) => {
    const run = await (await host({ [mutation]: true })).startWorkflow(fixture, 'acme');
    expect(run.status).toBe('failed');
    expect(run.error?.code).toBe(code);
  });

  it('the escalation fixture waits on its interrupt, dispatching nothing, until it is resolved', async () => {
    const h = await host();
    const run = await h.startWorkflow('conformance-multi-agent-confidence-escalation', 'acme');
    expect(run.status).toBe('waiting-clarification');
    const events = async () => (await unitsOf(h.port)((tx) => h.events(tx, run.runId)))!;
    const types = async () => (await events()).events.map((e) => e.type);
    expect(await types()).not.toContain('worker.dispatched');
    const { events: logged } = await events();
    const escalated = logged.find((e) => e.type === 'core.workflowChain.confidence-escalated')!;
    expect(logged.find((e) => e.eventId === escalated.causationId)?.type).toBe('runOrchestrator.decided');
    expect(logged.find((e) => e.type === 'interrupt.requested')?.causationId).toBe(escalated.eventId);
    expect((await h.workflowRun(run.runId))?.status).toBe('waiting-clarification');
    const interruptId = (await h.workflowRun(run.runId))!.interrupt!.interruptId;
    await expect(h.resolveInterrupt(run.runId, 'int_not_this_one', { action: 'approve' })).rejects.toBeInstanceOf(InterruptNotFoundError);
    // two answers at once: exactly one is applied, whichever commits first; the other is refused
    const answers = await Promise.allSettled([h.resolveInterrupt(run.runId, interruptId, { action: 'approve' }), h.resolveInterrupt(run.runId, interruptId, { action: 'approve' })]);
    const applied = answers.filter((a) => a.status === 'fulfilled');
    const refused = answers.filter((a) => a.status === 'rejected');
    expect(applied.map((a) => a.value.status)).toEqual(['completed']);
    expect(refused).toHaveLength(1);
    // the loser passed the log's check too and was refused by the claim its transaction took: the same refusal
    expect(refused[0]!.reason).toMatchObject({ code: 'interrupt_already_resolved', status: 409 });
    expect((refused[0]!.reason as InterruptAlreadyResolvedError).toWire()).toEqual(new InterruptAlreadyResolvedError().toWire());
    expect((await types()).slice(-2)).toEqual(['interrupt.resolved', 'worker.dispatched']);
    expect((await types()).filter((t) => t === 'interrupt.resolved')).toHaveLength(1);
    expect((await h.workflowRun(run.runId))?.status).toBe('completed');
    await expect(h.resolveInterrupt('run_unknown', interruptId, { action: 'approve' })).rejects.toBeInstanceOf(InterruptNotFoundError);
  });
});
