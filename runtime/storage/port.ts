/**
 * The storage port (issue 13): everything the reference runtime must keep across a restart goes through this one
 * interface, which three back-ends implement — in-memory (`memory/`, tests), SQLite (`sqlite/`, the embedded
 * default) and PostgreSQL (`postgres/`, several host processes sharing one database).
 *
 * Shape of the port:
 * - Domain-oriented sub-stores (memory entries, runs and their event logs, commitments, distillation schedules,
 *   consolidation passes, the replay journal, operator questions, transcripts, traces), not a generic key-value
 *   store: each method is one thing the runtime does, so a back-end can make it atomic in the database.
 * - Records are stored as wire documents (JSON text of a generated type, or of a runtime record that is itself
 *   plain JSON) plus the few indexed columns queried on. A document read back is `JSON.parse` of the text written,
 *   so it is byte-identical to what was stored when serialised again (`JSON.stringify` keeps key order).
 * - Every method is async. Every method that writes is atomic: it either commits completely or not at all, and
 *   it resolves only after its write is committed (SQLite: WAL + synchronous=FULL; PostgreSQL: the default
 *   synchronous_commit), so a caller may acknowledge a request as soon as its port calls have resolved.
 * - Operations that must stay correct when several host processes share one database are ONE port call each,
 *   made atomic by the database (transaction, row lock, advisory lock or conditional update), never by a
 *   process-local mutex: `runs.appendEvent` (gap-free sequences), `commitments.claimFire` (fire-once) and
 *   `schedules.claimRun` (one run per slot). Memory reads and writes name the owning tenant, which the back-end
 *   stores with the entry and checks in the same statement (CTI-1). These hold for any caller of the port; the
 *   reference host additionally lets only one process write at a time (the `lease` below, runtime/host/cluster/),
 *   because its runtime keeps working state in memory and numbers events from it.
 *
 * Errors: a back-end failure rejects with the driver's error (never a partial write). Opening a store whose
 * schema is newer than the code refuses with `StoreVersionError` (see migrations).
 */
import type { MemoryEntry, RunEvent } from '../../generated/ts/index.ts';
import { WopkitError } from '../shared/errors.ts';

/** A JSON value as stored and returned (no undefined, functions, or class instances). */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
/** A JSON object document. */
export type JsonDoc = { readonly [key: string]: Json };

/** Which back-end a port is. */
export type StoreKind = 'memory' | 'sqlite' | 'postgres';

// ── Memory entries ────────────────────────────────────────────────────────────────────────────────────────────

/** A memory entry as stored: the generated wire `MemoryEntry`. */
export type StoredMemoryEntry = Readonly<MemoryEntry>;

/** One stored entry with its keys (what a full scan returns). */
export interface MemoryEntryRow {
  readonly tenant: string;
  readonly memoryRef: string;
  readonly entry: StoredMemoryEntry;
}

/**
 * Memory entries keyed by `(memoryRef, entry.id)`, each stored with the tenant that owns its memoryRef. Every
 * read and write names a tenant and only ever touches rows of that tenant (the check is part of the same
 * statement: `WHERE tenant = ? AND memory_ref = ?`), so a caller of tenant B never sees or changes tenant A's
 * entries whatever ref it passes. The runtime derives the tenant from the ref (`runtime/memory/memory-ref.ts`);
 * CTI-1's ref-shape check stays in `runtime/memory/tenant-reader.ts`. TTL is not applied here: expired entries
 * are returned like any other (each read view applies the TTL rule).
 */
export interface MemoryEntryStore {
  /** Insert or replace the entry `entry.id` of `memoryRef`, owned by `tenant`. */
  upsert(tenant: string, memoryRef: string, entry: StoredMemoryEntry): Promise<void>;
  /** Delete one entry of `tenant`'s `memoryRef`; whether it existed. */
  remove(tenant: string, memoryRef: string, id: string): Promise<boolean>;
  /** The entry `id` of `tenant`'s `memoryRef`, or undefined (another tenant's ref: undefined). */
  get(tenant: string, memoryRef: string, id: string): Promise<StoredMemoryEntry | undefined>;
  /** Every entry of `tenant`'s `memoryRef`, ordered by id (another tenant's ref: []). */
  list(tenant: string, memoryRef: string): Promise<readonly StoredMemoryEntry[]>;
  /** Every stored entry of every tenant, ordered by (memoryRef, id): for loading a host's working state at start. */
  all(): Promise<readonly MemoryEntryRow[]>;
}

