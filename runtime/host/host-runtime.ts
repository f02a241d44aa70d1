/**
 * The one interface between the HTTP routes and the runtimes: every operation a route needs, and nothing else.
 * Routes (runtime/host/routes/) talk only to this; `reference-runtime.ts` implements it over the OpenWOP and
 * Inquirium runtimes, and `mutants.ts` wraps an implementation to build the deliberately broken hosts the
 * conformance tests use. Nothing here knows about HTTP, and no route reaches past it to a store or a registry.
 *
 * An operation that takes a `tx` runs inside the request's one unit of work, which the request boundary opens
 * (route-helpers.ts `serve`): it reads through that `tx`, plans its writes into it and never commits — the boundary
 * commits once when the route answered. Operations without a `tx` touch no store (discovery, clock, policy) or are
 * the named exceptions that open their own units (test/architecture/unit-of-work.test.ts lists them). No operation keeps state in the process
 * between requests.
 */
import type {
  AgentInventoryResponse, AgentMemoryConsolidatedPayload, CommitmentFiredPayload, HostSampleProposalGateDecisionRequest, HostSampleProposalSynthesizeRequest,
  HostSampleProposalSynthesizeResponse, MemoryEntry, OrchestratorDecision, Proposal, ProposalInstalledArtifactResponse, ProposalReviseRequest, ResumeValue, RunSnapshot,
} from '../../generated/ts/index.ts';
import type { InterruptResolution } from '../multi-agent/escalation.ts';
import type { ApplyOutcome, ProposalActor, ProposalFilter } from '../proposals/service.ts';
import type { CompactResult } from '../compaction/compactor.ts';
import type { DistillationSchedule, DistillationScheduleRequest, RecordedOutcome, ScheduledRunOutcome } from '../distillation/schedule.ts';
import type { DistillResult } from '../distillation/distiller.ts';
import type { GenerateContext, GenerateResponse } from '../inquirium/generate.ts';
import type { TraceEnvelope } from '../inquirium/storage/trace-stream.ts';
import type { MemoryAdapter, MemoryPage } from '../memory/adapter.ts';
import type { MemoryListOptions } from '../../generated/ts/memory-list-options.ts';
import type { PutInput } from '../memory/writer.ts';
import type { SecretScope } from '../redaction/secret-registry.ts';
import type { RunRecord } from '../openwop/runs.ts';
import type { ForkMode, WorkflowDefinition, WorkflowState } from '../openwop/workflow-engine.ts';

import type { EventPage, Pending, StoreHealth, Tx } from '../storage/index.ts';
import type { StoredEntry } from '../memory/stored-entry.ts';

/** Memory as one reader sees it: the spec's read interface (list, get) plus pages, tenant-gated and TTL-filtered. */
export type MemoryReader = MemoryAdapter & {
  page(memoryRef: string, options?: Readonly<MemoryListOptions> & { readonly cursor?: string }): Promise<MemoryPage>;
};

/** Who a write acts for: the tenant it must belong to (CTI-1) and, optionally, the run it is attributed to. */
export interface WriteAs {
  readonly tenant: string;
  readonly runId?: string;
}

/** A run-scoped BYOK secret planted for a fixture, and the content that carries its plaintext. */
export interface PlantedSecret extends Required<WriteAs> {
  readonly secretId: string;
  readonly value: string;
  readonly content: string;
}

/** One consolidation pass: its event payload and where it was logged. */
export interface ConsolidationPass {
  readonly event: AgentMemoryConsolidatedPayload;
  readonly eventId?: string;
  readonly runId?: string;
}

/** What starting a run takes. */
export interface RunStart {
  readonly workflowId: string;
  readonly memoryRef: string;
  readonly runId?: string;
  readonly parentRunId?: string;
}

/** A seed: entries written in one transaction, attributed to a run (named, kept) or to no run. */
export interface MemorySeed {
  readonly memoryRef: string;
  readonly tenant: string;
  /** A run the client names: claimed for the tenant (a run of another tenant is a 409), its registry live on after. */
  readonly runId?: string;
  /** Secrets registered in the seed's run before its entries are written (a run is then needed: one is made up if none is named). */
  readonly secrets?: readonly { readonly secretId: string; readonly value: string }[];
  readonly entries: readonly PutInput[];
}

/** Who answers an operator question: the caller's tenant and the participant it is bound to. */
export interface QuestionCaller {
  readonly tenant: string;
  readonly participant: string;
}

/** Opaque JSON the Inquirium runtime answers with (already checked against its DTO schema there). */
export type InquiriumAnswer = Record<string, unknown>;

