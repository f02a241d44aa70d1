/**
 * The reference implementation of HostRuntime: each operation reads what it needs from the store through the OpenWOP
 * or Inquirium runtime and plans its writes into the request's `tx` (the request boundary commits it once) — so
 * every write passes the SR-1 chokepoint and every read the tenant-gated reader. This is the only host module
 * (besides the test-only mutants) that touches the runtimes' parts directly.
 */
import { createInquiriumRuntime, type InquiriumRuntime } from '../inquirium/index.ts';
import type { OpenwopRuntime } from '../openwop/index.ts';
import { tenantOf } from '../memory/memory-ref.ts';
import { CORRUPT_REASON, unitOfWork, type StoreHealth, type Tx } from '../storage/index.ts';
import { QuotaExceededError } from '../shared/quota.ts';
import type { HostCore, MemoryReader, RunStart } from './host-runtime.ts';

/** Fixtures a test seam keeps per tenant unless configured otherwise (limits.ts `fixturesPerTenant`). */
export const DEFAULT_FIXTURES_PER_TENANT = 256;

/** Bounds on the state the host itself keeps for a tenant. */
export interface HostRuntimeBounds {
  readonly fixturesPerTenant?: number;
}

/** A second Inquirium runtime whose only candidate is remote: a local-only request must find no handler. */
function remoteOnlyInquirium(rt: OpenwopRuntime): InquiriumRuntime {
  return createInquiriumRuntime({
    port: rt.port,
    clock: rt.clock,
    runtimes: [{ adapter: { runtimeRef: 'runtime/remote-only', toolSurface: false, invoke: async () => { throw new Error('a remote runtime must never be invoked for a local-only request'); } },
      candidate: { 'runtime/ref': 'runtime/remote-only', 'model.binding/ref': 'model.binding/remote-only', transport_kind: 'http_remote', operations: ['generate'], health: { status: 'healthy' } } }],
  });
}

/** Most entries a fixture probe scans of one ref (fixtures are small by construction). */
const PROBE_SCAN = 10_000;

