/**
 * The OpenWOP reference runtime, wired: memory behind tenant-gated readers (CTI-1, TTL), the SR-1 chokepoint on
 * every write path, the validated run-event log, compaction, distillation, consolidation, commitments, confidence
 * escalation, sub-run memory and replay snapshots — and the discovery document built from exactly what is wired.
 *
 * Everything it keeps lives in the store it is given (`port`): a request reads what it needs through the port and
 * plans its writes into one `Tx`, committed once; the runtime keeps no copy of the store. Library first: the HTTP
 * host (runtime/host/) is a thin layer over `createOpenwopRuntime()`.
 */
import type { AgentInventoryResponse, ConsolidationSchedule } from '../../generated/ts/index.ts';
import { CapabilityRegistry, type DiscoveryDocument } from '../capabilities/registry.ts';
import { CommitmentEngine } from '../commitments/engine.ts';
import { Compactor, UnadvertisedCompactor } from '../compaction/compactor.ts';
import { ConsolidationService } from '../consolidation/service.ts';
import { Distiller, UnadvertisedDistiller } from '../distillation/distiller.ts';
import { DistillationScheduler } from '../distillation/schedule.ts';
import { Workspace } from '../distillation/index-manifest.ts';
import { RunEventLog, backgroundRunId, type RunEventLogLimits } from '../events/log.ts';
import { TenantMemoryAdapter } from '../memory/adapter.ts';
import { CursorCodec } from '../memory/cursor.ts';
import { memoryRef as buildRef, tenantOf } from '../memory/memory-ref.ts';
import { TenantReader } from '../memory/tenant-reader.ts';
import { DEFAULT_MEMORY_BOUNDS, MemoryWriter } from '../memory/writer.ts';
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
import { SubRunMemory, type ChildMemoryScope, type CrossChildMemoryConcurrency } from '../multi-agent/sub-run-memory.ts';
import type { StoredEntry } from '../memory/stored-entry.ts';
import { SecretRegistries, SimulatedByokResolver, type SecretRegistryLimits, type TenantSecretScope } from '../redaction/secret-registry.ts';
import { SecretKeyRing } from '../redaction/sealing.ts';
import { randomIds, systemClock, type Clock, type IdSource } from '../shared/clock.ts';
import { WOPKIT_VERSION } from '../shared/version.ts';
import { toWireRefusal, unitsOf, type MemoryBounds, type StoragePort, type Tx } from '../storage/index.ts';
import { ProposalService, type ProposalActivationPolicy } from '../proposals/service.ts';
import { InstalledArtifacts } from '../proposals/store.ts';
import { agentInventory } from './agent-inventory.ts';
import { Runs, type RunBounds, type RunRecord, type StartRun } from './runs.ts';
import { WorkflowEngine, type ForkMode } from './workflow-engine.ts';
import { MAX_EVENT_PAGE } from '../events/log.ts';

export interface OpenwopRuntimeOptions {
  /** The store everything the runtime keeps lives in (runtime/storage/: openMemoryStore, openSqliteStore, …). */
  readonly port: StoragePort;
  readonly clock?: Clock;
  readonly ids?: IdSource;
  readonly host?: { readonly name: string; readonly version: string };
  readonly maxEntrySizeBytes?: number;
  readonly maxTokenBudget?: number;
  readonly archiveRetention?: string;
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
  /** Armed commitments one tenant may hold (default DEFAULT_MAX_ARMED_PER_TENANT). */
  readonly armedCommitmentsPerTenant?: number;
  /** Proposals one tenant may hold (default DEFAULT_PROPOSALS_PER_TENANT). */
  readonly proposalsPerTenant?: number;
  /** Lifetime and per-tenant bounds of SR-1 secret registries (defaults: DEFAULT_SECRET_REGISTRY_LIMITS). */
  readonly secretRegistries?: Partial<SecretRegistryLimits>;
  /**
   * The keys SR-1 registries are sealed with (sealing.ts). Absent: a random key for this process — registries then
   * cannot be opened after a restart, and the runs they belong to refuse memory writes from then on.
   */
  readonly secretKeys?: SecretKeyRing;
  /** The key list cursors are signed with (≥ 16 bytes; hosts that share a store must share it). Absent: a random one. */
  readonly cursorKey?: Buffer | readonly Buffer[];
  /** Bounds of one tenant's memory (entries per memoryRef, stored bytes). */
  readonly memoryBounds?: Partial<MemoryBounds>;
  /** Bounds of runs by kind. */
  readonly runBounds?: Partial<RunBounds>;
  /** Bounds of event logs. */
  readonly eventLimits?: Partial<RunEventLogLimits>;
  /** How applying an RFC 0096 proposal is authorised (default: an approval gate). */
  readonly proposalActivation?: ProposalActivationPolicy;
  /**
   * RFC 0057 write attribution (default true): every memory write emits a content-free `memory.written`, and
   * discovery advertises `memory.attribution`. When false neither happens (a host that does not take on the event).
   */
  readonly memoryAttribution?: boolean;
}