/**
 * Workflow runs a client starts (POST /v1/runs): the conformance fixture workflows, executed by the fixture runner
 * (runtime/openwop/fixtures/) over the host's own operations — so a host broken in one of them breaks its runs too
 * (workflow-runs.ts adds these to a HostCore).
 */
export interface WorkflowRuns {
  /** Fixture ids discovery advertises in `fixtures` (none until seeded). */
  fixtureIds(): Promise<readonly string[]>;
  /** Seed the conformance fixtures (recorded in the store: seeding again, from any host, changes nothing). The ids seeded. */
  seedFixtures(): Promise<readonly string[]>;
  /** Start a fixture run as `tenant`; it answers once the run ended or suspended. UnknownWorkflowError → 404. */
  startWorkflow(workflowId: string, tenant: string): Promise<RunSnapshot>;
  /** A workflow run's status and variables (undefined for other runs). */
  workflowRun(runId: string): Promise<RunSnapshot | undefined>;
  /**
   * Answer the interrupt a waiting fixture run is suspended on, addressed by the node it suspends (its snapshot's
   * currentNodeId) or by its interruptId; the run's snapshot after it. One answer wins: InterruptAlreadyResolvedError
   * (409) for any other; InterruptNotFoundError (404) for a node the run does not wait on; ResumeValueRefusedError
   * (400) for an action the node does not take.
   */
  resolveInterrupt(runId: string, nodeId: string, resumeValue: Readonly<ResumeValue>): Promise<RunSnapshot>;
}

/** Everything but the workflow runs: what reference-runtime.ts implements and mutants.ts wraps. */
export type HostCore = Omit<HostRuntime, keyof WorkflowRuns>;

export interface HostRuntime extends WorkflowRuns {
  /** The discovery document, built from what the runtimes wire (and the fixtures seeded). */
  discovery(): Promise<Record<string, unknown>>;
  /** Milliseconds on the runtime's clock. */
  now(): number;
  /**
   * Whether the store takes writes (GET /readyz). After a write failed for want of space, a small probe write (one at
   * a time) finds out whether it takes writes again, so the host turns ready without waiting for a client's write.
   */
  health(): Promise<StoreHealth>;

  // ── Runs ─────────────────────────────────────────────────────────────────────────────────────────────────
  startRun(tx: Tx, r: RunStart): Promise<RunRecord>;
  /**
   * Start a run of a test fixture. The runs of one memoryRef form one fixture; a tenant keeps at most
   * `fixturesPerTenant` fixtures, and starting a fixture past that retires the oldest: its runs, their event logs
   * and secret registries, and the entries under its memoryRef are forgotten (its run ids then read as unknown).
   */
  startFixtureRun(tx: Tx, r: RunStart): Promise<RunRecord>;
  /** A run's record (a run a client, a seam or a fork started), if it exists. */
  run(tx: Tx, runId: string): Promise<RunRecord | undefined>;
  /** The tenant a run or an event log belongs to, if it exists (binding a request to its key's tenant). */
  runTenant(tx: Tx, runId: string): Promise<string | undefined>;
  /** A page of the run's events from `fromSeq`, read in one unit of work; undefined when the run has no event log (unknown, or dropped). */
  events(tx: Tx, runId: string, fromSeq?: number, limit?: number): Promise<EventPage | undefined>;
  /** Sequence of the run's last event (-1 when it has none). */
  lastSequence(tx: Tx, runId: string): Promise<number>;
  /** Forget a run's event log (retention, degraded infrastructure): a fork of it can no longer be served. */
  dropEventLog(tx: Tx, runId: string): Promise<void>;
  /**
   * Fork a run at `fromSeq` (MAE-3) in `mode` (default replay); a fork of a workflow run executes before this answers
   * (to its end, or to an interrupt its source never answered). Throws ReplayMemorySnapshotUnavailableError (422) when
   * no snapshot can be served, ForkSeqOutOfRangeError (422 fork_point_invalid) past the source's last event.
   */
  fork(tx: Tx, sourceRunId: string, fromSeq: number, mode?: ForkMode): Promise<RunRecord>;
  /** Start a run of a workflow definition in `memoryRef`'s tenant and execute it until it ends or waits (one transaction). */
  runWorkflow(tx: Tx, definition: WorkflowDefinition, memoryRef: string): Promise<RunRecord>;
  /**
   * Answer the node a workflow run waits on (by node id or interrupt id) and carry the run on: InterruptNotFoundError
   * (404), InterruptAlreadyResolvedError (409), ResumeValueRefusedError (400) as for resolveInterrupt.
   */
  resumeWorkflow(tx: Tx, runId: string, nodeId: string, resumeValue: Readonly<ResumeValue>): Promise<void>;
  /** Where a workflow run stands (undefined for a run that executes no workflow). */
  workflowState(tx: Tx, runId: string): Promise<WorkflowState | undefined>;
  /**
   * A run (read in one unit of work) and memory as it reads it: a fork reads its snapshot, any other run the live
   * memory of its tenant; undefined for an unknown run.
   */
  runMemory(tx: Tx, runId: string): Promise<{ readonly run: RunRecord; readonly memory: MemoryReader } | undefined>;
  /** The run ended: its secret registry dies with it. */
  endRun(tx: Tx, runId: string): Promise<void>;

