/**
 * The reference implementation of HostRuntime: each operation delegates to the OpenWOP or Inquirium runtime, so
 * every write passes the SR-1 chokepoint and every read the tenant-gated adapter. This is the only host module
 * (besides the test-only mutants) that touches the runtimes' parts directly.
 */
import { createInquiriumRuntime, type InquiriumRuntime } from '../inquirium/index.ts';
import type { OpenwopRuntime } from '../openwop/index.ts';
import { tenantOf } from '../memory/memory-ref.ts';
import type { ForkMemoryView } from '../multi-agent/replay-snapshots.ts';
import { TenantBound } from '../shared/quota.ts';
import type { ConsolidationPass, HostCore } from './host-runtime.ts';

/** Fixtures a test seam keeps per tenant unless configured otherwise (limits.ts `fixturesPerTenant`). */
export const DEFAULT_FIXTURES_PER_TENANT = 256;

/** Bounds on the state the host itself keeps for a tenant. */
export interface HostRuntimeBounds {
  readonly fixturesPerTenant?: number;
}

/** Where the last consolidation event was appended, for a seam that points at the durable copy. */
export function durablePointer(openwop: OpenwopRuntime): Omit<ConsolidationPass, 'event'> {
  const ev = openwop.lastConsolidationEvent();
  return ev !== undefined ? { eventId: ev.eventId, runId: ev.runId } : {};
}

/** A second Inquirium runtime whose only candidate is remote: a local-only request must find no handler. */
function remoteOnlyInquirium(): InquiriumRuntime {
  return createInquiriumRuntime({
    runtimes: [{ adapter: { runtimeRef: 'runtime/remote-only', toolSurface: false, invoke: async () => { throw new Error('a remote runtime must never be invoked for a local-only request'); } },
      candidate: { 'runtime/ref': 'runtime/remote-only', 'model.binding/ref': 'model.binding/remote-only', transport_kind: 'http_remote', operations: ['generate'], health: { status: 'healthy' } } }],
  });
}

/**
 * `flush`: the durability barrier of the store the runtimes write through (runtime/openwop/durable.ts); a host
 * without a store passes none and every flush resolves at once.
 */
