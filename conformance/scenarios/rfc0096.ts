/**
 * RFC 0096 reviewable learning over HTTP: a synthesised agent-pack proposal stays inert (not in the agent inventory,
 * nothing installed) through revision, a pending or denied gate and a superseded gate; apply goes through the
 * advertised activation mode only; the installed artefact is the last persisted one, byte for byte; the rationale
 * is SR-1 redacted and proposal.created is content-free; another tenant sees none of it.
 */
import { validateProposal } from '../../generated/validators/validators.js';
import { get, type Scenario, type ScenarioContext } from '../scenario.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import * as gate from './gates.ts';
import { unique } from './util.ts';

interface ProposalBody { id: string; state: string; artifact: Record<string, unknown>; rationale?: string; activation?: { mode: string; installedArtifactRef: string } }
interface ApplyBody { proposal: ProposalBody; gate?: { approvalId: string; state: string } }
type Ctx = ScenarioContext;

/** The agent ids the tenant's inventory lists. */
async function inventory(t: Ctx, tenant: string): Promise<string[]> {
  const r = await t.call<{ agents: { agentId: string }[] }>(ROUTES.agents, { query: { tenant } });
  return (r.body.agents ?? []).map((a) => a.agentId);
}

/** The proposal's agent is not resolvable and nothing is installed for it (inertness). */
async function inert(t: Ctx, tenant: string, proposalId: string, agentId: string, when: string): Promise<void> {
  t.check(!(await inventory(t, tenant)).includes(agentId), `${when}: the proposal's agent is in the agent inventory before an authorised apply`);
  const installed = await t.call(ROUTES.proposalInstalled, { params: { proposalId } }, { seam: false, refusal: true });
  t.equal(installed.status, 404, `${when}: GET installed status`);
}