  // ── Memory ───────────────────────────────────────────────────────────────────────────────────────────────
  /** The read interface a caller of `tenant` gets (CTI-1: another tenant's ref reads as empty). */
  memoryFor(tx: Tx, tenant: string): MemoryReader;
  /** Plan one entry's write through the SR-1 chokepoint, attributed to `as.runId` when given; the entry stored once the request committed. */
  write(tx: Tx, memoryRef: string, entry: PutInput, as: WriteAs): Promise<Pending<StoredEntry>>;
  /** Write a seed's entries (and register its secrets) in one transaction: all of them, or none. */
  seedMemory(tx: Tx, seed: MemorySeed): Promise<{ readonly runId?: string; readonly entries: readonly Pending<StoredEntry>[] }>;
  /** Resolve a BYOK secret with `scope` in the run (which registers it for SR-1, or refuses it: 400/429); the plaintext. */
  resolveSecret(tx: Tx, runId: string, tenant: string, secret: { readonly secretId: string; readonly value: string; readonly scope: SecretScope }): Promise<string>;
  /** Register a run-scoped secret and write `content`, which carries its plaintext, through the SR-1 chokepoint. */
  plantSecret(tx: Tx, memoryRef: string, secret: PlantedSecret): Promise<void>;
  /** How many entries the store holds under the ref, expired ones included. */
  storedCount(tx: Tx, memoryRef: string): Promise<number>;
  /** Whether any entry stored under the ref holds `needle` as persisted (the SR-1 probe of a fixture). */
  persistedContains(tx: Tx, memoryRef: string, needle: string): Promise<boolean>;
  /** One on-demand consolidation pass (RFC 0068). */
  consolidate(tx: Tx, memoryRef: string, tenant: string): Promise<ConsolidationPass>;
  /** Client-requested compaction (RFC 0012); throws CompactionError when compaction is not wired. */
  compact(tx: Tx, memoryRef: string, tenant: string, sourceIds?: readonly string[]): Promise<CompactResult>;
  /** On-demand distillation of the ref's transactional entries, or of the entries `sourceIds` names (RFC 0062). */
  distill(tx: Tx, memoryRef: string, tenant: string, tokenBudget?: number, sourceIds?: readonly string[]): Promise<DistillResult>;

  // ── Scheduled distillation (RFC 0062) ────────────────────────────────────────────────────────────────────
  /** Whether scheduled distillation is wired (and advertised). */
  schedulesWired(): boolean;
  scheduleDistillation(tx: Tx, req: DistillationScheduleRequest): Promise<DistillationSchedule>;
  schedule(tx: Tx, scheduleId: string): Promise<{ readonly schedule: DistillationSchedule; readonly last?: RecordedOutcome } | undefined>;
  /** Run the due schedules of `tenant` now (what the background work does for every tenant). */
  tickSchedules(tenant: string): Promise<readonly ScheduledRunOutcome[]>;

  // ── Commitments (RFC 0068) ───────────────────────────────────────────────────────────────────────────────
  /** Infer commitments from a stored entry and arm them; the ids armed. */
  armCommitments(tx: Tx, memoryRef: string, entry: MemoryEntry): Promise<readonly string[]>;
  /** A tenant's predicate turned true. */
  satisfyPredicate(tx: Tx, tenant: string, predicateId: string): Promise<void>;
  /** One evaluation of the commitments due or whose predicate changed: the `commitment.fired` payloads it emitted. */
  evaluateCommitments(): Promise<readonly CommitmentFiredPayload[]>;
  /** What the fired ledger holds of one commitment, as `commitment.fired` payloads (whichever host fired it). */
  commitmentFires(tx: Tx, tenant: string, commitmentId: string): Promise<readonly CommitmentFiredPayload[]>;
  /** Refuse (429 quota_exceeded {follow-up-runs}) when the tenant's follow-up runs are at their bound: a commitment asking for a run would wait, not fire. */
  checkFollowUpRoom(tx: Tx, tenant: string): Promise<void>;