// ── Runs and run event logs ───────────────────────────────────────────────────────────────────────────────────

/** A run record (which run exists, its tenant and memory scope): a JSON document with its indexed keys. */
export interface RunRow {
  readonly runId: string;
  readonly tenant: string;
  /** The run record as the runtime keeps it (`runtime/openwop/runs.ts` RunRecord). */
  readonly record: JsonDoc;
}

/**
 * Runs and their append-only event logs. Sequences start at 0 per run and grow by one with no gaps, whichever
 * process appends: `appendEvent` allocates the next sequence and stores the event in one transaction (SQLite: the
 * write transaction; PostgreSQL: a per-run row lock or advisory lock), so concurrent appends to one run from
 * several processes interleave without gaps or repeated sequences.
 */
export interface RunStore {
  /** Insert or replace a run record. */
  putRun(row: RunRow): Promise<void>;
  /** Forget a run record (its event log is separate: see `dropEvents`); whether it existed. */
  removeRun(runId: string): Promise<boolean>;
  /** Every run record, in insertion order. */
  runs(): Promise<readonly RunRow[]>;
  /**
   * Allocate the next sequence of `runId` (0 for a run without events) and store `build(sequence)` under it, in one
   * transaction. `build` is called exactly once, synchronously, inside the transaction; the event it returns must
   * carry `runId` and that `sequence` (the back-end refuses anything else). Resolves with the stored event. A
   * `build` that throws aborts the append and nothing is stored.
   */
  appendEvent(runId: string, build: (sequence: number) => RunEvent): Promise<RunEvent>;
  /** Events of `runId` with sequence ≥ `fromSeq` (default 0), in sequence order; [] for an unknown run. */
  readEvents(runId: string, fromSeq?: number): Promise<readonly RunEvent[]>;
  /** The run's highest sequence, or -1 when it has no events. */
  lastSequence(runId: string): Promise<number>;
  /** Every run id that has an event log, in the order each log was started. */
  eventRunIds(): Promise<readonly string[]>;
  /** Drop a run's event log (retention); whether it had one. A later append starts again at sequence 0. */
  dropEvents(runId: string): Promise<boolean>;
}

// ── Commitments (RFC 0068 §C) ─────────────────────────────────────────────────────────────────────────────────

/** An armed commitment: the runtime's commitment document and, for a predicate commitment, its observed state. */
export interface ArmedCommitmentRow {
  readonly tenant: string;
  readonly commitmentId: string;
  /** The commitment as armed (`runtime/commitments/inference.ts` Commitment, tenant bound). */
  readonly commitment: JsonDoc;
  /** Order of arming across the store (ascending); predicate commitments fire in this order. */
  readonly armSeq: number;
  /** Last observed predicate value and transitions counted (predicate commitments; absent until first evaluated). */
  readonly predicate?: PredicateState;
}

export interface PredicateState {
  readonly last: boolean;
  readonly transitions: number;
}

/** One fired condition instance in the ledger. */
export interface FiredRow {
  readonly tenant: string;
  readonly commitmentId: string;
  /** `time:<epoch ms>` or `predicate:<n>`. */
  readonly instance: string;
  readonly firedAt: number;
  /** The commitment as claimed (what `FireClaim.commitment` stored; absent on claims made before schema v2). */
  readonly commitment?: JsonDoc;
}

/** What `claimFire` claims. */
export interface FireClaim {
  readonly tenant: string;
  readonly commitmentId: string;
  readonly instance: string;
  readonly firedAt: number;
  /** Also remove the commitment from the armed set in the same transaction (a time commitment fires once ever). */
  readonly disarm?: boolean;
  /**
   * The commitment document, stored with the claim in the same statement: what a host needs to announce the fire
   * (emit `commitment.fired`) after a crash between the claim and its announcement (runtime/openwop/durable.ts).
   */
  readonly commitment?: JsonDoc;
}