export const rfc0096Scenarios: Scenario[] = [
  {
    id: 'proposal-reviewable-learning',
    title: 'A proposal is inert until an authorised apply, which installs the last persisted artefact byte for byte',
    rfc: 'RFC 0096 (agent-memory spec §Reviewable learning)',
    profile: 'proposals',
    gate: gate.both(gate.proposalsAgentPacks, gate.manifestRuntime),
    async run(t) {
      t.req('openwop.requirement.proposed.agent-memory.reviewable-learning');
      const tenant = `tenant-${unique()}`;
      const agentId = `conformance.proposed-${unique()}`;
      const secret = `sk-suite-proposal-${unique()}`;
      // A BYOK secret resolved in a live run of the tenant, so the synthesiser's rationale can be checked for SR-1.
      const sourceRun = `run-${unique()}`;
      const seeded = await t.call(ROUTES.memorySeed, { body: { memoryRef: `mem://${tenant}/notes`, runId: sourceRun, secrets: [{ secretId: 'byok-suite-proposal', value: secret }], entries: [{ content: 'A note.' }] } });
      t.equal(seeded.status, 200, 'seeding the tenant secret');
      const pack = (version: string) => ({ name: `suite-pack-${agentId}`, version, agents: [{ id: agentId, persona: 'Suite agent', memoryShape: { scratchpad: true } }] });
      const made = await t.call<{ proposal: ProposalBody; eventId?: string; runId?: string }>(ROUTES.proposalSynthesize, { body: { tenant, kind: 'agent-pack', artifact: pack('1.0.0'), title: 'Suite agent', rationale: `Repeated in 3 runs with key ${secret}`, sourceRunIds: [sourceRun] } });
      t.equal(made.status, 201, 'synthesize status');
      const p = made.body.proposal;
      t.equal(p.state, 'draft', 'a synthesised proposal is a draft');
      t.check(!JSON.stringify(p).includes(secret) && (p.rationale ?? '').includes('[REDACTED:byok-suite-proposal]'), 'the rationale is not SR-1 redacted');
      if (made.body.eventId !== undefined && made.body.runId !== undefined) {
        const log = await t.call<{ events: { eventId: string; type: string; payload: Record<string, unknown> }[] }>(ROUTES.runEvents, { params: { runId: made.body.runId } });
        const ev = log.body.events.find((e) => e.eventId === made.body.eventId);
        t.equal(ev?.type, 'proposal.created', 'type of the event the seam points at');
        t.check(ev !== undefined && !/artifact|rationale|title|Suite agent|Repeated/.test(JSON.stringify(ev.payload)) && !JSON.stringify(ev.payload).includes(secret), 'proposal.created carries content');
      } else if (t.config.strict) t.check(false, 'strict mode: the synthesize seam did not say where proposal.created was appended');
      // CTI-1: another tenant's review queue does not show it.
      const theirs = await t.call<{ proposals: ProposalBody[] }>(ROUTES.proposals, { query: { tenant: `other-${unique()}` } });
      t.check(!theirs.body.proposals.some((x) => x.id === p.id), "another tenant's list shows the proposal");
      const mine = await t.call<{ proposals: ProposalBody[] }>(ROUTES.proposals, { query: { tenant, state: 'draft' } });
      t.check(mine.body.proposals.some((x) => x.id === p.id), "the owner's list does not show its draft");
      await inert(t, tenant, p.id, agentId, 'draft');

      const revised = await t.call<ProposalBody>(ROUTES.proposalRevise, { params: { proposalId: p.id }, body: { artifact: pack('1.1.0') } });
      t.equal(revised.body.state, 'revised', 'state after PATCH');
      await inert(t, tenant, p.id, agentId, 'revised');

      const mode = get(t.discovery, 'agents.proposals.activation');
      let applied: ProposalBody | undefined;
      if (mode === 'approval-gate') {
        const first = await t.call<ApplyBody>(ROUTES.proposalApply, { params: { proposalId: p.id } });
        t.equal([first.body.gate?.state, first.body.proposal.state], ['pending', 'revised'], 'apply under approval-gate: gate and proposal state');
        await inert(t, tenant, p.id, agentId, 'gate pending');
        const denied = await t.call<ApplyBody>(ROUTES.proposalGateDecide, { body: { approvalId: first.body.gate!.approvalId, decision: 'denied' } });
        t.equal(denied.body.gate?.state, 'denied', 'gate state after a denial');
        await inert(t, tenant, p.id, agentId, 'gate denied');
        // A gate approves the revision it was opened on: revising supersedes it.
        const second = await t.call<ApplyBody>(ROUTES.proposalApply, { params: { proposalId: p.id } });
        await t.call(ROUTES.proposalRevise, { params: { proposalId: p.id }, body: { artifact: pack('1.2.0'), title: 'Suite agent, final' } });
        const stale = await t.call(ROUTES.proposalGateDecide, { body: { approvalId: second.body.gate!.approvalId, decision: 'granted' } }, { refusal: true });
        t.equal(stale.status, 409, 'granting a gate superseded by a revision');
        await inert(t, tenant, p.id, agentId, 'gate superseded');
        const third = await t.call<ApplyBody>(ROUTES.proposalApply, { params: { proposalId: p.id } });
        const granted = await t.call<ApplyBody>(ROUTES.proposalGateDecide, { body: { approvalId: third.body.gate!.approvalId, decision: 'granted' } });
        applied = granted.body.proposal;
      } else {
        // Either answer is conformant, depending on whether the suite's key holds the advertised scope.
        const r = await t.call<ApplyBody>(ROUTES.proposalApply, { params: { proposalId: p.id } });
        if (r.status === 403) {
          // The suite's key does not hold the activation scope: refused, and nothing changed.
          t.equal((await t.call<ProposalBody>(ROUTES.proposal, { params: { proposalId: p.id } })).body.state, 'revised', 'state after a refused apply');
          await inert(t, tenant, p.id, agentId, 'apply refused');
          return;
        }
        t.equal(r.status, 200, 'apply under direct-rbac');
        t.check(validateProposal(r.body.proposal), 'the applied proposal does not match its schema');
        applied = r.body.proposal;
      }
      t.equal(applied?.state, 'applied', 'state after an authorised apply');
      t.equal(applied?.activation?.mode, mode, 'activation.mode is the advertised mode');
      const persisted = await t.call<ProposalBody>(ROUTES.proposal, { params: { proposalId: p.id } });
      const installed = await t.call<{ artifact: Record<string, unknown>; installedArtifactRef: string }>(ROUTES.proposalInstalled, { params: { proposalId: p.id } });
      t.equal(JSON.stringify(installed.body.artifact), JSON.stringify(persisted.body.artifact), 'installed artefact vs the last persisted one (no re-synthesis)');
      t.equal(installed.body.artifact.version, mode === 'approval-gate' ? '1.2.0' : '1.1.0', 'the installed version is the last revision');
      t.check((await inventory(t, tenant)).includes(agentId), 'the applied agent pack is not in the agent inventory');
      t.check(!(await inventory(t, `other-${unique()}`)).includes(agentId), "another tenant's inventory lists the applied agent");
      const again = await t.call(ROUTES.proposalApply, { params: { proposalId: p.id } }, { refusal: true });
      t.equal(again.status, 409, 'applying an applied proposal');
    },
  },
];
