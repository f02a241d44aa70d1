/**
 * Runs: which run exists, which tenant and memory scope it belongs to, how it started — rows of the store, read when
 * a request needs them. Starting a run plans its row (counted against its tenant's bound for its kind while it is
 * live) and its `run.started` event; ending it stops the count, and retention retires it later.
 */
import type { ForkOrigin } from '../../generated/ts/index.ts';
import type { RunEventLog } from '../events/log.ts';
import type { IdSource, Clock } from '../shared/clock.ts';
import type { JsonDoc, RunBound, RunKind, RunRow, StoredDoc, Tx } from '../storage/index.ts';
import type { SnapshotAnchor } from '../memory/tenant-reader.ts';
import { workflowDefinitionOf, type ForkMode, type WorkflowDefinition } from './workflow-definition.ts';
import { isForkOrigin } from '../../generated/guards/index.ts';

export interface RunRecord {
  readonly runId: string;
  readonly tenant: string;
  readonly memoryRef: string;
  readonly workflowId: string;
  readonly parentRunId?: string;
  readonly forkedFrom?: Readonly<ForkOrigin>;
  /** The workflow the run executes (a workflow run, and its forks: runtime/openwop/workflow-engine.ts). */
  readonly workflow?: WorkflowDefinition;
  /** A fork's mode. */
  readonly forkMode?: ForkMode;
}

/**
 * The runs table's decoder for a run's record (what `start` stored); undefined for a row that holds no run record (a
 * background log's row, a fixture run of a 0.2 store).
 */
export function runRecordOf(doc: JsonDoc): RunRecord | undefined {
  const { runId, tenant, memoryRef, workflowId, parentRunId, forkedFrom, workflow, forkMode } = doc;
  if (typeof runId !== 'string' || typeof tenant !== 'string' || typeof memoryRef !== 'string' || typeof workflowId !== 'string') return undefined;
  const definition = workflow === undefined ? undefined : workflowDefinitionOf(workflow);
  if (workflow !== undefined && definition === undefined) return undefined;
  return {
    runId, tenant, memoryRef, workflowId,
    ...(typeof parentRunId === 'string' ? { parentRunId } : {}),
    ...(isForkOrigin(forkedFrom) ? { forkedFrom } : {}),
    ...(definition !== undefined ? { workflow: definition } : {}),
    ...(forkMode === 'replay' || forkMode === 'branch' ? { forkMode } : {}),
  };
}

/** How many live runs of each bounded kind one tenant may hold. */
export interface RunBounds {
  /** Runs a client started that have not ended (e.g. waiting on an interrupt). */
  readonly runsPerTenant: number;
  /** Forks (each holds its snapshot against journal pruning while it lives). */
  readonly forksPerTenant: number;
  /** Follow-up runs of fired commitments not yet taken up. */
  readonly followUpRunsPerTenant: number;
  /** Ended runs kept readable until retention retires them (past it, the oldest go first). */
  readonly endedRunsPerTenant: number;
}

export const DEFAULT_RUN_BOUNDS: RunBounds = { runsPerTenant: 10_000, forksPerTenant: 1_000, followUpRunsPerTenant: 1_000, endedRunsPerTenant: 10_000 };

/** The quota each bounded kind counts against. */
export function runBoundsByKind(b: RunBounds): Readonly<Partial<Record<RunKind, RunBound>>> {
  return {
    run: { resource: 'runs', limit: b.runsPerTenant },
    fork: { resource: 'forks', limit: b.forksPerTenant },
    'follow-up': { resource: 'follow-up-runs', limit: b.followUpRunsPerTenant },
  };
}

export interface StartRun {
  readonly runId?: string;
  readonly workflowId: string;
  readonly memoryRef: string;
  readonly parentRunId?: string;
  readonly memoryScopeIsolation?: 'inherit' | 'isolated';
  readonly forkedFrom?: Readonly<ForkOrigin>;
  readonly kind?: RunKind;
  readonly status?: string;
  /** A fork's snapshot anchor. */
  readonly anchor?: SnapshotAnchor;
  /** The fixture a test fixture's run belongs to. */
  readonly fixtureRef?: string;
  /** The workflow the run executes, kept on its row. */
  readonly workflow?: WorkflowDefinition;
  /** A fork's mode. */
  readonly forkMode?: ForkMode;
}

export class Runs {
  readonly #clock: Clock;
  readonly #ids: IdSource;
  readonly #log: RunEventLog;
  readonly #tenantOf: (memoryRef: string) => string | undefined;
  readonly bounds: RunBounds;
  readonly #byKind: Readonly<Partial<Record<RunKind, RunBound>>>;