/**
 * The armed set and the fired ledger. `claimFire` is the fire-once guarantee: a conditional insert into the
 * ledger keyed by `(tenant, commitmentId, instance)` that resolves true for exactly one caller ever, across every
 * process sharing the database, and false for every other (concurrent or later) caller.
 */
export interface CommitmentStore {
  /** Add to the armed set; false (nothing changed) when the commitment is already armed. */
  arm(row: Omit<ArmedCommitmentRow, 'armSeq' | 'predicate'>): Promise<boolean>;
  /** Remove from the armed set; whether it was armed. The fired ledger is kept. */
  disarm(tenant: string, commitmentId: string): Promise<boolean>;
  /** The armed set, every tenant, in arming order (for re-arming at start). */
  listArmed(): Promise<readonly ArmedCommitmentRow[]>;
  /** Record a predicate commitment's observed state (no-op when it is not armed). */
  setPredicateState(tenant: string, commitmentId: string, state: PredicateState): Promise<void>;
  /** Claim one condition instance: true for exactly one caller ever (see the interface comment). */
  claimFire(claim: FireClaim): Promise<boolean>;
  /** Whether the instance is in the fired ledger. */
  hasFired(tenant: string, commitmentId: string, instance: string): Promise<boolean>;
  /** The fired ledger, every tenant, in claim order. */
  listFired(): Promise<readonly FiredRow[]>;
}

// ── Distillation schedules (RFC 0062) ─────────────────────────────────────────────────────────────────────────

export interface ScheduleRow {
  readonly scheduleId: string;
  readonly tenant: string;
  /** The schedule as registered (`runtime/distillation/schedule.ts` DistillationSchedule). */
  readonly schedule: JsonDoc;
  /** The latest slot (instant, epoch ms) claimed for this schedule, if any. */
  readonly lastSlot?: number;
}

/** One entry of a schedule's run ledger. */
export interface ScheduleRunRow {
  readonly scheduleId: string;
  readonly slot: number;
  /** The run's outcome document once recorded (absent: claimed, outcome not yet recorded — e.g. a crash mid-run). */
  readonly outcome?: JsonDoc;
}

/**
 * Distillation schedules and their run ledger. `claimRun` is the one-run-per-slot guarantee: a conditional insert
 * keyed by `(scheduleId, slot)` that resolves true for exactly one caller per slot, across processes.
 */
export interface ScheduleStore {
  /** Insert or replace a schedule (its `nextAt` moves on every run). */
  put(row: Omit<ScheduleRow, 'lastSlot'>): Promise<void>;
  /** Delete a schedule and its run ledger; whether it existed. */
  remove(scheduleId: string): Promise<boolean>;
  /** Every schedule with its latest claimed slot, in registration order. */
  list(): Promise<readonly ScheduleRow[]>;
  /** Claim `slot` of the schedule: true for exactly one caller per (scheduleId, slot). */
  claimRun(scheduleId: string, slot: number): Promise<boolean>;
  /** Record the outcome of a claimed run (replaces a previous outcome of that slot). */
  recordOutcome(scheduleId: string, slot: number, outcome: JsonDoc): Promise<void>;
  /** The schedule's run ledger, oldest slot first. */
  runs(scheduleId: string): Promise<readonly ScheduleRunRow[]>;
}

// ── Consolidation (RFC 0068 §D) ───────────────────────────────────────────────────────────────────────────────

/** The last consolidation pass over a memoryRef: where its event was appended. */
export interface ConsolidationPassRow {
  readonly tenant: string;
  readonly memoryRef: string;
  /** The pass record (event id, run id, time, payload). */
  readonly pass: JsonDoc;
}

/** Consolidation state: the last pass per memoryRef (the entries and events it wrote go through their own stores). */
export interface ConsolidationStore {
  recordPass(row: ConsolidationPassRow): Promise<void>;
  lastPass(tenant: string, memoryRef: string): Promise<JsonDoc | undefined>;
  /** Every memoryRef's last pass, for loading at start. */
  all(): Promise<readonly ConsolidationPassRow[]>;
}

