/**
 * The reference implementation of HostRuntime: each operation reads what it needs from the store through the OpenWOP
 * or Inquirium runtime, plans its writes into one Tx and commits it once — so every write passes the SR-1
 * chokepoint, every read the tenant-gated reader, and every request is one transaction. This is the only host module
 * (besides the test-only mutants) that touches the runtimes' parts directly.
 */
import { createInquiriumRuntime, type InquiriumRuntime } from '../inquirium/index.ts';
import type { OpenwopRuntime } from '../openwop/index.ts';
import { tenantOf } from '../memory/memory-ref.ts';
import { CORRUPT_REASON, unitOfWork, type StoragePort, type StoreHealth, type Tx } from '../storage/index.ts';
import { QuotaExceededError } from '../shared/quota.ts';
import type { TenantMemoryAdapter } from '../memory/adapter.ts';
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

/**
 * A memory read interface each of whose reads is one request — its own unit of work on `port` — over the adapter
 * `open` makes within it (the adapter reads through that unit's `tx`, and lives no longer than it).
 */
export function requestReader(port: StoragePort, open: (tx: Tx) => Promise<TenantMemoryAdapter> | TenantMemoryAdapter): MemoryReader {
  return {
    list: (memoryRef, options) => unitOfWork(port, async (tx) => (await open(tx)).list(memoryRef, options)),
    get: (memoryRef, id) => unitOfWork(port, async (tx) => (await open(tx)).get(memoryRef, id)),
    page: (memoryRef, options) => unitOfWork(port, async (tx) => (await open(tx)).page(memoryRef, options)),
  };
}

