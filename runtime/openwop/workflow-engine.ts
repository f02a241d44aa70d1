/**
 * Workflow runs: the runtime's run, fork and interrupt code for runs of a workflow definition — a list of nodes
 * executed in order (`core.noop`, `core.approvalGate`), and, when the definition asks for it, a run summary written
 * to the run's memory scope on completion (through the SR-1 chokepoint, so it is attributed by `memory.written`).
 *
 * Nothing of a run is kept in the process: the definition travels on the run's row, and where a run stands is read
 * back from its event log each time (`progressOf`). Every operation plans its events and row changes into the
 * request's tx, so a start, an answer or a fork commits in one transaction — on whichever host serves it.
 *
 * - start: the run row and `run.started`, then the nodes until the run ends or a gate suspends it (waiting-approval).
 * - resume: an answer to the node a run waits on (by node id, or by the interrupt's id); the gate's own actions only;
 *   exactly once (a claim on the interrupt, refused as 409 interrupt_already_resolved for every other answer).
 * - fork: a new run from a past event of the source. Its log re-emits the source's events before fromSeq (fixed
 *   history), then the run executes again: a `replay` takes every recorded fact from the source's log — an
 *   interrupt's answer, a memory write (re-emitted as `memory.written` with the source's ids, never re-done) — and
 *   fails closed (`replay_source_missing`) at a write the source never recorded; a `branch` does everything anew.
 *   Memory reads of the fork see the memory as of fromSeq (the MAE-3 anchor).
 *
 * The protected steps (complete, recorded, interruptedNode, admits, executeFork) are what the test-only mutant hosts
 * (runtime/host/mutants.ts) override to build a host broken in its run, fork or interrupt code.
 */
import type { ResumeValue, RunEvent, RunSnapshot, RunStatus } from '../../generated/ts/index.ts';
import type { RunEventLog } from '../events/log.ts';
import type { MemoryWriter } from '../memory/writer.ts';
import { InterruptAlreadyResolvedError, InterruptNotFoundError } from '../multi-agent/escalation.ts';
import { forkAnchor } from '../multi-agent/replay-snapshots.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { WopkitError } from '../shared/errors.ts';
import { toWireRefusal, type Tx } from '../storage/index.ts';
import type { RunRecord, Runs } from './runs.ts';
import type { ApprovalAction, ForkMode, WorkflowDefinition, WorkflowNode } from './workflow-definition.ts';

export type { ApprovalAction, ForkMode, WorkflowDefinition, WorkflowNode, WorkflowNodeType } from './workflow-definition.ts';

/** Where a workflow run stands: what its snapshot shows besides its id and variables. */
export type WorkflowState = Readonly<Pick<RunSnapshot, 'status' | 'currentNodeId' | 'interrupt' | 'error'>>;

/** An answer outside the node's resume schema: 400 validation_failed naming /resumeValue/action. */
export class ResumeValueRefusedError extends WopkitError<'resume_value_refused'> {
  constructor(nodeId: string, allowed: readonly string[]) {
    const message = `node ${nodeId} takes action ${allowed.join(' or ')}`;
    super('resume_value_refused', message, { error: 'validation_failed', message, details: { failures: [{ instancePath: '/resumeValue/action', message: `must be one of ${allowed.join(', ')}` }] } });
  }
}

/** A failure recorded on a node and its run (never sent as an HTTP error). */
const failure = (code: string, message: string) => ({ code, message });
const APPROVAL_REJECTED = failure('approval_rejected', 'the approval gate was answered reject');
const REPLAY_SOURCE_MISSING = failure('replay_source_missing', 'the replay reached a write its source run never recorded; it is not performed');

/** An event of the log as the engine reads it (read back, or planned in this request). */
export type LogEntry = Pick<RunEvent, 'eventId' | 'type' | 'payload'> & Partial<Pick<RunEvent, 'nodeId' | 'causationId' | 'sequence'>>;