export function createHostRuntime(openwop: OpenwopRuntime, inquirium: InquiriumRuntime, bounds: HostRuntimeBounds = {}): HostCore {
  const rt = openwop;
  const remoteOnly = remoteOnlyInquirium(rt);
  const fixturesPerTenant = bounds.fixturesPerTenant ?? DEFAULT_FIXTURES_PER_TENANT;

  /** Entries stored under a ref as its own tenant's reader sees them, expired ones included (fixture probes). */
  const ownersEntries = (tx: Tx, memoryRef: string) => rt.readerFor(tx, tenantOf(memoryRef) ?? '').sources(memoryRef, { atMs: Number.MIN_SAFE_INTEGER, limit: PROBE_SCAN });

  const startFixtureRun = async (tx: Tx, r: RunStart) => {
    const run = rt.startRun(tx, { ...r, kind: 'fixture', fixtureRef: r.memoryRef });
    tx.add('fixture.add', { tenant: run.tenant, memoryRef: r.memoryRef, createdMs: rt.clock.now(), limit: fixturesPerTenant, runBounds: rt.runs.bounded });
    return run;
  };

  /**
   * The store's health; when a write failed for want of space, one probe write at a time asks again. The probe is
   * its own unit of work (readiness serves no request's data: test/architecture/unit-of-work.test.ts lists it).
   */
  let probing: Promise<unknown> | undefined;
  const probe = async (): Promise<StoreHealth> => {
    const now = rt.port.health();
    if (now.writable || now.reason === CORRUPT_REASON) return now;
    probing ??= unitOfWork(rt.port, (tx) => void tx.add('meta.set', { key: 'probe', value: String(rt.clock.now()) })).catch(() => undefined).finally(() => { probing = undefined; });
    await probing;
    return rt.port.health();
  };

  return {
    discovery: async () => rt.discovery(),
    now: () => rt.clock.now(),
    health: () => probe(),

    startRun: async (tx, r) => rt.startRun(tx, r),
    startFixtureRun,
    run: (tx, runId) => rt.runs.get(tx, runId),
    runTenant: (tx, runId) => rt.runs.tenantOf(tx, runId),
    events: async (tx, runId, fromSeq = 0, limit) => ((await rt.log.has(tx, runId)) ? rt.log.read(tx, runId, fromSeq, limit) : undefined),
    lastSequence: async (tx, runId) => ((await rt.runs.row(tx, runId))?.nextSeq ?? 0) - 1,
    dropEventLog: async (tx, runId) => void tx.add('run.dropEvents', { runId }),
    fork: (tx, sourceRunId, fromSeq, mode) => rt.fork(tx, sourceRunId, fromSeq, mode),
    runWorkflow: (tx, definition, memoryRef) => rt.workflows.start(tx, definition, memoryRef),
    resumeWorkflow: (tx, runId, nodeId, value) => rt.workflows.resume(tx, runId, nodeId, value),
    workflowState: (tx, runId) => rt.workflows.state(tx, runId),
    // A run and its memory, both read through the request's unit (a run gone since reads as nothing: a reader of no
    // tenant).
    runMemory: async (tx, runId) => {
      const run = await rt.runs.get(tx, runId);
      return run === undefined ? undefined : { run, memory: (await rt.memoryOfRun(tx, runId)) ?? rt.adapterFor(tx, '') };
    },
    endRun: async (tx, runId) => void tx.add('secrets.end', { runId }),

    memoryFor: (tx, tenant) => rt.adapterFor(tx, tenant),
    write: async (tx, memoryRef, entry, as) => (await rt.writer.put(tx, memoryRef, entry, as)).stored,
    seedMemory: async (tx, seed) => {
      // A run the seed names lives on (bounded per tenant, dropped when idle); secrets of a seed that names no run
      // apply to its own writes only, and nothing of them is stored.
      const scope = await rt.secretsOf(tx, seed.tenant);
      if (seed.runId !== undefined) scope.claimRun(seed.runId);
      for (const { secretId, value } of seed.secrets ?? []) {
        if (seed.runId !== undefined) await scope.register(seed.runId, secretId, value, 'run');
        else await scope.registerForRequest(secretId, value, 'run');
      }
      const as = seed.runId === undefined ? { tenant: seed.tenant } : { tenant: seed.tenant, runId: seed.runId };
      const written = [];
      for (const e of seed.entries) written.push((await rt.writer.put(tx, seed.memoryRef, e, as)).stored);
      return { ...(seed.runId !== undefined ? { runId: seed.runId } : {}), entries: written };
    },
    resolveSecret: async (tx, runId, tenant, { secretId, value, scope }) => {
      // Resolved and registered in the run, as the BYOK resolver does, without parking the plaintext in a vault
      // that would outlive the run.
      const secrets = await rt.secretsOf(tx, tenant);
      secrets.claimRun(runId);
      await secrets.register(runId, secretId, value, scope);
      return value;
    },
    plantSecret: async (tx, memoryRef, { runId, tenant, secretId, value, content }) => {
      const secrets = await rt.secretsOf(tx, tenant);
      secrets.claimRun(runId);
      await secrets.register(runId, secretId, value, 'run');
      await rt.writer.put(tx, memoryRef, { content }, { runId, tenant });
    },
    storedCount: async (tx, memoryRef) => {
      const tenant = tenantOf(memoryRef);
      return tenant === undefined ? 0 : tx.read.quotaCount({ tenant, resource: 'memory-entries', scope: memoryRef });
    },
    persistedContains: async (tx, memoryRef, needle) => (await ownersEntries(tx, memoryRef)).some((e) => e.content.includes(needle)),
    consolidate: async (tx, memoryRef, tenant) => {
      const result = await rt.consolidation.consolidate(tx, memoryRef, { trigger: 'on-demand', tenantId: tenant });
      return { event: result.payload, eventId: result.eventId, runId: result.runId };
    },
    compact: (tx, memoryRef, tenant, sourceIds) => rt.compactor.compact(tx, memoryRef, { trigger: 'client-requested', context: { tenant }, ...(sourceIds !== undefined ? { sourceIds: [...sourceIds] } : {}) }),
    distill: (tx, memoryRef, tenant, tokenBudget, sourceIds) => rt.distiller.distill(tx, memoryRef, { context: { tenant }, ...(tokenBudget !== undefined ? { tokenBudget } : {}), ...(sourceIds !== undefined ? { sourceIds } : {}) }),

    schedulesWired: () => rt.distillationScheduler !== undefined,
    scheduleDistillation: async (tx, req) => rt.distillationScheduler!.schedule(tx, req),
    schedule: async (tx, scheduleId) => {
      const s = await rt.distillationScheduler?.get(tx, scheduleId);
      if (s === undefined) return undefined;
      const last = await rt.distillationScheduler!.lastOutcome(tx, scheduleId);
      return { schedule: s, ...(last !== undefined ? { last } : {}) };
    },
    tickSchedules: async (tenant) => (await rt.distillationScheduler?.tick({ tenant })) ?? [],

    armCommitments: async (tx, memoryRef, entry) => rt.commitments.inferFrom(tx, memoryRef, entry).map((c) => c.commitmentId),
    satisfyPredicate: async (tx, tenant, predicateId) => rt.commitments.setPredicate(tx, tenant, predicateId, true),
    evaluateCommitments: async () => (await rt.commitments.tick()).map((o) => o.payload),
    commitmentFires: (tx, tenant, commitmentId) => rt.commitments.fires(tx, tenant, commitmentId),
    checkFollowUpRoom: async (tx, tenant) => {
      const limit = rt.runs.bounds.followUpRunsPerTenant;
      if ((await tx.read.quotaCount({ tenant, resource: 'follow-up-runs' })) >= limit) throw new QuotaExceededError('follow-up-runs', limit);
    },

    agentInventory: (tx, tenant) => rt.agentInventory(tx, tenant),
    proposalTenant: (tx, proposalId) => rt.proposals.tenantOf(tx, proposalId),
    synthesizeProposal: (tx, request) => rt.proposals.synthesize(tx, request),
    listProposals: (tx, tenant, filter) => rt.proposals.list(tx, tenant, filter),
    proposal: (tx, actor, id) => rt.proposals.get(tx, actor, id),
    reviseProposal: (tx, actor, id, patch) => rt.proposals.revise(tx, actor, id, patch),
    rejectProposal: (tx, actor, id) => rt.proposals.reject(tx, actor, id),
    archiveProposal: (tx, actor, id) => rt.proposals.archive(tx, actor, id),
    applyProposal: (tx, actor, id) => rt.proposals.apply(tx, actor, id),
    decideProposalGate: (tx, { approvalId, decision, reason }, decidedBy) => rt.proposals.decide(tx, approvalId, decision, { decidedBy, ...(reason !== undefined ? { reason } : {}) }),
    installedArtifact: (tx, actor, id) => rt.proposals.installed(tx, actor, id),

    escalationFloor: () => rt.escalationPolicy.floor,
    // The step's events are planned into the request's unit; a step that stops at its interrupt keeps what it
    // recorded until then because the routes and the fixture runner that call it commit on a throw (commitOnThrow).
    supervisorStep: async (tx, runId, decision, resolve = async () => ({ outcome: 'approved' })) => void (await rt.orchestratorStep(tx, runId, decision, resolve)),
    continueStep: async (tx, runId, interruptId, resolution) => void (await rt.continueStep(tx, runId, interruptId, resolution)),
    childWrite: async (parent, childRunId, write) => (await rt.childWrite(parent, childRunId, write)).entry,
    parentReads: (tx, parentRunId, memoryRef) => rt.subRuns.readForParent(tx, parentRunId, memoryRef),

    generate: (tx, request, ctx) => inquirium.generateIn(tx, request, ctx),
    generateRemoteOnly: (tx, request, ctx) => remoteOnly.generateIn(tx, request, ctx),
    proposeQuestion: (tx, request, tenant) => inquirium.questions.forTenant(tenant).propose(tx, request),
    answerQuestion: (tx, answer, { tenant, participant }) => inquirium.questions.forTenant(tenant).answer(tx, answer, { participant }),
    questionState: (tx, ref, tenant) => inquirium.questions.forTenant(tenant).state(tx, ref),
    cancelQuestion: (tx, ref, tenant) => inquirium.questions.forTenant(tenant).cancel(tx, ref),
    traces: (tx, traceRef) => (traceRef === undefined ? inquirium.traceStream.recent(tx) : inquirium.traceStream.byTrace(traceRef, tx)),
  };
}
