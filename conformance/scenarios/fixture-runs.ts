/**
 * What upstream's suite checks through runs of seeded fixture workflows (POST /v1/runs, GET /v1/runs/{runId}):
 * the CTI-1 / SR-1 / TTL / round-trip memory probes, and RFC 0039 escalation as a run that stays suspended — and
 * that a person's answer resumes, once.
 */
import { validateMemoryEntry } from '../../generated/validators/validators.js';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import type { Scenario, ScenarioContext } from '../scenario.ts';
import * as gate from './gates.ts';
import { sleep } from './util.ts';

interface Snapshot { runId: string; status: string; variables: Record<string, unknown>; error?: { code: string }; currentNodeId?: string; interrupt?: { interruptId: string; kind: string } }
interface Ev { type: string; eventId: string; causationId?: string; payload: Record<string, unknown> }
interface Entry { id: string; content: string; expiresAt?: string }

const MEMORY_FIXTURES = ['conformance-agent-memory-roundtrip', 'conformance-agent-memory-redaction', 'conformance-agent-memory-ttl', 'conformance-agent-memory-cross-tenant'] as const;
const ESCALATION_FIXTURE = 'conformance-multi-agent-confidence-escalation';

/** Start a fixture run and read it back. */
async function runFixture(t: ScenarioContext, workflowId: string): Promise<Snapshot> {
  const started = await t.call<{ runId: string }>(ROUTES.runStart, { body: { workflowId } });
  t.equal(started.status, 201, `POST /v1/runs ${workflowId} status`);
  const read = await t.call<Snapshot>(ROUTES.runRead, { params: { runId: started.body.runId } });
  return read.body;
}

const entries = (v: unknown): Entry[] => (Array.isArray(v) ? (v as Entry[]) : []);