interface NodeProgress {
  started: boolean;
  /** An agent node's decided confidence (agent.decided). */
  decided?: number;
  interruptId?: string;
  /** The answer interrupt.resolved recorded. */
  action?: ApprovalAction;
  /** Whether approval.received followed it. */
  received?: boolean;
  done?: 'completed' | 'failed';
  error?: { code: string; message: string };
}

/** Where a run stands, folded from its log. */
export interface Progress {
  readonly nodes: ReadonlyMap<string, Readonly<NodeProgress>>;
  /** A memory write recorded after the last node finished: the run summary. */
  readonly summaryWritten: boolean;
  readonly ended?: 'completed' | 'failed';
  /** Why the run failed, as its run.failed says. */
  readonly error?: { readonly code: string; readonly message: string };
}

const TERMINAL_NODE = new Set(['node.completed', 'node.failed']);

/** A recorded `{code, message}` (a node's or a run's failure). */
const errorOf = (v: unknown): { code: string; message: string } => {
  const e = v as { code?: unknown; message?: unknown } | undefined;
  return failure(String(e?.code ?? 'failed'), String(e?.message ?? 'the run failed'));
};

/** Fold a run's log: each node's progress, whether the summary was written, whether the run ended. */
export function progressOf(def: WorkflowDefinition, entries: readonly LogEntry[]): Progress {
  const nodes = new Map<string, NodeProgress>(def.nodes.map((n) => [n.nodeId, { started: false }]));
  let summaryWritten = false;
  let ended: Progress['ended'];
  let error: Progress['error'];
  for (const e of entries) {
    const node = e.nodeId === undefined ? undefined : nodes.get(e.nodeId);
    if (node !== undefined) {
      if (e.type === 'node.started') node.started = true;
      else if (e.type === 'agent.decided') node.decided = typeof e.payload['confidence'] === 'number' ? e.payload['confidence'] : 1;
      else if (e.type === 'interrupt.requested') node.interruptId = String(e.payload['interruptId']);
      else if (e.type === 'interrupt.resolved') node.action = e.payload['outcome'] === 'approved' ? 'accept' : 'reject';
      else if (e.type === 'approval.received') node.received = true;
      else if (e.type === 'node.completed') node.done = 'completed';
      else if (e.type === 'node.failed') {
        node.done = 'failed';
        node.error = errorOf(e.payload['error']);
      }
    } else if (e.type === 'memory.written' && e.nodeId === undefined && [...nodes.values()].every((n) => n.done === 'completed')) summaryWritten = true;
    else if (e.type === 'run.completed') ended = 'completed';
    else if (e.type === 'run.failed') {
      ended = 'failed';
      error = errorOf(e.payload['error']);
    }
  }
  return { nodes, summaryWritten, ...(ended !== undefined ? { ended } : {}), ...(error !== undefined ? { error } : {}) };
}

/** The events of a source run a replay takes its recorded facts from. */
export interface ReplaySource {
  readonly runId: string;
  readonly entries: readonly LogEntry[];
}

/** One execution of a run in one request: the tx it writes into and the log as it stands (read, then planned). */
export interface Execution {
  readonly tx: Tx;
  readonly run: RunRecord;
  readonly kind: 'run' | 'fork';
  readonly def: WorkflowDefinition;
  readonly entries: LogEntry[];
  /** Set for a replay fork: recorded facts come from here. */
  readonly replay?: ReplaySource;
}

export interface WorkflowEngineParts {
  /** The confidence floor below which an agent's decision waits for a person (the host's escalation floor). */
  readonly floor: () => number;
  readonly log: RunEventLog;
  readonly runs: Runs;
  readonly writer: MemoryWriter;
  readonly ids: IdSource;
  readonly clock: Clock;
}

export class WorkflowEngine {
  constructor(readonly parts: WorkflowEngineParts) {}