export function createHostRuntime(openwop: OpenwopRuntime, inquirium: InquiriumRuntime, bounds: HostRuntimeBounds = {}): HostCore {
  const rt = openwop;
  const remoteOnly = remoteOnlyInquirium(rt);
  const fixturesPerTenant = bounds.fixturesPerTenant ?? DEFAULT_FIXTURES_PER_TENANT;

  /** One request, one unit of work: its reads through `tx`, its writes committed once when it returns. */
  const request = <T>(f: (tx: Tx) => Promise<T> | T): Promise<T> => unitOfWork(rt.port, f);

  /** Entries stored under a ref as its own tenant's reader sees them, expired ones included (fixture probes). */
  const ownersEntries = (memoryRef: string) => request((tx) => rt.readerFor(tx, tenantOf(memoryRef) ?? '').sources(memoryRef, { atMs: Number.MIN_SAFE_INTEGER, limit: PROBE_SCAN }));

  const startFixtureRun = (r: RunStart) => request(async (tx) => {
    const run = rt.startRun(tx, { ...r, kind: 'fixture', fixtureRef: r.memoryRef });
    tx.add('fixture.add', { tenant: run.tenant, memoryRef: r.memoryRef, createdMs: rt.clock.now(), limit: fixturesPerTenant, runBounds: rt.runs.bounded });
    return run;
  });

  /** The store's health; when a write failed for want of space, one probe write at a time asks again. */
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

    startRun: (r) => request((tx) => rt.startRun(tx, r)),
    startFixtureRun,
    run: (runId) => request((tx) => rt.runs.get(tx, runId)),
    runTenant: (runId) => request((tx) => rt.runs.tenantOf(tx, runId)),
    events: (runId, fromSeq = 0, limit) => request(async (tx) => ((await rt.log.has(tx, runId)) ? rt.log.read(tx, runId, fromSeq, limit) : undefined)),
    lastSequence: async (runId) => ((await request((tx) => rt.runs.row(tx, runId)))?.nextSeq ?? 0) - 1,
    dropEventLog: (runId) => request((tx) => void tx.add('run.dropEvents', { runId })),
    fork: (sourceRunId, fromSeq, mode) => request((tx) => rt.fork(tx, sourceRunId, fromSeq, mode)),
    runWorkflow: (definition, memoryRef) => request((tx) => rt.workflows.start(tx, definition, memoryRef)),
    resumeWorkflow: (runId, nodeId, value) => request((tx) => rt.workflows.resume(tx, runId, nodeId, value)),
    workflowState: (runId) => request((tx) => rt.workflows.state(tx, runId)),
    // A run and its memory, read in one unit; the memory's reads each a request over the run as it stands then (a
    // run gone since reads as nothing: a reader of no tenant).
    runMemory: (runId) => request(async (tx) => {
      const run = await rt.runs.get(tx, runId);
      return run === undefined ? undefined : { run, memory: requestReader(rt.port, async (tx2) => (await rt.memoryOfRun(tx2, runId)) ?? rt.adapterFor(tx2, '')) };
    }),
    endRun: (runId) => request((tx) => void tx.add('secrets.end', { runId })),

    memoryFor: (tenant) => requestReader(rt.port, (tx) => rt.adapterFor(tx, tenant)),
    write: (memoryRef, entry, as) => request(async (tx) => (await rt.writer.put(tx, memoryRef, entry, as)).stored).then((stored) => stored.value),
    seedMemory: (seed) => request(async (tx) => {
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
      return written;
    }).then((written) => ({ ...(seed.runId !== undefined ? { runId: seed.runId } : {}), entries: written.map((w) => w.value) })),
    resolveSecret: (runId, tenant, { secretId, value, scope }) => request(async (tx) => {
      // Resolved and registered in the run, as the BYOK resolver does, without parking the plaintext in a vault
      // that would outlive the run.
      const secrets = await rt.secretsOf(tx, tenant);
      secrets.claimRun(runId);
      await secrets.register(runId, secretId, value, scope);
      return value;
    }),
    plantSecret: (memoryRef, { runId, tenant, secretId, value, content }) => request(async (tx) => {
      const secrets = await rt.secretsOf(tx, tenant);
      secrets.claimRun(runId);
      await secrets.register(runId, secretId, value, 'run');
      await rt.writer.put(tx, memoryRef, { content }, { runId, tenant });
    }),
    storedCount: async (memoryRef) => {
      const tenant = tenantOf(memoryRef);
      return tenant === undefined ? 0 : request((tx) => tx.read.quotaCount({ tenant, resource: 'memory-entries', scope: memoryRef }));
    },
    persistedContains: async (memoryRef, needle) => (await ownersEntries(memoryRef)).some((e) => e.content.includes(needle)),
    consolidate: (memoryRef, tenant) => request(async (tx) => {
      const result = await rt.consolidation.consolidate(tx, memoryRef, { trigger: 'on-demand', tenantId: tenant });
      return { event: result.payload, eventId: result.eventId, runId: result.runId };
    }),
    compact: (memoryRef, tenant, sourceIds) => request((tx) => rt.compactor.compact(tx, memoryRef, { trigger: 'client-requested', context: { tenant }, ...(sourceIds !== undefined ? { sourceIds: [...sourceIds] } : {}) })),
    distill: (memoryRef, tenant, tokenBudget, sourceIds) => request((tx) => rt.distiller.distill(tx, memoryRef, { context: { tenant }, ...(tokenBudget !== undefined ? { tokenBudget } : {}), ...(sourceIds !== undefined ? { sourceIds } : {}) })),

    schedulesWired: () => rt.distillationScheduler !== undefined,
    scheduleDistillation: (req) => request((tx) => rt.distillationScheduler!.schedule(tx, req)),
    schedule: (scheduleId) => request(async (tx) => {
      const s = await rt.distillationScheduler?.get(tx, scheduleId);
      if (s === undefined) return undefined;
      const last = await rt.distillationScheduler!.lastOutcome(tx, scheduleId);
      return { schedule: s, ...(last !== undefined ? { last } : {}) };
    }),
    tickSchedules: async (tenant) => (await rt.distillationScheduler?.tick({ tenant })) ?? [],

    armCommitments: (memoryRef, entry) => request((tx) => rt.commitments.inferFrom(tx, memoryRef, entry).map((c) => c.commitmentId)),
    satisfyPredicate: (tenant, predicateId) => request((tx) => rt.commitments.setPredicate(tx, tenant, predicateId, true)),
    evaluateCommitments: async () => (await rt.commitments.tick()).map((o) => o.payload),
    commitmentFires: (tenant, commitmentId) => request((tx) => rt.commitments.fires(tx, tenant, commitmentId)),
    checkFollowUpRoom: async (tenant) => {
      const limit = rt.runs.bounds.followUpRunsPerTenant;
      if ((await request((tx) => tx.read.quotaCount({ tenant, resource: 'follow-up-runs' }))) >= limit) throw new QuotaExceededError('follow-up-runs', limit);
    },

    agentInventory: (tenant) => request((tx) => rt.agentInventory(tx, tenant)),
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
      // The step's events commit together; a step that stops at its interrupt commits what it recorded until then.
      await unitOfWork(rt.port, (tx) => rt.orchestratorStep(tx, runId, decision, resolve), { commitOnThrow: true });
    },
    continueStep: (runId, interruptId, resolution) => request(async (tx) => void (await rt.continueStep(tx, runId, interruptId, resolution))),
    childWrite: async (parent, childRunId, write) => (await rt.childWrite(parent, childRunId, write)).entry,
    parentReads: (parentRunId, memoryRef) => rt.subRuns.readForParent(parentRunId, memoryRef),

    generate: (request, ctx) => inquirium.generate(request, ctx),
    generateRemoteOnly: (request, ctx) => remoteOnly.generate(request, ctx),
    proposeQuestion: (request, tenant) => inquirium.questions.forTenant(tenant).propose(request),
    answerQuestion: (answer, { tenant, participant }) => inquirium.questions.forTenant(tenant).answer(answer, { participant }),
    questionState: (ref, tenant) => inquirium.questions.forTenant(tenant).state(ref),
    cancelQuestion: (ref, tenant) => inquirium.questions.forTenant(tenant).cancel(ref),
    traces: (traceRef) => (traceRef === undefined ? inquirium.traces.recent() : inquirium.traces.byTrace(traceRef)),
  };
}
