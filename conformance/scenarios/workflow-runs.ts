/**
 * Upstream's MUSTs on runs, forks and interrupts that a host can fail (issue 24), checked through the fixtures
 * upstream's fixtures.md defines — so a host author learns them here first:
 * - `conformance-noop`: POST /v1/runs answers 201 with runId and status; the run reaches `completed` (within the 5 s
 *   the fixture allows) with run.started, node.completed, run.completed in that order; a snapshot echoes its runId; an
 *   unknown run is 404 (or 403). A host advertising write attribution emits content-free memory.written for it.
 * - fork (`replay` advertised): 201 with a new runId, sourceRunId and mode; the fork reaches `completed`; a replay
 *   re-emits its source's memory.written ids and no new one; negative fromSeq 400, past the log 422, a replay with a
 *   run-options overlay 400, an unknown run 404 (or 403).
 * - `conformance-approval`: the run waits at node `gate` (currentNodeId); an answer to another node is 404, an action
 *   outside {accept, reject} 400 (and the run still waits); accept is 200, then approval.received and `completed`; a
 *   second answer is refused.
 * - `conformance-agent-low-confidence` (CP-1): the agent's decision below the threshold suspends the run
 *   (`waiting-approval`) with `node.suspended {reason: low-confidence, agentId, threshold, observed < threshold}` after
 *   `agent.decided`; accepting it completes the run.
 */
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { get, type Discovery, type Scenario, type ScenarioContext } from '../scenario.ts';
import * as gate from './gates.ts';
import { sleep } from './util.ts';

interface Snapshot { runId: string; status: string; currentNodeId?: string; error?: { code: string } }
interface Ev { type: string; nodeId?: string; payload: Record<string, unknown> }

const NOOP = 'conformance-noop';
const LOW_CONFIDENCE = 'conformance-agent-low-confidence';
const APPROVAL = 'conformance-approval';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** Start a run of a fixture; its runId (the status and body are checked). */
async function start(t: ScenarioContext, workflowId: string): Promise<string | undefined> {
  const r = await t.call<{ runId?: unknown; status?: unknown }>(ROUTES.runStart, { body: { workflowId } });
  t.equal(r.status, 201, `POST /v1/runs ${workflowId} status`);
  t.check(typeof r.body.runId === 'string' && typeof r.body.status === 'string', 'POST /v1/runs answers a runId and a status string');
  return typeof r.body.runId === 'string' ? r.body.runId : undefined;
}

/** Read a run until `done` holds (a host may execute after answering), at most `ms`; the last snapshot. */
async function until(t: ScenarioContext, runId: string, done: (s: Snapshot) => boolean, ms: number): Promise<Snapshot> {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await t.call<Snapshot>(ROUTES.runRead, { params: { runId } });
    if (done(r.body) || Date.now() >= deadline) return r.body;
    await sleep(100);
  }
}

const eventsOf = async (t: ScenarioContext, runId: string): Promise<Ev[]> => (await t.call<{ events: Ev[] }>(ROUTES.runEvents, { params: { runId } })).body.events ?? [];
const writtenIds = (events: readonly Ev[]): string[] => events.filter((e) => e.type === 'memory.written').map((e) => String(e.payload['memoryId']));
const emitsWriteEvents = (d: Discovery) => get(d, 'memory.attribution.supported') === true && get(d, 'memory.attribution.emitsWriteEvents') === true;
const replayModes = (d: Discovery): string[] => (get(d, 'replay.supported') === true && Array.isArray(get(d, 'replay.modes')) ? (get(d, 'replay.modes') as string[]) : []);
const replayAdvertised = (d: Discovery) => (replayModes(d).length > 0 ? undefined : 'replay.supported with a non-empty replay.modes is not advertised');

/** A completed noop run (or the scenario stops with what it found). */
async function completedNoop(t: ScenarioContext): Promise<string | undefined> {
  const runId = await start(t, NOOP);
  if (runId === undefined) return undefined;
  const snap = await until(t, runId, (s) => TERMINAL.has(s.status), 5000);
  return t.equal(snap.status, 'completed', 'conformance-noop terminal status (within 5 s)') ? runId : undefined;
}