// ── Replay snapshots (RFC 0039 §B) ────────────────────────────────────────────────────────────────────────────

/** One memory mutation in the replay journal. */
export interface JournalRow {
  /** Global journal sequence, assigned by the runtime (strictly increasing). */
  readonly jseq: number;
  readonly memoryRef: string;
  /** The journal record (`runtime/multi-agent/replay-snapshots.ts` JournalRecord). */
  readonly record: JsonDoc;
}

/** One event's watermark: the journal head and clock when the run's event `seq` was appended. */
export interface WatermarkRow {
  readonly runId: string;
  readonly seq: number;
  readonly jseq: number;
  readonly at: number;
}

/** The replay journal and the per-event watermarks forks are anchored on. */
export interface ReplayStore {
  appendJournal(row: JournalRow): Promise<void>;
  /** Delete journal records with jseq ≤ `throughJseq` (retention); how many were deleted. */
  pruneJournal(throughJseq: number): Promise<number>;
  /** Retained journal records in jseq order. */
  journal(): Promise<readonly JournalRow[]>;
  putWatermark(row: WatermarkRow): Promise<void>;
  /** Every watermark, ordered by (runId, seq). */
  watermarks(): Promise<readonly WatermarkRow[]>;
  /** Forget a run's watermarks (its log was dropped); how many were deleted. */
  dropWatermarks(runId: string): Promise<number>;
}

// ── Operator questions (P066 Decision 11) ─────────────────────────────────────────────────────────────────────

export interface QuestionRow {
  readonly tenant: string;
  readonly ref: string;
  /** The question record (request, state, answer, deadline…) as the runtime keeps it. */
  readonly record: JsonDoc;
  /** Every state DTO (inquirium.operator-question.state.v1) the question went through, oldest first. */
  readonly history: readonly JsonDoc[];
}

/** Operator questions per (tenant, ref). `transition` replaces the record and appends its state DTO in one transaction. */
export interface QuestionStore {
  transition(tenant: string, ref: string, record: JsonDoc, stateDto: JsonDoc): Promise<void>;
  /** Forget a question and its history (retention); whether it existed. */
  remove(tenant: string, ref: string): Promise<boolean>;
  get(tenant: string, ref: string): Promise<QuestionRow | undefined>;
  /** Every question of every tenant, in the order each was opened. */
  all(): Promise<readonly QuestionRow[]>;
}

// ── Transcripts and traces (P066 Decisions 9, 10) ─────────────────────────────────────────────────────────────

/**
 * An append-only log of JSON documents (the transcript's lines, the trace stream's envelopes). The JSONL file
 * stores in `runtime/inquirium/storage/` remain the local-file option; this is the database-backed one.
 */
export interface DocumentLog {
  /** Append a document; resolves with its position (0, 1, …). */
  append(doc: JsonDoc): Promise<number>;
  /** Every document in append order. */
  all(): Promise<readonly JsonDoc[]>;
}

// ── Proposals and installed artefacts (RFC 0096) ──────────────────────────────────────────────────────────────

/** A proposal as the runtime stores it (`runtime/proposals/store.ts` StoredProposal). */
export interface ProposalRow {
  readonly proposalId: string;
  readonly tenant: string;
  readonly proposal: JsonDoc;
}

/** An approval gate (`runtime/proposals/store.ts` StoredGate). */
export interface ApprovalGateRow {
  readonly approvalId: string;
  readonly proposalId: string;
  readonly gate: JsonDoc;
}

/** An artefact an applied proposal installed (`runtime/proposals/store.ts` InstalledArtifact). */
export interface InstalledArtifactRow {
  readonly tenant: string;
  readonly proposalId: string;
  readonly artifact: JsonDoc;
}

/**
 * RFC 0096 proposals, their approval gates, and the registry of installed artefacts (the one place whose content
 * influences how runs are resolved). Proposals and gates are replaced whole by id; installs are appended.
 */