export function createHostRuntime(openwop: OpenwopRuntime, inquirium: InquiriumRuntime, bounds: HostRuntimeBounds = {}, flush: () => Promise<void> = async () => {}): HostCore {
  const rt = openwop;
  const remoteOnly = remoteOnlyInquirium();
  /** Fork run id → the snapshot view it reads. */
  const forks = new Map<string, ForkMemoryView>();
  /** Raw entries of a ref as its own tenant's reader holds them (fixture probes; a malformed ref holds nothing). */
  const ownersEntries = (memoryRef: string) => rt.store.readerFor(tenantOf(memoryRef) ?? '').entries(memoryRef);

  // Fixture state: each fixture is the memoryRef a seam minted and the runs it started there, kept per tenant
  // oldest first; past the bound the oldest is retired (evicted, not refused: a fixture is disposable test state,
  // and refusing would lock a long-running host out of its own conformance suite).
  const fixtureRuns = new Map<string, string[]>();
  const fixtures = new TenantBound<string>('fixtures', bounds.fixturesPerTenant ?? DEFAULT_FIXTURES_PER_TENANT, 'evict-oldest');
  const retireFixture = (memoryRef: string): void => {
    const runIds = fixtureRuns.get(memoryRef) ?? [];
    fixtureRuns.delete(memoryRef);
    // Deleted through the writer (tenant-checked) and attributed to the fixture's own run, whose log is dropped next.
    const tenant = tenantOf(memoryRef) ?? '';
    rt.asRun(runIds[0], () => { for (const e of ownersEntries(memoryRef)) rt.writer.delete(memoryRef, e.id, { tenant }); });
    for (const runId of runIds) {
      rt.registries.endRun(runId);
      rt.log.drop(runId);
      rt.journal.dropRun(runId);
      rt.runs.remove(runId);
    }
  };

  return {
    discovery: () => rt.discovery(),
    now: () => rt.clock.now(),
    flush,

    startRun: (r) => rt.startRun(r),
    startFixtureRun(r) {
      const run = rt.startRun(r);
      const runs = fixtureRuns.get(r.memoryRef);
      if (runs !== undefined) runs.push(run.runId);
      else {
        fixtureRuns.set(r.memoryRef, [run.runId]);
        for (const old of fixtures.add(run.tenant, r.memoryRef)) retireFixture(old);
      }
      return run;
    },
    run: (runId) => rt.runs.get(runId),
    hasEventLog: (runId) => rt.log.has(runId),
    events: (runId, fromSeq = 0) => rt.log.read(runId, fromSeq),
    lastSequence: (runId) => rt.log.lastSequence(runId),
    dropEventLog: (runId) => rt.journal.dropRun(runId),
    fork(sourceRunId, fromSeq) {
      const { run, view } = rt.fork(sourceRunId, fromSeq);
      forks.set(run.runId, view);
      return run;
    },
    runMemory: (run) => forks.get(run.runId) ?? rt.adapterFor(run.tenant),
    claimRun(runId, tenant) {
      const started = rt.runs.get(runId);
      if (started !== undefined && started.tenant !== tenant) return false;
      const owner = rt.registries.tenantOf(runId);
      if (owner !== undefined && owner !== tenant) return false;
      rt.registries.forRun(runId, tenant); // past the tenant's bound of live registries: 429, nothing written
      return true;
    },
    endRun: (runId) => rt.registries.endRun(runId),

    memoryFor: (tenant) => rt.adapterFor(tenant),
    write: (memoryRef, entry, as) => rt.asRun(as.runId, () => rt.writer.put(memoryRef, entry, as)),
    resolveSecret(runId, tenant, { secretId, value, scope }) {
      // Resolved and registered in the run, as the BYOK resolver does, without parking the plaintext in a
      // process-wide vault that would outlive the run.
      rt.registries.forRun(runId, tenant).register(secretId, value, scope);
      return value;
    },
    plantSecret(memoryRef, { runId, tenant, secretId, value, content }) {
      rt.registries.forRun(runId, tenant).register(secretId, value, 'run');
      rt.writer.put(memoryRef, { content }, { runId, tenant });
    },
    storedCount: (memoryRef) => ownersEntries(memoryRef).length,
    persistedContains: (memoryRef, needle) => ownersEntries(memoryRef).some((e) => e.content.includes(needle)),
    async consolidate(memoryRef, tenant) {
      const result = await rt.consolidation.consolidate(memoryRef, { trigger: 'on-demand', tenantId: tenant });
      return { event: result.payload, ...durablePointer(rt) };
    },
    compact: (memoryRef, tenant, sourceIds) => rt.compactor.compact(memoryRef, { trigger: 'client-requested', context: { tenant }, ...(sourceIds !== undefined ? { sourceIds: [...sourceIds] } : {}) }),
    distill: (memoryRef, tenant, tokenBudget, sourceIds) => rt.distiller.distill(memoryRef, { context: { tenant }, ...(tokenBudget !== undefined ? { tokenBudget } : {}), ...(sourceIds !== undefined ? { sourceIds } : {}) }),
    distillationScheduler: () => rt.distillationScheduler,

    armCommitments: (memoryRef, entry) => rt.commitments.inferFrom(memoryRef, entry).map((c) => c.commitmentId),
    satisfyPredicate: (tenant, predicateId) => rt.predicates.set(tenant, predicateId, true),
    evaluateCommitments: async () => (await rt.commitments.tick()).map((o) => o.payload),

    agentInventory: (tenant) => rt.agentInventory(tenant),
    proposalTenant: (proposalId) => rt.proposals.tenantOf(proposalId),
    synthesizeProposal: (request) => rt.proposals.synthesize(request),
    listProposals: (tenant, filter) => rt.proposals.list(tenant, filter),
    proposal: (actor, id) => rt.proposals.get(actor, id),
    reviseProposal: (actor, id, patch) => rt.proposals.revise(actor, id, patch),
    rejectProposal: (actor, id) => rt.proposals.reject(actor, id),
    archiveProposal: (actor, id) => rt.proposals.archive(actor, id),
    applyProposal: (actor, id) => rt.proposals.apply(actor, id),
    decideProposalGate: ({ approvalId, decision, reason }, decidedBy) => rt.proposals.decide(approvalId, decision, { decidedBy, ...(reason !== undefined ? { reason } : {}) }),
    installedArtifact: (actor, id) => rt.proposals.installed(actor, id),

    escalationFloor: () => rt.escalationPolicy.floor,
    async supervisorStep(runId, decision, resolve = async () => ({ outcome: 'approved' })) {
      await rt.orchestratorStep(runId, decision, resolve);
    },
    async continueStep(runId, interruptId, resolution) {
      await rt.continueStep(runId, interruptId, resolution);
    },
    childWrite: async (parent, childRunId, write) => (await rt.childWrite(parent, childRunId, write)).entry,
    parentReads: (parentRunId, memoryRef) => rt.subRuns.readForParent(parentRunId, memoryRef),

    generate: (request, ctx) => inquirium.generate(request, ctx),
    generateRemoteOnly: (request, ctx) => remoteOnly.generate(request, ctx),
    proposeQuestion: (request, tenant) => inquirium.questions.forTenant(tenant).propose(request),
    answerQuestion: (answer, { tenant, participant }) => inquirium.questions.forTenant(tenant).answer(answer, { participant }),
    questionState: (ref, tenant) => inquirium.questions.forTenant(tenant).state(ref),
    cancelQuestion: (ref, tenant) => inquirium.questions.forTenant(tenant).cancel(ref),
    traces: (traceRef) => inquirium.traces.all().filter((t) => traceRef === undefined || t.body['trace/id'] === traceRef),
  };
}