export const workflowRunScenarios: Scenario[] = [
  {
    id: 'run-lifecycle-noop',
    title: 'A conformance-noop run is created (201), reaches completed with run.started, node.completed, run.completed in order, and an unknown run is 404',
    rfc: 'upstream rest-endpoints.md (POST /v1/runs, GET /v1/runs/{runId}); fixtures.md conformance-noop; RFC 0057',
    profile: 'runs',
    gate: gate.fixtures(NOOP),
    async run(t) {
      t.req('openwop.requirement.proposed.core.run-lifecycle');
      const runId = await completedNoop(t);
      if (runId === undefined) return;
      const snap = await until(t, runId, () => true, 0);
      t.equal(snap.runId, runId, 'the snapshot echoes its runId');
      const events = await eventsOf(t, runId);
      const at = (type: string) => events.findIndex((e) => e.type === type);
      const nodes = events.filter((e) => e.type === 'node.completed');
      t.check(at('run.started') === 0 && at('run.started') < at('node.completed') && at('node.completed') < at('run.completed'), `events in order run.started, node.completed, run.completed (got ${events.map((e) => e.type).join(', ')})`);
      t.equal(nodes.length, 1, 'node.completed events of the single noop node');
      t.equal(events.at(-1)?.type, 'run.completed', 'the last event of a completed run');
      if (emitsWriteEvents(t.discovery)) {
        t.req('openwop.requirement.proposed.agent-memory.write-attribution');
        const written = events.filter((e) => e.type === 'memory.written');
        t.check(written.length > 0, 'the run wrote memory (its summary) but emitted no memory.written');
        for (const e of written) t.check(typeof e.payload['memoryId'] === 'string' && typeof e.payload['memoryRef'] === 'string' && !('content' in e.payload), 'memory.written carries memoryRef and memoryId and no content');
      }
      t.req('openwop.requirement.proposed.core.run-lifecycle');
      const unknown = await t.call(ROUTES.runRead, { params: { runId: 'conformance-no-such-run' } }, { seam: false, refusal: true });
      t.check([403, 404].includes(unknown.status), `an unknown run answered ${unknown.status}, not 404 or 403`);
    },
  },
  {
    id: 'replay-fork-workflow',
    title: 'A fork of a completed noop run is 201 with sourceRunId and mode and runs to completed; a replay re-emits the recorded memory ids; out-of-range and overlay refusals',
    rfc: 'upstream rest-endpoints.md (POST /v1/runs/{runId}:fork), replay.md (recorded facts are fixed history), profiles.md openwop-replay-fork; RFC 0057 §D',
    profile: 'replay-fork',
    gate: gate.both(replayAdvertised, gate.fixtures(NOOP)),
    async run(t) {
      t.req('openwop.requirement.proposed.core.replay-fork');
      const source = await completedNoop(t);
      if (source === undefined) return;
      const recorded = writtenIds(await eventsOf(t, source));
      // Every advertised mode forks the same source; the forks are then awaited together (a host may run them later).
      const forks = [];
      for (const mode of replayModes(t.discovery).filter((m) => m === 'replay' || m === 'branch')) {
        const body = mode === 'branch' ? { fromSeq: 0, mode, runOptionsOverlay: {} } : { fromSeq: 0, mode };
        const fork = await t.call<{ runId: string; sourceRunId?: string; mode?: string }>(ROUTES.runFork, { params: { runId: source }, body });
        t.equal(fork.status, 201, `${mode} fork status`);
        t.check(typeof fork.body.runId === 'string' && fork.body.runId !== source, `the ${mode} fork has a new runId`);
        t.equal([fork.body.sourceRunId, fork.body.mode], [source, mode], `the ${mode} fork echoes sourceRunId and mode`);
        if (typeof fork.body.runId === 'string') forks.push({ mode, runId: fork.body.runId });
      }
      const ended = await Promise.all(forks.map((f) => until(t, f.runId, (s) => TERMINAL.has(s.status), 15_000)));
      for (const [i, { mode, runId }] of forks.entries()) {
        t.equal(ended[i]!.status, 'completed', `the ${mode} fork's terminal status`);
        if (mode === 'replay' && emitsWriteEvents(t.discovery)) {
          const replayed = writtenIds(await eventsOf(t, runId));
          t.req('openwop.requirement.proposed.agent-memory.write-attribution').equal([...replayed].sort(), [...recorded].sort(), "memory.written ids of the replay (the source's, re-emitted: none missing, none new)");
          t.req('openwop.requirement.proposed.core.replay-fork');
        }
      }
      const refuse = async (body: Record<string, unknown>, runId: string, statuses: readonly number[], what: string) => {
        const r = await t.call(ROUTES.runFork, { params: { runId }, body }, { seam: false, refusal: true });
        t.check(statuses.includes(r.status), `${what}: answered ${r.status}, not ${statuses.join(' or ')}`);
      };
      await refuse({ fromSeq: -1 }, source, [400], 'a negative fromSeq');
      await refuse({ fromSeq: 99_999 }, source, [422], 'a fromSeq past the source run\'s event log');
      if (replayModes(t.discovery).includes('replay')) await refuse({ fromSeq: 0, mode: 'replay', runOptionsOverlay: { configurable: { recursionLimit: 50 } } }, source, [400], 'a replay with a non-empty runOptionsOverlay');
      await refuse({ fromSeq: 0 }, 'conformance-no-such-run', [403, 404], 'a fork of an unknown run');
    },
  },
  {
    id: 'interrupt-approval-gate',
    title: 'A conformance-approval run waits at node gate; another node is 404, an action outside accept|reject 400; accept resumes it to completed, once',
    rfc: 'upstream rest-endpoints.md (POST /v1/runs/{runId}/interrupts/{nodeId}), fixtures.md conformance-approval, interrupt.md',
    profile: 'interrupts',
    gate: gate.fixtures(APPROVAL),
    async run(t) {
      t.req('openwop.requirement.proposed.core.interrupt-approval');
      const runId = await start(t, APPROVAL);
      if (runId === undefined) return;
      const waiting = await until(t, runId, (s) => s.status !== 'running', 10_000);
      t.equal([waiting.status, waiting.currentNodeId], ['waiting-approval', 'gate'], 'status and currentNodeId of the suspended run');
      const answer = (nodeId: string, resumeValue: Record<string, unknown>, refusal = false) =>
        t.call<Snapshot>(ROUTES.runInterruptResolve, { params: { runId, nodeId }, body: { resumeValue } }, { seam: false, refusal });
      const elsewhere = await answer('no-such-node', { action: 'accept' }, true);
      t.equal(elsewhere.status, 404, 'an answer to a node the run does not wait on');
      for (const action of ['maybe', 'approve']) {
        const bad = await answer('gate', { action }, true);
        t.check([400, 422].includes(bad.status), `action ${action} for the approval gate answered ${bad.status}, not 400 or 422`);
      }
      t.equal((await until(t, runId, () => true, 0)).status, 'waiting-approval', 'status after the refused answers');
      const accepted = await answer('gate', { action: 'accept' });
      t.equal(accepted.status, 200, 'accept');
      const done = await until(t, runId, (s) => TERMINAL.has(s.status), 10_000);
      t.equal(done.status, 'completed', 'terminal status after accept');
      const types = (await eventsOf(t, runId)).map((e) => e.type);
      t.check(types.includes('interrupt.requested') && types.indexOf('interrupt.requested') < types.indexOf('approval.received'), `interrupt.requested, then approval.received (got ${types.join(', ')})`);
      const again = await answer('gate', { action: 'accept' }, true);
      t.check([404, 409].includes(again.status), `a second answer answered ${again.status}, not 409 (or 404)`);
    },
  },
  {
    id: 'agent-low-confidence-suspends',
    title: 'A conformance agent\'s low-confidence decision suspends its run with node.suspended (reason low-confidence, observed below threshold) until accepted',
    rfc: 'upstream RFC 0002 CP-1 (agentConfidenceEscalation), fixtures.md conformance-agent-low-confidence; RFC 0039 §A floor',
    profile: 'multi-agent',
    gate: gate.both((d: Discovery) => (get(d, 'agents.supported') === true ? undefined : 'agents.supported is not true'), gate.fixtures(LOW_CONFIDENCE)),
    async run(t) {
      t.req('openwop.requirement.proposed.core.agent-confidence-escalation');
      const runId = await start(t, LOW_CONFIDENCE);
      if (runId === undefined) return;
      const waiting = await until(t, runId, (s) => s.status !== 'running', 10_000);
      t.equal(waiting.status, 'waiting-approval', 'status of the run after its low-confidence decision');
      const events = await eventsOf(t, runId);
      const decided = events.findIndex((e) => e.type === 'agent.decided');
      const suspended = events.findIndex((e) => e.type === 'node.suspended' && e.payload['reason'] === 'low-confidence');
      t.check(decided !== -1 && suspended > decided, `agent.decided, then node.suspended {reason: low-confidence} (got ${events.map((e) => e.type).join(', ')})`);
      const p = events[suspended]?.payload ?? {};
      t.check(typeof p['agentId'] === 'string' && typeof p['threshold'] === 'number' && typeof p['observed'] === 'number' && (p['observed'] as number) < (p['threshold'] as number), `node.suspended names the agent and an observed confidence below the threshold (got ${JSON.stringify(p)})`);
      if (waiting.currentNodeId === undefined) return void t.check(false, 'the suspended run names no currentNodeId to answer');
      const accepted = await t.call<Snapshot>(ROUTES.runInterruptResolve, { params: { runId, nodeId: waiting.currentNodeId }, body: { resumeValue: { action: 'accept' } } }, { seam: false });
      t.equal(accepted.status, 200, 'accepting the decision');
      t.equal((await until(t, runId, (s) => TERMINAL.has(s.status), 10_000)).status, 'completed', 'terminal status after accept');
    },
  },
];
