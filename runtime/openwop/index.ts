/**
 * The OpenWOP reference runtime, wired: one shared in-memory store behind tenant-gated adapters (CTI-1, TTL), the
 * SR-1 chokepoint on every write path, the validated run-event log, compaction, distillation, consolidation,
 * commitments, confidence escalation, sub-run memory and replay snapshots — and the discovery document built
 * from exactly what is wired here.
 *
 * Library first: the HTTP host (runtime/host/) is a thin layer over `createOpenwopRuntime()`.
 */
import type { ConsolidationSchedule, RunEvent } from '../../generated/ts/index.ts';
import { CapabilityRegistry } from '../capabilities/registry.ts';
import { CommitmentEngine } from '../commitments/engine.ts';
import type { CommitmentPersistence } from '../commitments/persistence.ts';
import { Compactor, UnadvertisedCompactor } from '../compaction/compactor.ts';
import { ConsolidationService } from '../consolidation/service.ts';
import { Distiller, UnadvertisedDistiller } from '../distillation/distiller.ts';
import { DistillationScheduler, type SchedulePersistence } from '../distillation/schedule.ts';
import { Workspace } from '../distillation/index-manifest.ts';
import { RunEventLog } from '../events/log.ts';
import { TenantMemoryAdapter } from '../memory/adapter.ts';
import { memoryRef as buildRef, tenantOf } from '../memory/memory-ref.ts';
import { SharedMemoryStore } from '../memory/store.ts';
import { MemoryWriter } from '../memory/writer.ts';
import { memoryCapability } from '../memory/capability.ts';
import { ownedCapabilityFragment } from './capabilities.ts';
import {
  makeEscalationPolicy,
  orchestratorStep,
  continueAfterInterrupt,
  interruptInLog,
  InterruptAlreadyResolvedError,
  InterruptNotFoundError,
  type EscalationPolicy,
  type InterruptResolution,
  type OrchestratorDecisionLike,
  type OrchestratorStepResult,
  SPEC_STEP_PAYLOADS,
} from '../multi-agent/escalation.ts';
import { ReadSnapshotHolds } from '../memory/read-snapshots.ts';
import { MemoryJournal, type ForkMemoryView } from '../multi-agent/replay-snapshots.ts';
import { SubRunMemory, type CrossChildMemoryConcurrency } from '../multi-agent/sub-run-memory.ts';
import { writeRedactor } from '../redaction/chokepoint.ts';
import { SecretRegistries, SimulatedByokResolver, type SecretRegistryLimits } from '../redaction/secret-registry.ts';
import { randomIds, systemClock, type Clock, type IdSource } from '../shared/clock.ts';
import { WOPKIT_VERSION } from '../shared/version.ts';
import { PredicateBoard } from './predicates.ts';
import { ProposalService, type ProposalActivationPolicy } from '../proposals/service.ts';
import { InMemoryInstalledArtifacts, InMemoryProposalStore, type InstalledArtifacts, type ProposalStore } from '../proposals/store.ts';
import { redact } from '../redaction/chokepoint.ts';
import { agentInventory } from './agent-inventory.ts';
import { RunRegistry, type RunRecord } from './runs.ts';

export interface OpenwopRuntimeOptions {
  readonly clock?: Clock;
  readonly ids?: IdSource;
  readonly host?: { readonly name: string; readonly version: string };
  readonly maxEntrySizeBytes?: number;
  readonly maxTokenBudget?: number;
  readonly archiveRetention?: string;
  /** Journal retention for replay snapshots, in ms (default: keep everything). */
  readonly snapshotRetentionMs?: number;
  readonly confidenceEscalationFloor?: number;
  readonly crossChildMemoryConcurrency?: CrossChildMemoryConcurrency;
  readonly consolidationSchedule?: ConsolidationSchedule;
  /**
   * Advertise RFC 0012 compaction (default true). When false the discovery document carries no
   * memory.compaction block (and, since distillation composes compaction, no memory.distillation either).
   */
  readonly compaction?: boolean;
  /** Advertise RFC 0062 distillation (default true; requires compaction). */
  readonly distillation?: boolean;
  /** Run scheduled distillation ("dreams") and advertise `memory.distillation.scheduled` (default true; requires distillation). */
  readonly scheduledDistillation?: boolean;
  /** Distillation schedules one tenant may hold (default DEFAULT_MAX_SCHEDULES_PER_TENANT); one more is a 429. */
  readonly distillSchedulesPerTenant?: number;
  /** Lifetime and per-tenant bounds of SR-1 secret registries (defaults: DEFAULT_SECRET_REGISTRY_LIMITS). */
  readonly secretRegistries?: Partial<SecretRegistryLimits>;
  /** Write-through to a durable store (durable.ts `openwopDurability(port).persistence`); absent: memory only. */
  readonly persistence?: {
    readonly commitments?: CommitmentPersistence;
    readonly schedules?: SchedulePersistence;
    /** RFC 0096 proposal store and installed-artefact registry (default: in memory). */
    readonly proposals?: { readonly store: ProposalStore; readonly installed: InstalledArtifacts };
  };
  /** How applying an RFC 0096 proposal is authorised (default: an approval gate). */
  readonly proposalActivation?: ProposalActivationPolicy;
}