  /** Plan a run of `def` in `memoryRef`'s tenant and execute it until it ends or suspends. */
  async start(tx: Tx, def: WorkflowDefinition, memoryRef: string): Promise<RunRecord> {
    const run = this.parts.runs.start(tx, { workflowId: def.workflowId, memoryRef, workflow: def, kind: 'run', status: 'running' });
    const ex: Execution = { tx, run, kind: 'run', def, entries: [startedEntry(run)] };
    await this.drive(ex);
    return run;
  }

  /**
   * Answer the node `nodeId` (or the interrupt `nodeId` names) that run `runId` waits on, and carry the run on from
   * there. InterruptNotFoundError when the run waits on no such node (or is no workflow run); ResumeValueRefusedError
   * for an action the node does not offer; InterruptAlreadyResolvedError (at commit) for every answer but one.
   */
  async resume(tx: Tx, runId: string, nodeId: string, value: Readonly<ResumeValue>): Promise<void> {
    const run = await this.parts.runs.get(tx, runId);
    const row = run?.workflow === undefined ? undefined : await this.parts.runs.row(tx, runId);
    if (run?.workflow === undefined || row === undefined) throw new InterruptNotFoundError();
    const entries = await this.#read(tx, runId);
    const progress = progressOf(run.workflow, entries);
    const node = this.interruptedNode(run.workflow, progress, nodeId);
    const p = node === undefined ? undefined : progress.nodes.get(node.nodeId);
    if (node === undefined || p?.interruptId === undefined) throw new InterruptNotFoundError();
    if (p.action !== undefined) throw new InterruptAlreadyResolvedError();
    if (progress.ended !== undefined) throw new InterruptNotFoundError();
    const action = this.admits(node, value.action);
    tx.add('claim.take', { key: `interrupt:${runId}:${p.interruptId}`, atMs: this.parts.clock.now(), refuseAs: toWireRefusal(new InterruptAlreadyResolvedError()) });
    const ex: Execution = { tx, run, kind: row.kind === 'fork' ? 'fork' : 'run', def: run.workflow, entries, ...(await this.#replaySourceOf(tx, run)) };
    this.#answer(ex, node, p.interruptId, action, value.decidedAt);
    this.parts.runs.update(tx, { runId, tenant: run.tenant, kind: ex.kind }, { status: 'running', expectStatus: 'waiting-approval' });
    await this.drive(ex);
  }

  /**
   * Plan a fork of `sourceRunId` at `fromSeq` (MAE-3 anchor: memory as of that event) and, when the source ran a
   * workflow, execute it. Refusals: RangeError for an unknown source; ForkSeqOutOfRangeError (422 fork_point_invalid)
   * past the source's last event; ReplayMemorySnapshotUnavailableError (422) when no snapshot can be served.
   */
  async fork(tx: Tx, sourceRunId: string, fromSeq: number, mode: ForkMode = 'replay'): Promise<RunRecord> {
    const row = await this.parts.runs.row(tx, sourceRunId);
    const source = (await this.parts.runs.get(tx, sourceRunId));
    if (row === undefined || source === undefined) throw new RangeError('unknown source run');
    const anchor = await forkAnchor(tx, row, fromSeq);
    const fork = this.parts.runs.start(tx, {
      runId: this.parts.ids.next('run'), workflowId: source.workflowId, memoryRef: source.memoryRef, forkedFrom: { runId: sourceRunId, fromSeq },
      kind: 'fork', status: 'created', anchor, forkMode: mode, ...(source.workflow !== undefined ? { workflow: source.workflow } : {}),
    });
    if (source.workflow !== undefined) await this.executeFork({ tx, run: fork, kind: 'fork', def: source.workflow, entries: [startedEntry(fork)] }, { runId: sourceRunId, entries: await this.#read(tx, sourceRunId) }, fromSeq, mode);
    return fork;
  }

  /** Where a workflow run stands (undefined for a run that executes no workflow). */
  async state(tx: Tx, runId: string): Promise<WorkflowState | undefined> {
    const run = (await this.parts.runs.get(tx, runId));
    const row = run?.workflow === undefined ? undefined : await this.parts.runs.row(tx, runId);
    if (run?.workflow === undefined || row === undefined) return undefined;
    const progress = progressOf(run.workflow, await this.#read(tx, runId));
    const status = row.status as RunStatus;
    if (progress.ended !== undefined) return { status, ...(progress.error !== undefined ? { error: progress.error } : {}) };
    const current = run.workflow.nodes.find((n) => progress.nodes.get(n.nodeId)?.done === undefined);
    const np = current === undefined ? undefined : progress.nodes.get(current.nodeId);
    const waiting = np?.interruptId !== undefined && np.action === undefined;
    return {
      status,
      ...(current !== undefined && status !== 'created' ? { currentNodeId: current.nodeId } : {}),
      ...(waiting ? { interrupt: { interruptId: np.interruptId!, kind: 'approval', nodeId: current!.nodeId } } : {}),
    };
  }

  // ── The steps (protected: the mutant hosts override them) ──────────────────────────────────────────────

  /** Execute a fork: its fixed history (the source's events before fromSeq), then the run from there. */
  protected async executeFork(ex: Execution, source: ReplaySource, fromSeq: number, mode: ForkMode): Promise<void> {
    const ids = new Map<string, string>();
    for (const e of source.entries) {
      if ((e.sequence ?? 0) === 0 || (e.sequence ?? 0) >= fromSeq) continue;
      const causationId = e.causationId === undefined ? undefined : ids.get(e.causationId);
      const copy = this.#append(ex, { type: e.type, payload: e.payload, ...(e.nodeId !== undefined ? { nodeId: e.nodeId } : {}), ...(causationId !== undefined ? { causationId } : {}) });
      ids.set(e.eventId, copy.eventId);
    }
    this.parts.runs.update(ex.tx, { runId: ex.run.runId, tenant: ex.run.tenant, kind: 'fork' }, { status: 'running' });
    await this.drive(mode === 'replay' ? { ...ex, replay: source } : ex);
  }

  /** What a replay takes from its source's log instead of doing a step again (`pick` selects it); undefined when live. */
  protected recorded<T>(ex: Execution, pick: (source: readonly LogEntry[]) => T): T | undefined {
    return ex.replay === undefined ? undefined : pick(ex.replay.entries);
  }

  /** The node whose interrupt (open or answered) `nodeId` names: by the node's id, or by the interrupt's id. */
  protected interruptedNode(def: WorkflowDefinition, progress: Progress, nodeId: string): WorkflowNode | undefined {
    return def.nodes.find((n) => {
      const interruptId = progress.nodes.get(n.nodeId)?.interruptId;
      return interruptId !== undefined && (n.nodeId === nodeId || interruptId === nodeId);
    });
  }

  /** The action an answer carries, if the node offers it (its resume schema); ResumeValueRefusedError otherwise. */
  protected admits(node: WorkflowNode, action: string): ApprovalAction {
    const allowed = node.actions ?? [];
    if (!(allowed as readonly string[]).includes(action)) throw new ResumeValueRefusedError(node.nodeId, allowed);
    return action as ApprovalAction;
  }

  /** The run's last step: its summary (written, or re-emitted by a replay), then `run.completed`. */
  protected async complete(ex: Execution, progress: Progress): Promise<void> {
    if (ex.def.runSummary && !progress.summaryWritten) {
      // A replay never writes: it re-emits what its source recorded (null: the source never got there — fail closed).
      const recorded = this.recorded(ex, summaryWrites);
      if (recorded === null) return this.fail(ex, undefined, REPLAY_SOURCE_MISSING);
      if (recorded !== undefined) for (const e of recorded) this.#append(ex, { type: e.type, payload: e.payload });
      else {
        const { runId, tenant, memoryRef, workflowId } = ex.run;
        await this.parts.writer.put(ex.tx, memoryRef, { content: `Run summary: ${workflowId} completed its ${ex.def.nodes.length} node(s) (${ex.def.nodes.map((n) => n.nodeId).join(', ')}).`, tags: ['run-summary', workflowId] }, { tenant, runId });
      }
    }
    this.#append(ex, { type: 'run.completed', payload: { status: 'completed' } });
    this.parts.runs.update(ex.tx, { runId: ex.run.runId, tenant: ex.run.tenant, kind: ex.kind }, { status: 'completed', ended: true });
  }

  /** The run failed (at `nodeId`, when a node did). */
  protected fail(ex: Execution, nodeId: string | undefined, error: { readonly code: string; readonly message: string }): void {
    this.#append(ex, { type: 'run.failed', payload: { status: 'failed', errorCode: error.code, error: { ...error }, ...(nodeId !== undefined ? { failedNodeId: nodeId } : {}) } });
    this.parts.runs.update(ex.tx, { runId: ex.run.runId, tenant: ex.run.tenant, kind: ex.kind }, { status: 'failed', ended: true });
  }

  // ── Execution ───────────────────────────────────────────────────────────────────────────────────────────

  /** Run the nodes in order until the run ends or a node waits. */
  protected async drive(ex: Execution): Promise<void> {
    for (;;) {
      const progress = progressOf(ex.def, ex.entries);
      if (progress.ended !== undefined) return;
      const failed = ex.def.nodes.find((n) => progress.nodes.get(n.nodeId)?.done === 'failed');
      if (failed !== undefined) return this.fail(ex, failed.nodeId, progress.nodes.get(failed.nodeId)!.error!);
      const next = ex.def.nodes.find((n) => progress.nodes.get(n.nodeId)?.done !== 'completed');
      if (next === undefined) return this.complete(ex, progress);
      if (!this.#step(ex, next, progress.nodes.get(next.nodeId)!)) {
        this.parts.runs.update(ex.tx, { runId: ex.run.runId, tenant: ex.run.tenant, kind: ex.kind }, { status: 'waiting-approval' });
        return;
      }
    }
  }

  /** One step of `node`: false when it waits for an answer. */
  #step(ex: Execution, node: WorkflowNode, p: Readonly<NodeProgress>): boolean {
    const { nodeId, typeId } = node;
    if (!p.started) {
      this.#append(ex, { type: 'node.started', payload: { nodeId, typeId }, nodeId });
      return true;
    }
    if (typeId === 'core.noop') {
      this.#append(ex, { type: 'node.completed', payload: { nodeId, typeId }, nodeId });
      return true;
    }
    const agent = typeId === 'core.conformance.mock-agent' ? node.agent : undefined;
    if (agent !== undefined && p.decided === undefined) {
      this.#append(ex, { type: 'agent.decided', payload: { agentId: agent.agentId, decision: agent.decision, confidence: agent.confidence }, nodeId });
      return true;
    }
    // An agent decided at or above the floor goes on; below it, it waits for a person as a gate does.
    const threshold = this.parts.floor();
    if (p.decided !== undefined && p.decided >= threshold && p.interruptId === undefined) {
      this.#append(ex, { type: 'node.completed', payload: { nodeId, typeId }, nodeId });
      return true;
    }
    if (p.interruptId === undefined) {
      // A replay raises the interrupt its source raised (same id: its answer is the source's recorded one).
      const recorded = this.recorded(ex, (s) => s.filter((e) => e.nodeId === nodeId && e.type === 'interrupt.requested').slice(0, 1));
      const interruptId = recorded?.[0] !== undefined ? String(recorded[0].payload['interruptId']) : this.parts.ids.next('int');
      const lowConfidence = agent !== undefined && p.decided !== undefined;
      this.#append(ex, { type: 'interrupt.requested', payload: { interruptId, kind: 'approval', ...(lowConfidence ? { reasonCode: 'low-confidence' } : {}) }, nodeId });
      if (lowConfidence) this.#append(ex, { type: 'node.suspended', payload: { nodeId, interruptId, kind: 'approval', reason: 'low-confidence', agentId: agent.agentId, threshold, observed: p.decided! }, nodeId });
      return true;
    }
    if (p.action === undefined) {
      // A replay takes the source's recorded answer; otherwise the run waits for a person.
      const answer = this.recorded(ex, (s) => s.filter((e) => e.nodeId === nodeId && e.type === 'interrupt.resolved' && e.payload['interruptId'] === p.interruptId).slice(0, 1))?.[0];
      if (answer === undefined) return false;
      this.#append(ex, { type: answer.type, payload: answer.payload, nodeId });
      return true;
    }
    if (p.received !== true) {
      // upstream's approval event after the answer (a replay re-emits the recorded one)
      const recorded = this.recorded(ex, (s) => s.filter((e) => e.nodeId === nodeId && e.type === 'approval.received' && e.payload['interruptId'] === p.interruptId).slice(0, 1))?.[0];
      this.#append(ex, recorded === undefined ? { type: 'approval.received', payload: { nodeId, action: p.action, interruptId: p.interruptId }, nodeId } : { type: recorded.type, payload: recorded.payload, nodeId });
      return true;
    }
    if (p.action === 'accept') this.#append(ex, { type: 'node.completed', payload: { nodeId, typeId }, nodeId });
    else this.#append(ex, { type: 'node.failed', payload: { nodeId, typeId, error: { ...APPROVAL_REJECTED } }, nodeId });
    return true;
  }

  /** Record a person's answer to a gate: `interrupt.resolved`, then upstream's `approval.received`. */
  #answer(ex: Execution, node: WorkflowNode, interruptId: string, action: ApprovalAction, decidedAt: string | undefined): void {
    const { nodeId } = node;
    const when = decidedAt !== undefined ? { decidedAt } : {};
    this.#append(ex, { type: 'interrupt.resolved', payload: { interruptId, nodeId, kind: 'approval', outcome: action === 'accept' ? 'approved' : 'rejected', ...when }, nodeId });
    this.#append(ex, { type: 'approval.received', payload: { nodeId, action, interruptId, ...when }, nodeId });
  }

  #append(ex: Execution, input: Pick<LogEntry, 'type' | 'payload' | 'nodeId' | 'causationId'>): LogEntry {
    const { eventId } = this.parts.log.append(ex.tx, ex.run.runId, input);
    const entry: LogEntry = { ...input, eventId };
    ex.entries.push(entry);
    return entry;
  }

  /** A replay fork's source events (to re-emit its recorded facts from). */
  async #replaySourceOf(tx: Tx, run: RunRecord): Promise<{ replay?: ReplaySource }> {
    if (run.forkMode !== 'replay' || run.forkedFrom === undefined) return {};
    return { replay: { runId: run.forkedFrom.runId, entries: await this.#read(tx, run.forkedFrom.runId) } };
  }

  /** A run's whole log, page by page. */
  async #read(tx: Tx, runId: string): Promise<LogEntry[]> {
    const out: LogEntry[] = [];
    let from = 0;
    for (;;) {
      const page = await this.parts.log.read(tx, runId, from);
      out.push(...page.events);
      if (page.nextSeq === undefined) return out;
      from = page.nextSeq;
    }
  }
}

/** The `run.started` a run's start planned, as the fold sees it. */
const startedEntry = (run: RunRecord): LogEntry => ({ eventId: '', type: 'run.started', payload: { workflowId: run.workflowId }, sequence: 0 });

/**
 * The memory writes a source recorded after its last node finished and before it completed (its run summary): none
 * when it wrote without attribution; null when the source never completed (nothing to re-emit: a replay fails closed).
 */
function summaryWrites(source: readonly LogEntry[]): readonly LogEntry[] | null {
  const completed = source.findIndex((e) => e.type === 'run.completed');
  if (completed < 0) return null;
  const lastNode = source.findLastIndex((e, i) => i < completed && TERMINAL_NODE.has(e.type));
  return source.slice(lastNode + 1, completed).filter((e) => e.type === 'memory.written' && e.nodeId === undefined);
}