/**
 * The wired OpenWOP runtime: its parts (each a module of its own, over the one store) and the operations that span
 * them. Every operation that reads or writes takes the request's unit of work (`tx`) or opens its own background one.
 */
export interface OpenwopRuntime {
  readonly port: StoragePort;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly keys: SecretKeyRing;
  readonly cursors: CursorCodec;
  readonly registries: SecretRegistries;
  /** The tenant's secret scope within one unit of work (one per `tx` and tenant). */
  secretsOf(tx: Tx, tenant: string): Promise<TenantSecretScope>;
  readonly byok: SimulatedByokResolver;
  readonly log: RunEventLog;
  readonly runs: Runs;
  readonly workflows: WorkflowEngine;
  readonly workspace: Workspace;
  readonly writer: MemoryWriter;
  readonly compactor: Compactor;
  readonly distiller: Distiller;
  /** Present only when scheduled distillation is wired (and therefore advertised). */
  readonly distillationScheduler: DistillationScheduler | undefined;
  readonly consolidation: ConsolidationService;
  readonly commitments: CommitmentEngine;
  readonly subRuns: SubRunMemory;
  readonly escalationPolicy: EscalationPolicy;
  readonly capabilities: CapabilityRegistry;
  readonly proposals: ProposalService;
  readonly installedArtifacts: InstalledArtifacts;
  /** GET /v1/agents for `tenant`: built-in agents plus the agent packs applied proposals installed (RFC 0080 §C projection). */
  agentInventory(tx: Tx, tenant: string | undefined): Promise<AgentInventoryResponse>;
  /** The reader of one tenant's memory (CTI-1), within the unit of work `tx`. */
  readerFor(tx: Tx, tenant: string): TenantReader;
  /** The read interface for one tenant, over live memory, within the unit of work `tx`. */
  adapterFor(tx: Tx, tenant: string): TenantMemoryAdapter;
  /** Memory as a run reads it, within `tx`: a fork its snapshot, any other run the live memory of its tenant (undefined: no such run). */
  memoryOfRun(tx: Tx, runId: string): Promise<TenantMemoryAdapter | undefined>;
  /** Plan a run's start. */
  startRun(tx: Tx, r: StartRun): RunRecord;
  /** Discovery document (validated against capabilities.schema.json). */
  discovery(): DiscoveryDocument;
  /** One supervisor step of a run (RFC 0039 §A), planned into `tx`. */
  orchestratorStep(tx: Tx, runId: string, decision: OrchestratorDecisionLike, resolveInterrupt: (req: { interruptId: string; kind: 'clarify' | 'escalate' }) => Promise<InterruptResolution>, dispatch?: (d: OrchestratorDecisionLike) => Promise<void> | void): Promise<OrchestratorStepResult>;
  /** Carry on a step suspended on an interrupt with the person's answer, exactly once, planned into `tx`. */
  continueStep(tx: Tx, runId: string, interruptId: string, resolution: InterruptResolution, dispatch?: (d: OrchestratorDecisionLike) => Promise<void> | void): Promise<OrchestratorStepResult>;
  /** A child run's write through the SR-1 chokepoint of the child's scope (its own unit of work). */
  childWrite(parent: { runId: string; memoryRef: string }, childRunId: string, write: { id?: string; content: string; tags?: string[]; ttlSeconds?: number }, isolation?: 'inherit' | 'isolated'): Promise<{ scope: ChildMemoryScope; entry: StoredEntry }>;
  /** Plan a fork of `sourceRunId` at `fromSeq` (MAE-3). */
  fork(tx: Tx, sourceRunId: string, fromSeq: number, mode?: ForkMode): Promise<RunRecord>;
}