export interface ProposalRecordStore {
  /** Insert or replace the proposal `proposalId`. */
  put(row: ProposalRow): Promise<void>;
  /** Every proposal of every tenant, in the order each was first stored. */
  all(): Promise<readonly ProposalRow[]>;
  /** Insert or replace the gate `approvalId`. */
  putGate(row: ApprovalGateRow): Promise<void>;
  /** Every gate, in the order each was first stored. */
  gates(): Promise<readonly ApprovalGateRow[]>;
  /** Append an installed artefact. */
  install(row: InstalledArtifactRow): Promise<void>;
  /** Every installed artefact of every tenant, in install order. */
  installed(): Promise<readonly InstalledArtifactRow[]>;
}

// ── Several host processes on one store (PostgreSQL) ──────────────────────────────────────────────────────────

/** The active host as it published itself: where it answers and the fencing epoch it holds. */
export interface ActiveHost {
  readonly url: string;
  readonly epoch: number;
}

/**
 * The lease that makes one host process the active one among all processes sharing a store (runtime/host/cluster/).
 * The active host alone keeps the working state and writes; the others forward their requests to it and wait to
 * take over. Holding the lease is decided by the database (PostgreSQL: a session-level advisory lock, released when
 * the holder's session ends — kill -9 included). Taking it raises the store's fencing epoch, and from then on every
 * write transaction of this port first checks that the epoch is still its own: a process that lost the lease
 * without noticing (its session died, it did not) can no longer commit anything.
 */
export interface LeaderLease {
  /** Wait until this process holds the lease (polling while another does); resolves with its fencing epoch. */
  acquire(signal?: AbortSignal): Promise<number>;
  /** Publish where the active host answers, once it has loaded its state and serves. */
  publish(url: string): Promise<void>;
  /** The active host as last published, or undefined while none has (one is starting, or none is running). */
  active(): Promise<ActiveHost | undefined>;
  /** Called once if a held lease is lost (its session failed): the process must stop serving. */
  onLost(listener: (err: Error) => void): void;
  /** Give the lease up (idempotent); another process may then take it. */
  release(): Promise<void>;
}

/** A write refused because this process no longer holds the lease it took (another process took it since). */
export class LeaseFencedError extends WopkitError<'lease_fenced'> {
  constructor(readonly held: number, readonly current: number | undefined) {
    super('lease_fenced', `this host process holds lease epoch ${held} but the store is at epoch ${current ?? 'none'}: another process became the active host, so this one may no longer write`);
  }
}

// ── The port ──────────────────────────────────────────────────────────────────────────────────────────────────

export interface StoragePort {
  readonly kind: StoreKind;
  readonly memory: MemoryEntryStore;
  readonly runs: RunStore;
  readonly commitments: CommitmentStore;
  readonly schedules: ScheduleStore;
  readonly consolidation: ConsolidationStore;
  readonly replay: ReplayStore;
  readonly questions: QuestionStore;
  readonly transcripts: DocumentLog;
  readonly traces: DocumentLog;
  readonly proposals: ProposalRecordStore;
  /** Where the data lives, for the start line (a path, a redacted URL, or `memory`). */
  readonly location: string;
  /**
   * Optional group commit: run `f`, whose port calls (made one after another, each awaited) then commit together
   * in one transaction when `f` resolves, or not at all when it rejects. Their promises resolve before that commit,
   * so only the caller of `batch` may act on them, after `batch` resolved. Nothing else may use the port while a
   * batch runs. The write queue (write-queue.ts) uses it to commit one request's writes with one sync to disk.
   */
  batch?<T>(f: () => Promise<T>): Promise<T>;
  /**
   * The active-host lease, on a back-end several host processes may share (PostgreSQL). One lease per process: it
   * holds a database session of its own, and taking it fences every later write of this port to its epoch.
   */
  lease?(): LeaderLease;
  /** Release the database (idempotent). Every call after close rejects. */
  close(): Promise<void>;
}

/** The store's schema is newer than this code knows: refuse to open rather than misread it. */
export class StoreVersionError extends WopkitError<'store_version_newer'> {
  constructor(readonly found: number, readonly supported: number, location: string) {
    super('store_version_newer', `the store at ${location} has schema version ${found}, newer than this wopkit supports (${supported}); upgrade wopkit or use another data directory`);
  }
}

/** One migration step, as data: applied in order, each in a transaction, recorded in `schema_version`. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