  // ── Agents (RFC 0072 inventory with the RFC 0080 §C projection) and proposals (RFC 0096) ──────────────────────
  /** GET /v1/agents for `tenant` (built-ins only when none is named), each entry with its degraded-memory projection. */
  agentInventory(tx: Tx, tenant: string | undefined): Promise<AgentInventoryResponse>;
  /** The tenant a proposal belongs to, if it exists (binding a request to its key's tenant). */
  proposalTenant(tx: Tx, proposalId: string): Promise<string | undefined>;
  /** Persist a synthesised proposal as an inert draft (the synthesiser's seam). */
  synthesizeProposal(tx: Tx, request: HostSampleProposalSynthesizeRequest): Promise<HostSampleProposalSynthesizeResponse>;
  listProposals(tx: Tx, tenant: string, filter: ProposalFilter): Promise<readonly Proposal[]>;
  proposal(tx: Tx, actor: ProposalActor, proposalId: string): Promise<Proposal>;
  reviseProposal(tx: Tx, actor: ProposalActor, proposalId: string, patch: ProposalReviseRequest): Promise<Proposal>;
  rejectProposal(tx: Tx, actor: ProposalActor, proposalId: string): Promise<Proposal>;
  archiveProposal(tx: Tx, actor: ProposalActor, proposalId: string): Promise<Proposal>;
  /** Apply through the advertised activation mode: install now (direct-rbac, scope held) or open an approval gate. */
  applyProposal(tx: Tx, actor: ProposalActor, proposalId: string): Promise<ApplyOutcome>;
  /** An approver decides a pending gate; granted or overridden installs the artefact. */
  decideProposalGate(tx: Tx, decision: HostSampleProposalGateDecisionRequest, decidedBy: string): Promise<ApplyOutcome>;
  /** What an applied proposal installed, read back from the installed-artefact registry. */
  installedArtifact(tx: Tx, actor: ProposalActor, proposalId: string): Promise<ProposalInstalledArtifactResponse>;

  // ── Multi-agent (RFC 0039) ───────────────────────────────────────────────────────────────────────────────
  /** The confidence floor below which a decision escalates. */
  escalationFloor(): number;
  /**
   * Carry on a supervisor step suspended on interrupt `interruptId` of `runId` with a person's answer, from the run's
   * log (RFC 0039 §A). One answer wins: InterruptAlreadyResolvedError (409) for any other; InterruptNotFoundError (404)
   * for an interrupt the run's log never requested.
   */
  continueStep(tx: Tx, runId: string, interruptId: string, resolution: InterruptResolution): Promise<void>;
  /** One supervisor step with `decision`; an interrupt it raises is answered by `resolve` (default: "approved" at once). */
  supervisorStep(tx: Tx, runId: string, decision: Readonly<OrchestratorDecision>, resolve?: (req: { readonly interruptId: string; readonly kind: 'clarify' | 'escalate' }) => Promise<InterruptResolution>): Promise<void>;
  /** A child run's write into the scope it inherits from its parent, through the SR-1 chokepoint of that scope. */
  childWrite(parent: { readonly runId: string; readonly memoryRef: string }, childRunId: string, write: { readonly content: string; readonly ttlSeconds?: number }): Promise<MemoryEntry>;
  /** What the parent's supervisor reads of the ref (children's unexpired writes included). */
  parentReads(tx: Tx, parentRunId: string, memoryRef: string): Promise<readonly MemoryEntry[]>;

  // ── Inquirium (P066) ─────────────────────────────────────────────────────────────────────────────────────
  /** One generate turn in the request's unit (its transcript facts and trace commit with the request). */
  generate(tx: Tx, request: unknown, ctx: GenerateContext): Promise<GenerateResponse>;
  /** The same request against a host whose only runtime is remote (proves there is no remote fallback). */
  generateRemoteOnly(tx: Tx, request: unknown, ctx: GenerateContext): Promise<GenerateResponse>;
  /** Open a question of `tenant` (within its open-question bound: QuotaExceededError past it). */
  proposeQuestion(tx: Tx, request: unknown, tenant: string): Promise<InquiriumAnswer>;
  /** Answer one of the caller's tenant's questions; `answered/by` must be the caller's participant, and is recorded. */
  answerQuestion(tx: Tx, answer: unknown, caller: QuestionCaller): Promise<InquiriumAnswer>;
  /** Throws when `tenant` has no question with that ref (another tenant's question included). */
  questionState(tx: Tx, ref: string, tenant: string): Promise<InquiriumAnswer>;
  cancelQuestion(tx: Tx, ref: string, tenant: string): Promise<InquiriumAnswer>;
  /** Trace records of one trace, or the newest ones, read in the request's unit. */
  traces(tx: Tx, traceRef?: string): Promise<readonly TraceEnvelope[]>;
}