export function createOpenwopRuntime(options: OpenwopRuntimeOptions): OpenwopRuntime {
  const port = options.port;
  const units = unitsOf(port);
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const keys = options.secretKeys ?? SecretKeyRing.ephemeral();
  const cursors = new CursorCodec(options.cursorKey);
  const registries = new SecretRegistries({ clock, keys, ...(options.secretRegistries !== undefined ? { limits: options.secretRegistries } : {}) });
  const byok = new SimulatedByokResolver();
  const log = new RunEventLog({ clock, ids, limits: { ...options.eventLimits, ...(options.runBounds?.endedRunsPerTenant !== undefined ? { endedRunsKept: options.runBounds.endedRunsPerTenant } : {}) } });
  const runs = new Runs({ clock, ids, log, tenantOf, ...(options.runBounds !== undefined ? { bounds: options.runBounds } : {}) });
  const workspace = new Workspace();
  const readers = { readerFor: (tx: Tx, tenant: string) => new TenantReader(tx, tenant) };

  // One scope of a tenant's secret registries per request (memoised on the request's tx).
  const scopes = new WeakMap<Tx, Map<string, ReturnType<SecretRegistries['scope']>>>();
  const secretsOf = (tx: Tx, tenant: string) => {
    let byTenant = scopes.get(tx);
    if (byTenant === undefined) scopes.set(tx, (byTenant = new Map()));
    let scope = byTenant.get(tenant);
    if (scope === undefined) byTenant.set(tenant, (scope = registries.scope(tx, tenant)));
    return scope;
  };

  const attribution = options.memoryAttribution !== false;
  const writer = new MemoryWriter({
    clock,
    ids,
    bounds: { ...DEFAULT_MEMORY_BOUNDS, ...options.memoryBounds },
    ...(options.maxEntrySizeBytes !== undefined ? { maxEntrySizeBytes: options.maxEntrySizeBytes } : {}),
    redactor: async (tx, { tenant, runId }) => {
      const scope = await secretsOf(tx, tenant);
      if (runId !== undefined) scope.useRun(runId);
      return (content) => scope.redact(content);
    },
    // Every write is attributed (RFC 0057 memory.written, content-free): to its run, or to the tenant's background log
    // — unless attribution is off, and then none is.
    onWrite: (tx, w) => {
      if (!attribution) return;
      const input = { type: 'memory.written', payload: { memoryRef: w.memoryRef, memoryId: w.memoryId, operation: w.operation, ...(w.byteSize !== undefined ? { byteSize: w.byteSize } : {}) } } as const;
      if (w.context.runId !== undefined) log.append(tx, w.context.runId, input);
      else log.appendBackground(tx, w.tenant, input);
    },
  });

  const compactionWired = options.compaction !== false;
  const distillationWired = compactionWired && options.distillation !== false;
  const compactorOptions = { store: readers, writer, clock, ids, log, trigger: 'both', maxOutputBytes: writer.maxEntrySizeBytes } as const;
  const compactor: Compactor = compactionWired ? new Compactor(compactorOptions) : new UnadvertisedCompactor(compactorOptions);
  const maxTokenBudget = options.maxTokenBudget ?? 4096;
  const archiveRetention = options.archiveRetention ?? 'P30D';
  const schedulingWired = distillationWired && options.scheduledDistillation !== false;
  const distillerOptions = { store: readers, writer, compactor, workspace, clock, ids, log, maxTokenBudget, indexEmitted: true, archiveRetention, scheduled: schedulingWired } as const;
  const distiller: Distiller = distillationWired ? new Distiller(distillerOptions) : new UnadvertisedDistiller(distillerOptions);
  /** Present only when scheduled distillation is wired (and therefore advertised). */
  const distillationScheduler = schedulingWired
    ? new DistillationScheduler({ units, clock, distiller, tenantOf, newId: () => ids.next('dsch'), ...(options.distillSchedulesPerTenant !== undefined ? { maxPerTenant: options.distillSchedulesPerTenant } : {}) })
    : undefined;

  const consolidation = new ConsolidationService({
    clock,
    store: readers,
    writer,
    tenantOf,
    readsSnapshot: async (tx, runId) => (await runs.row(tx, runId))?.anchor !== undefined,
    emit: (tx, payload, { tenantId }) => {
      const runId = ids.next('cns');
      const e = log.appendTask(tx, { runId, tenant: tenantId }, { type: 'agent.memory.consolidated', payload: { ...payload } });
      return { eventId: e.eventId, runId };
    },
  });

  const commitments = new CommitmentEngine({
    units,
    storeKind: port.kind,
    clock,
    tenantOf,
    ...(options.armedCommitmentsPerTenant !== undefined ? { maxArmedPerTenant: options.armedCommitmentsPerTenant } : {}),
    emit: (tx, payload, ctx) => {
      const input = { type: 'commitment.fired', payload: { ...payload } } as const;
      if (ctx.runId !== undefined) log.append(tx, ctx.runId, input);
      else log.appendBackground(tx, ctx.tenantId, input);
    },
    startFollowUp: (tx, { memoryRef }) => runs.start(tx, { workflowId: 'commitment-follow-up', memoryRef, kind: 'follow-up', status: 'queued' }).runId,
  });

  const subRuns = new SubRunMemory({
    units,
    clock,
    store: readers,
    writer,
    tenantOf,
    tenantOfRun: (tx, runId) => runs.tenantOf(tx, runId),
    mintIsolatedRef: (tenant, childRunId) => buildRef(tenant, 'runs', childRunId.replace(/[^A-Za-z0-9._-]/g, '-')),
    concurrency: options.crossChildMemoryConcurrency ?? 'strict',
  });

  // RFC 0096: proposals are inert until an authorised apply installs them into the installed-artefact registry.
  const installedArtifacts = new InstalledArtifacts(options.proposalsPerTenant);
  const proposals = new ProposalService({
    clock,
    ids,
    installed: installedArtifacts,
    ...(options.proposalsPerTenant !== undefined ? { maxPerTenant: options.proposalsPerTenant } : {}),
    redactor: async (tx, tenant) => {
      const scope = await secretsOf(tx, tenant);
      return (content) => scope.redact(content);
    },
    emit: (tx, tenant, type, payload) => ({ eventId: log.appendBackground(tx, tenant, { type, payload: { ...payload } }).eventId, runId: backgroundRunId(tenant) }),
    runTenant: (tx, runId) => runs.tenantOf(tx, runId),
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
    .contribute('memory', memoryCapability({ writer, emitsWriteEvents: attribution, forget: true }));
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

  // Workflow runs: the run, fork and interrupt code of runs that execute a workflow definition. Both fork modes are
  // served: replay re-emits what its source recorded, branch does it anew.
  const workflows = new WorkflowEngine({ log, runs, writer, ids, clock, floor: () => escalationPolicy.floor });
  capabilities.contribute('replay', { replay: { supported: true, modes: ['replay', 'branch'] } });

  /** The steps of a supervisor turn, planned into `tx` (records return their event ids at once). */
  const stepPorts = (tx: Tx, runId: string) => ({
    record: (type: string, payload: Record<string, unknown>, causationId?: string) => log.append(tx, runId, { type, payload, ...(causationId !== undefined ? { causationId } : {}) }).eventId,
    payloads: SPEC_STEP_PAYLOADS,
  });

  return {
    port,
    clock,
    ids,
    keys,
    cursors,
    registries,
    secretsOf,
    byok,
    log,
    runs,
    workflows,
    workspace,
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
    agentInventory: async (tx: Tx, tenant: string | undefined) => agentInventory(tenant === undefined ? [] : await installedArtifacts.list(tx, tenant, 'agent-pack'), capabilities.document()),
    /** The reader of one tenant's memory (CTI-1). */
    readerFor: (tx: Tx, tenant: string) => readers.readerFor(tx, tenant),
    /** The read interface for one tenant, over live memory. */
    adapterFor: (tx: Tx, tenant: string) => new TenantMemoryAdapter(readers.readerFor(tx, tenant), clock, { cursors }),
    /**
     * Memory as a run reads it: a fork reads its snapshot (the memory as of its fork point), any other run the live
     * memory of its tenant — both through a reader bound to the run's tenant.
     */
    async memoryOfRun(tx: Tx, runId: string): Promise<TenantMemoryAdapter | undefined> {
      const row = await runs.row(tx, runId);
      if (row === undefined) return undefined;
      const reader = readers.readerFor(tx, row.tenant);
      return row.anchor === undefined
        ? new TenantMemoryAdapter(reader, clock, { cursors })
        : new TenantMemoryAdapter(reader.at(row.anchor), clock, { cursors, view: runId });
    },
    /** Plan a run's start. */
    startRun: (tx: Tx, r: StartRun): RunRecord => runs.start(tx, r),
    /** Discovery document (validated against capabilities.schema.json). */
    discovery: () => capabilities.document(),

    /**
     * One supervisor step of a run (RFC 0039 §A): decision → (escalation event → interrupt) → dispatch, planned into
     * `tx`. `resolveInterrupt` stands for the person answering; `dispatch` executes the decision.
     */
    orchestratorStep(
      tx: Tx,
      runId: string,
      decision: OrchestratorDecisionLike,
      resolveInterrupt: (req: { interruptId: string; kind: 'clarify' | 'escalate' }) => Promise<InterruptResolution>,
      dispatch: (d: OrchestratorDecisionLike) => Promise<void> | void = () => {},
    ): Promise<OrchestratorStepResult> {
      return orchestratorStep(decision, escalationPolicy, { ...stepPorts(tx, runId), interrupt: resolveInterrupt, execute: dispatch, newInterruptId: () => ids.next('int') });
    },

    /**
     * Carry on a step suspended on interrupt `interruptId` of `runId` with the person's answer, from what the run's
     * log holds (so it works after a restart, and on whichever host serves the run), planned into `tx`. Exactly
     * once: the answer takes a claim on the interrupt in the same transaction, so of concurrent answers — on any host
     * — one commits and the others are refused (InterruptAlreadyResolvedError); an interrupt the log never requested
     * (or another run's) gets InterruptNotFoundError.
     */
    async continueStep(
      tx: Tx,
      runId: string,
      interruptId: string,
      resolution: InterruptResolution,
      dispatch: (d: OrchestratorDecisionLike) => Promise<void> | void = () => {},
    ): Promise<OrchestratorStepResult> {
      const open = interruptInLog((await log.read(tx, runId, 0, MAX_EVENT_PAGE)).events, interruptId);
      if (open === undefined) throw new InterruptNotFoundError();
      if (open === 'resolved') throw new InterruptAlreadyResolvedError();
      tx.add('claim.take', { key: `interrupt:${runId}:${interruptId}`, atMs: clock.now(), refuseAs: toWireRefusal(new InterruptAlreadyResolvedError()) });
      return continueAfterInterrupt(open, resolution, { ...stepPorts(tx, runId), execute: dispatch });
    },

    /** A child run's write through the SR-1 chokepoint of the child's scope, attributed to the child run (its own transaction). */
    async childWrite(parent: { runId: string; memoryRef: string }, childRunId: string, write: { id?: string; content: string; tags?: string[]; ttlSeconds?: number }, isolation?: 'inherit' | 'isolated') {
      return subRuns.childWrite(parent, childRunId, write, isolation !== undefined ? { memoryScopeIsolation: isolation } : {});
    },

    /**
     * Plan a fork of `sourceRunId` at `fromSeq` (MAE-3): the fork run, anchored on the memory as of that event, and —
     * when the source ran a workflow — executed in `mode` (workflow-engine.ts). Throws ReplayMemorySnapshotUnavailableError
     * (422) when the snapshot cannot be served, ForkSeqOutOfRangeError (422 fork_point_invalid) past the source's last
     * event, RangeError for an unknown source.
     */
    fork: (tx: Tx, sourceRunId: string, fromSeq: number, mode: ForkMode = 'replay'): Promise<RunRecord> => workflows.fork(tx, sourceRunId, fromSeq, mode),
  };
}