/** Pseudo-run whose log collects events of host background work that belongs to no run. */
export const BACKGROUND_RUN_ID = 'host-background';

export function createOpenwopRuntime(options: OpenwopRuntimeOptions = {}) {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const store = new SharedMemoryStore();
  const registries = new SecretRegistries({ clock, ...(options.secretRegistries !== undefined ? { limits: options.secretRegistries } : {}) });
  const byok = new SimulatedByokResolver(registries);
  const log = new RunEventLog(clock, ids);
  const runs = new RunRegistry();
  const holds = new ReadSnapshotHolds();
  const journal = new MemoryJournal({ clock, holds, ...(options.snapshotRetentionMs !== undefined ? { retentionMs: options.snapshotRetentionMs } : {}) });
  const workspace = new Workspace();
  const predicates = new PredicateBoard();

  // Every event appended marks a journal watermark, so a fork at seq N can find memory as of N.
  log.subscribe((e) => journal.markEvent(e.runId, e.sequence));
  // Every mutation lands in the journal and is attributed (memory.written, content-free).
  let currentRun: string | undefined;
  store.observe((ref, id, after) => {
    journal.record({ memoryRef: ref, memoryId: id, after, ...(currentRun !== undefined ? { runId: currentRun } : {}) });
    log.append(currentRun ?? BACKGROUND_RUN_ID, {
      type: 'memory.written',
      payload: { memoryRef: ref, memoryId: id, operation: after === null ? 'delete' : 'put', ...(after !== null ? { byteSize: Buffer.byteLength(after.content, 'utf8') } : {}) },
    });
  });
  /** Attribute the writes made inside `fn` to `runId`. */
  const asRun = <T>(runId: string | undefined, fn: () => T): T => {
    const prev = currentRun;
    currentRun = runId;
    try {
      return fn();
    } finally {
      currentRun = prev;
    }
  };

  const emit = log.emit;
  const writer = new MemoryWriter({ store, clock, ids, redact: writeRedactor(registries), ...(options.maxEntrySizeBytes !== undefined ? { maxEntrySizeBytes: options.maxEntrySizeBytes } : {}) });
  const compactionWired = options.compaction !== false;
  const distillationWired = compactionWired && options.distillation !== false;
  const compactorOptions = { store, writer, clock, ids, emit, trigger: 'both', maxOutputBytes: writer.maxEntrySizeBytes } as const;
  const compactor: Compactor = compactionWired ? new Compactor(compactorOptions) : new UnadvertisedCompactor(compactorOptions);
  const maxTokenBudget = options.maxTokenBudget ?? 4096;
  const archiveRetention = options.archiveRetention ?? 'P30D';
  const schedulingWired = distillationWired && options.scheduledDistillation !== false;
  const distillerOptions = { store, writer, compactor, workspace, clock, ids, emit, maxTokenBudget, indexEmitted: true, archiveRetention, scheduled: schedulingWired } as const;
  const distiller: Distiller = distillationWired ? new Distiller(distillerOptions) : new UnadvertisedDistiller(distillerOptions);
  /** Present only when scheduled distillation is wired (and therefore advertised). */
  const distillationScheduler = schedulingWired ? new DistillationScheduler({ clock, distiller, tenantOf, newId: () => ids.next('dsch'), ...(options.distillSchedulesPerTenant !== undefined ? { maxPerTenant: options.distillSchedulesPerTenant } : {}), ...(options.persistence?.schedules !== undefined ? { persistence: options.persistence.schedules } : {}) }) : undefined;

  const consolidation = new ConsolidationService({
    clock,
    store,
    tenantOf,
    holds,
    redact: (content, { memoryRef }) => writer.redactFor(memoryRef)(content),
    emit: (type, payload) => {
      lastConsolidationEvent = log.append(ids.next('cns'), { type, payload: { ...payload } });
    },
  });
  let lastConsolidationEvent: Readonly<RunEvent> | undefined;

  const startRun = (r: Omit<RunRecord, 'tenant' | 'runId'> & { readonly runId?: string; readonly memoryScopeIsolation?: 'inherit' | 'isolated' }): RunRecord => {
    const tenant = tenantOf(r.memoryRef);
    if (tenant === undefined) throw new RangeError('memoryRef does not resolve to a tenant');
    const { memoryScopeIsolation, ...rest } = r;
    const record = runs.add({ ...rest, runId: r.runId ?? ids.next('run'), tenant });
    log.append(record.runId, {
      type: 'run.started',
      payload: {
        workflowId: record.workflowId,
        memoryRef: record.memoryRef,
        ...(record.parentRunId !== undefined ? { parentRunId: record.parentRunId, memoryScopeIsolation: memoryScopeIsolation ?? 'inherit' } : {}),
        ...(record.forkedFrom !== undefined ? { forkedFrom: record.forkedFrom } : {}),
      },
    });
    return record;
  };

  const commitments = new CommitmentEngine({
    clock,
    tenantOf,
    predicates,
    emit: (type, payload, ctx) => {
      log.append(ctx.runId ?? BACKGROUND_RUN_ID, { type, payload: { ...payload } });
    },
    enqueueRun: ({ tenantId, memoryRef }) => {
      const run = startRun({ workflowId: 'commitment-follow-up', memoryRef });
      return { runId: run.runId, tenantId };
    },
    ...(options.persistence?.commitments !== undefined ? { persistence: options.persistence.commitments } : {}),
  });

  const subRuns = new SubRunMemory({
    clock,
    ids,
    store,
    tenantOf,
    tenantOfRun: (runId) => runs.get(runId)?.tenant,
    mintIsolatedRef: (tenant, childRunId) => buildRef(tenant, 'runs', childRunId.replace(/[^A-Za-z0-9._-]/g, '-')),
    redact: (content) => content, // replaced per child below: each write is redacted for its own scope
    concurrency: options.crossChildMemoryConcurrency ?? 'strict',
  });

  // RFC 0096: proposals are inert until an authorised apply installs them into the installed-artefact registry.
  const installedArtifacts: InstalledArtifacts = options.persistence?.proposals?.installed ?? new InMemoryInstalledArtifacts();
  const proposals = new ProposalService({
    clock,
    ids,
    store: options.persistence?.proposals?.store ?? new InMemoryProposalStore(),
    installed: installedArtifacts,
    redact: (content, tenant) => redact(content, registries.tenantSecrets(tenant)),
    emit: (type, payload) => {
      const e = log.append(BACKGROUND_RUN_ID, { type, payload: { ...payload } });
      return { eventId: e.eventId, runId: e.runId };
    },
    runTenant: (runId) => runs.get(runId)?.tenant,
    activation: options.proposalActivation ?? { mode: 'approval-gate' },
  });

  const escalationPolicy: EscalationPolicy = makeEscalationPolicy(options.confidenceEscalationFloor !== undefined ? { floor: options.confidenceEscalationFloor } : {});

  // Each wired module contributes what it does; a module that is not wired contributes nothing.
  // The root fields upstream OpenWOP requires of every discovery document: this runtime runs no LLM envelopes, so
  // it lists none and allows no envelope rounds.
  const capabilities = new CapabilityRegistry({
    protocolVersion: '1.1', host: options.host ?? { name: 'wopkit-reference-host', version: WOPKIT_VERSION },
    supportedEnvelopes: [], schemaVersions: {}, limits: { clarificationRounds: 0, schemaRounds: 0, envelopesPerTurn: 0 },
  })
    .contribute('memory', memoryCapability({ writer, emitsWriteEvents: true, forget: true }));
  capabilities.contribute('compaction', compactor.capability()).contribute('distillation', distiller.capability())
    .contribute(
      'consolidation+commitments+multi-agent',
      ownedCapabilityFragment({
        consolidationSchedule: options.consolidationSchedule ?? 'on-demand',
        fireConditions: ['time', 'predicate'],
        ...(options.confidenceEscalationFloor !== undefined ? { floor: options.confidenceEscalationFloor } : {}),
        crossChildMemoryConcurrency: subRuns.concurrency,
      }),
    );
  capabilities.contribute('proposals', proposals.capability()).contribute('agent-inventory', { agents: { manifestRuntime: { supported: true } } });

  return {
    clock,
    ids,
    store,
    registries,
    byok,
    log,
    runs,
    journal,
    holds,
    workspace,
    predicates,
    writer,
    compactor,
    distiller,
    distillationScheduler,
    consolidation,
    commitments,
    subRuns,
    escalationPolicy,
    capabilities,
    proposals,
    installedArtifacts,
    /** GET /v1/agents for `tenant`: built-in agents plus the agent packs applied proposals installed (RFC 0080 §C projection). */
    agentInventory: async (tenant: string | undefined) => agentInventory(tenant === undefined ? [] : await installedArtifacts.list(tenant, 'agent-pack'), capabilities.document()),
    asRun,
    startRun,
    /** The read interface for one tenant. */
    adapterFor: (tenant: string) => new TenantMemoryAdapter(tenant, store, clock),
    /** The last agent.memory.consolidated event appended (for seams that report its id). */
    lastConsolidationEvent: () => lastConsolidationEvent,
    /** Discovery document (validated against capabilities.schema.json). */
    discovery: () => capabilities.document(),

    /**
     * One supervisor step of a run (RFC 0039 §A): decision → (escalation event → interrupt) → dispatch.
     * `resolveInterrupt` stands for the person answering; `dispatch` executes the decision.
     */
    orchestratorStep(
      runId: string,
      decision: OrchestratorDecisionLike,
      resolveInterrupt: (req: { interruptId: string; kind: 'clarify' | 'escalate' }) => Promise<InterruptResolution>,
      dispatch: (d: OrchestratorDecisionLike) => Promise<void> | void = () => {},
    ): Promise<OrchestratorStepResult> {
      const append = (type: string, payload: Record<string, unknown>, causationId?: string) => log.append(runId, { type, payload, ...(causationId !== undefined ? { causationId } : {}) }).eventId;
      return orchestratorStep(decision, escalationPolicy, {
        record: append,
        interrupt: resolveInterrupt,
        execute: dispatch,
        newInterruptId: () => ids.next('int'),
        payloads: SPEC_STEP_PAYLOADS,
      });
    },

    /**
     * Carry on a step suspended on interrupt `interruptId` of `runId` with the person's answer, from what the run's
     * log holds (so it works after a restart, and on whichever process serves the run). Exactly once: the check
     * that the interrupt is open and the answer's event happen in one synchronous stretch, so of concurrent answers
     * one is applied and the others get InterruptAlreadyResolvedError; an interrupt the log never requested (or
     * another run's) gets InterruptNotFoundError.
     */
    continueStep(
      runId: string,
      interruptId: string,
      resolution: InterruptResolution,
      dispatch: (d: OrchestratorDecisionLike) => Promise<void> | void = () => {},
    ): Promise<OrchestratorStepResult> {
      const open = interruptInLog(log.read(runId), interruptId);
      if (open === undefined) return Promise.reject(new InterruptNotFoundError());
      if (open === 'resolved') return Promise.reject(new InterruptAlreadyResolvedError());
      const append = (type: string, payload: Record<string, unknown>, causationId?: string) => log.append(runId, { type, payload, ...(causationId !== undefined ? { causationId } : {}) }).eventId;
      return continueAfterInterrupt(open, resolution, { record: append, execute: dispatch, payloads: SPEC_STEP_PAYLOADS });
    },

    /** Child-run write through the SR-1 chokepoint of the child's scope, attributed to the child run. */
    async childWrite(parent: { runId: string; memoryRef: string }, childRunId: string, write: { id?: string; content: string; tags?: string[]; ttlSeconds?: number }, isolation?: 'inherit' | 'isolated') {
      const scope = subRuns.scopeForChild(parent, childRunId, isolation !== undefined ? { memoryScopeIsolation: isolation } : {});
      const redacted = writer.redactStored(scope.memoryRef, write, { runId: childRunId, tenant: scope.tenantId });
      const entry = await asRun(childRunId, () => scope.write(redacted));
      return { scope, entry };
    },

    /**
     * Fork `sourceRunId` at `fromSeq` (MAE-3). Throws ReplayMemorySnapshotUnavailableError (422 on the wire)
     * when the snapshot cannot be served; otherwise registers the fork run and returns its memory view.
     */
    fork(sourceRunId: string, fromSeq: number): { run: RunRecord; view: ForkMemoryView } {
      const source = runs.get(sourceRunId);
      const forkRunId = ids.next('run');
      // The fork belongs to its source's tenant: its view reads that tenant's refs only (CTI-1).
      const view = journal.openFork({ runId: forkRunId, tenant: source?.tenant ?? '' }, sourceRunId, fromSeq);
      if (source === undefined) {
        view.close();
        throw new RangeError('unknown source run');
      }
      const run = startRun({ runId: forkRunId, workflowId: source.workflowId, memoryRef: source.memoryRef, forkedFrom: { runId: sourceRunId, fromSeq } });
      return { run, view };
    },
  };
}

export type OpenwopRuntime = ReturnType<typeof createOpenwopRuntime>;