  constructor(o: { readonly clock: Clock; readonly ids: IdSource; readonly log: RunEventLog; readonly tenantOf: (memoryRef: string) => string | undefined; readonly bounds?: Partial<RunBounds> }) {
    this.#clock = o.clock;
    this.#ids = o.ids;
    this.#log = o.log;
    this.#tenantOf = o.tenantOf;
    this.bounds = { ...DEFAULT_RUN_BOUNDS, ...o.bounds };
    this.#byKind = runBoundsByKind(this.bounds);
  }

  /** The bound a kind of run counts against while live (none for kinds that are bounded otherwise). */
  boundOf(kind: RunKind): RunBound | undefined {
    return this.#byKind[kind];
  }

  /** Every bounded kind's bound, for operations that remove runs. */
  get bounded(): Readonly<Partial<Record<RunKind, RunBound>>> {
    return this.#byKind;
  }

  /** Plan a run's start (its row and `run.started`); refused at commit when the id is taken or the tenant is at its bound. */
  start(tx: Tx, r: StartRun): RunRecord {
    const tenant = this.#tenantOf(r.memoryRef);
    if (tenant === undefined) throw new RangeError('memoryRef does not resolve to a tenant');
    const record: RunRecord = {
      runId: r.runId ?? this.#ids.next('run'),
      tenant,
      memoryRef: r.memoryRef,
      workflowId: r.workflowId,
      ...(r.parentRunId !== undefined ? { parentRunId: r.parentRunId } : {}),
      ...(r.forkedFrom !== undefined ? { forkedFrom: r.forkedFrom } : {}),
      ...(r.workflow !== undefined ? { workflow: r.workflow } : {}),
      ...(r.forkMode !== undefined ? { forkMode: r.forkMode } : {}),
    };
    const kind = r.kind ?? 'run';
    const bound = this.boundOf(kind);
    tx.add('run.create', {
      runId: record.runId, tenant, kind, status: r.status ?? 'running', createdMs: this.#clock.now(), doc: record,
      ...(r.parentRunId !== undefined ? { parentRunId: r.parentRunId } : {}),
      ...(r.anchor !== undefined ? { anchor: r.anchor } : {}),
      ...(r.fixtureRef !== undefined ? { fixtureRef: r.fixtureRef } : {}),
      ...(bound !== undefined ? { bound } : {}),
    });
    this.#log.append(tx, record.runId, {
      type: 'run.started',
      payload: {
        workflowId: record.workflowId,
        memoryRef: record.memoryRef,
        ...(record.parentRunId !== undefined ? { parentRunId: record.parentRunId, memoryScopeIsolation: r.memoryScopeIsolation ?? 'inherit' } : {}),
        ...(record.forkedFrom !== undefined ? { forkedFrom: record.forkedFrom } : {}),
      },
    });
    return record;
  }

  /** Plan a change of a run's status (and record); `ended` ends it. */
  update(tx: Tx, run: { readonly runId: string; readonly tenant: string; readonly kind: string }, change: { readonly status?: string; readonly doc?: StoredDoc; readonly ended?: boolean; readonly expectStatus?: string }): void {
    const bound = this.boundOf(run.kind as RunKind);
    tx.add('run.update', {
      runId: run.runId, tenant: run.tenant,
      ...(change.status !== undefined ? { status: change.status } : {}),
      ...(change.doc !== undefined ? { doc: change.doc } : {}),
      ...(change.ended === true ? { endedMs: this.#clock.now(), endedKept: this.bounds.endedRunsPerTenant } : {}),
      ...(bound !== undefined ? { bound } : {}),
      ...(change.expectStatus !== undefined ? { expectStatus: change.expectStatus } : {}),
    });
  }

  /** The run's record, if it exists. */
  async get(tx: Tx, runId: string): Promise<RunRecord | undefined> {
    const row = await tx.read.runGet(runId);
    return row === undefined ? undefined : runRecordOf(row.doc);
  }

  /** The run's row (kind, status, anchor, …), if it exists. */
  row(tx: Tx, runId: string): Promise<RunRow | undefined> {
    return tx.read.runGet(runId);
  }

  /** The tenant a run belongs to, if it exists. */
  async tenantOf(tx: Tx, runId: string): Promise<string | undefined> {
    return (await tx.read.runGet(runId))?.tenant;
  }
}