export const fixtureRunScenarios: Scenario[] = [
  {
    id: 'agent-memory-fixture-runs',
    title: 'Seeded fixture runs witness the round-trip, SR-1, TTL and CTI-1 through POST /v1/runs and their variables',
    rfc: 'Agent memory spec: MemoryAdapter, SR-1, TTL, CTI-1',
    profile: 'agent-memory',
    gate: gate.both(gate.longTerm, gate.fixtures(...MEMORY_FIXTURES)),
    async run(t) {
      t.req('openwop.requirement.proposed.core.run-lifecycle');
      const [roundtrip, redaction, ttl, cti] = await Promise.all(MEMORY_FIXTURES.map((f) => runFixture(t, f)));
      const readback = roundtrip!.variables['memoryReadback'];
      t.req('openwop.requirement.proposed.agent-memory.adapter-read-interface');
      t.equal(roundtrip!.status, 'completed', 'round-trip run status');
      t.check(validateMemoryEntry(readback), 'round-trip memoryReadback is not a MemoryEntry');

      t.req('openwop.requirement.proposed.agent-memory.sr1-secret-redaction');
      t.equal(redaction!.status, 'completed', `SR-1 run status (error ${redaction!.error?.code ?? 'none'})`);
      t.check(/\[REDACTED:[^\]]+\]/.test(String((redaction!.variables['memoryReadback'] as Entry | undefined)?.content)), 'SR-1 read-back carries no [REDACTED:<secretId>] marker');

      t.req('openwop.requirement.proposed.agent-memory.ttl-expired-never-surfaces');
      t.equal(ttl!.status, 'completed', `TTL run status (error ${ttl!.error?.code ?? 'none'})`);
      const listed = entries(ttl!.variables['memoryList']);
      t.check(listed.some((e) => e.id === ttl!.variables['freshId']), 'the live entry is not listed (an empty list proves nothing)');
      t.check(!listed.some((e) => e.id === ttl!.variables['expiredId']), 'an expired entry is listed');
      t.check(listed.every((e) => e.expiresAt === undefined || Date.parse(e.expiresAt) > Date.now()), 'a listed entry is past its expiresAt');

      t.req('openwop.requirement.proposed.agent-memory.cti1-cross-tenant-isolation');
      t.equal(cti!.status, 'completed', `CTI-1 run status (error ${cti!.error?.code ?? 'none'})`);
      t.check(entries(cti!.variables['ownerProbe']).some((e) => e.id === cti!.variables['ownerEntryId']), "the owner control does not hold the run's own entry");
      t.equal(cti!.variables['crossTenantProbe'], [], "another tenant's ref read as the run's tenant");

      t.req('openwop.requirement.proposed.core.run-lifecycle');
      const unknown = await t.call(ROUTES.runStart, { body: { workflowId: 'conformance-no-such-fixture' } }, { seam: false, refusal: true });
      t.equal(unknown.status, 404, 'a workflow the host does not have');
    },
  },
  {
    id: 'multi-agent-escalation-run-waits',
    title: 'A below-floor fixture run stays waiting, dispatches nothing, and its escalation names the decision that caused it',
    rfc: 'RFC 0039 §A',
    profile: 'multi-agent',
    gate: gate.both(gate.executionModelV2, gate.fixtures(ESCALATION_FIXTURE)),
    async run(t) {
      t.req('openwop.requirement.proposed.0039.a1-confidence-floor');
      const run = await runFixture(t, ESCALATION_FIXTURE);
      t.check(run.status.startsWith('waiting-'), `the run is ${run.status}, not suspended on its interrupt`);
      await sleep(150);
      const again = await t.call<Snapshot>(ROUTES.runRead, { params: { runId: run.runId } });
      t.equal(again.body.status, run.status, 'status while the interrupt is unanswered');
      t.req('openwop.requirement.proposed.0039.a3-event-before-interrupt');
      const { body } = await t.call<{ events: Ev[] }>(ROUTES.runEvents, { params: { runId: run.runId } });
      const escalated = body.events.filter((e) => e.type === 'core.workflowChain.confidence-escalated');
      t.equal(escalated.length, 1, 'confidence-escalated events');
      const cause = body.events.find((e) => e.eventId === escalated[0]?.causationId);
      t.equal(cause?.type, 'runOrchestrator.decided', 'the type of the event the escalation names as its cause');
      const interrupt = body.events.find((e) => e.type === 'interrupt.requested');
      t.check(interrupt !== undefined && interrupt.causationId === escalated[0]?.eventId, 'the interrupt does not name the escalation as its cause');
      t.check(!body.events.some((e) => e.type === 'worker.dispatched'), 'a worker was dispatched while the interrupt is unanswered');
    },
  },
  {
    id: 'multi-agent-escalation-resolve',
    title: "An escalated run resumes on a person's answer, once: approve and amend dispatch, reject dispatches nothing, a second answer is refused",
    rfc: 'RFC 0039 §A (the user confirms or adjusts the escalated decision)',
    profile: 'multi-agent',
    gate: gate.both(gate.executionModelV2, gate.fixtures(ESCALATION_FIXTURE), gate.interruptResolve),
    async run(t) {
      t.req('openwop.requirement.proposed.0039.a3-event-before-interrupt');
      const runs = await Promise.all([0, 1, 2, 3].map(() => runFixture(t, ESCALATION_FIXTURE)));
      const [contested, approved, amended, rejected] = runs as [Snapshot, Snapshot, Snapshot, Snapshot];
      // An answer names the node the run waits on (upstream: POST /v1/runs/{runId}/interrupts/{nodeId}).
      const open = (r: Snapshot) => r.currentNodeId ?? '';
      if (!t.check(runs.every((r) => open(r) !== '' && r.interrupt !== undefined), 'a waiting run names no currentNodeId (and open interrupt) to answer')) return;
      /** An answer; `refusal`: only a refusal is due (a success would then fail the scenario). */
      const answer = (run: Snapshot, nodeId: string, resumeValue: Record<string, unknown>, refusal = false) =>
        t.call<Snapshot>(ROUTES.runInterruptResolve, { params: { runId: run.runId, nodeId }, body: { resumeValue: { decidedAt: new Date().toISOString(), ...resumeValue } } }, { seam: false, refusal });
      const eventsOf = async (run: Snapshot) => (await t.call<{ events: Ev[] }>(ROUTES.runEvents, { params: { runId: run.runId } })).body.events;
      const resolvedOf = (events: Ev[]) => events.filter((e) => e.type === 'interrupt.resolved');
      const dispatchedOf = (events: Ev[]) => events.filter((e) => e.type === 'worker.dispatched');

      t.req('openwop.requirement.proposed.core.interrupt-approval');
      const wrong = await answer(contested, `${open(contested)}-not-waiting`, { action: 'approve' }, true);
      t.equal([wrong.status, (wrong.body as { error?: string }).error], [404, 'interrupt_not_found'], 'answering a node the run does not wait on');

      // Two answers at once: exactly one is applied, and a later one is refused too.
      const both = await Promise.all([answer(contested, open(contested), { action: 'approve' }), answer(contested, open(contested), { action: 'reject' })]);
      t.equal(both.map((r) => r.status).sort(), [200, 409], 'statuses of two answers to one interrupt');
      t.equal((both.find((r) => r.status === 409)?.body as { error?: string } | undefined)?.error, 'interrupt_already_resolved', 'the error code of the refused answer');
      t.equal((await answer(contested, open(contested), { action: 'approve' }, true)).status, 409, 'a later answer to the answered interrupt');
      const c = await eventsOf(contested);
      t.equal(resolvedOf(c).length, 1, 'interrupt.resolved events after three answers');
      t.equal(dispatchedOf(c).length, resolvedOf(c)[0]?.payload['outcome'] === 'rejected' ? 0 : 1, 'dispatches of the contested run, for the answer that was applied');

      // Each answer uncontested: approve carries the escalated decision out, amend the amended one, reject nothing.
      const amendedDecision = { kind: 'next-worker', worker: 'conformance-amended-worker', confidence: 0.9 };
      const answers = await Promise.all([answer(approved, open(approved), { action: 'approve' }), answer(amended, open(amended), { action: 'amend', decision: amendedDecision }), answer(rejected, open(rejected), { action: 'reject' })]);
      t.equal(answers.map((a) => a.status), [200, 200, 200], 'statuses of the approve, amend and reject answers');
      t.equal(answers.map((a) => a.body.status), ['completed', 'completed', 'completed'], 'run statuses after the answers');
      const [a, m, r] = await Promise.all([eventsOf(approved), eventsOf(amended), eventsOf(rejected)]);
      t.equal([a, m, r].map((events) => resolvedOf(events).map((e) => e.payload['outcome'])), [['approved'], ['amended'], ['rejected']], 'the outcome each interrupt.resolved records');
      t.equal(dispatchedOf(a).length, 1, 'dispatches after approve');
      t.equal(dispatchedOf(m).map((e) => e.payload['worker']), ['conformance-amended-worker'], 'the worker dispatched after amend');
      t.equal(dispatchedOf(r).length, 0, 'dispatches after reject');
    },
  },
];
