/**
 * RFC 0096 rules on the proposal service: lifecycle through the table, gated activation (approval-gate and
 * direct-rbac), SR-1-safe persisted strings and content-free events, tenant binding.
 */
import { describe, expect, it } from 'vitest';
import { IllegalTransitionError } from '../../../runtime/shared/state-machine.ts';
import { ActivationForbiddenError, ProposalInvalidError, ProposalNotFoundError } from '../../../runtime/proposals/errors.ts';
import { PROPOSAL_LIFECYCLE } from '../../../runtime/proposals/lifecycle.ts';
import { DEFAULT_ACTIVATION_SCOPE } from '../../../runtime/proposals/service.ts';
import { openRuntime } from '../support.ts';
import { actor, agentPack, MARKER, OPERATOR, OTHER, request, requests, SECRET, setup, TENANT } from './setup.ts';

describe('lifecycle', () => {
  it('the table is the seed lifecycle: draft → revised → applied | rejected | archived, applied and archived final', () => {
    expect(PROPOSAL_LIFECYCLE.initial).toBe('draft');
    expect([...PROPOSAL_LIFECYCLE.terminal].sort()).toEqual(['applied', 'archived']);
    expect(PROPOSAL_LIFECYCLE.transitions.map((t) => `${t.from}>${t.to}`).sort()).toEqual(
      ['draft>revised', 'revised>revised', 'draft>applied', 'revised>applied', 'draft>rejected', 'revised>rejected', 'draft>archived', 'revised>archived', 'rejected>archived'].sort(),
    );
  });

  it('a synthesised proposal is a draft; revise → revised; reject → rejected; archive → archived; a final state refuses more (409)', async () => {
    const { service } = await setup();
    const { proposal } = await service.synthesize(request());
    expect(proposal.state).toBe('draft');
    expect((await service.revise(actor(), proposal.id, { title: 'Better title' })).state).toBe('revised');
    expect((await service.reject(actor(), proposal.id)).state).toBe('rejected');
    await expect(service.revise(actor(), proposal.id, { title: 'x' })).rejects.toBeInstanceOf(IllegalTransitionError);
    await expect(service.apply(actor(), proposal.id)).rejects.toBeInstanceOf(IllegalTransitionError);
    expect((await service.archive(actor(), proposal.id)).state).toBe('archived');
    await expect(service.archive(actor(), proposal.id)).rejects.toMatchObject({ status: 409 });
  });

  it('a revision whose artefact does not match the kind is refused and nothing changes', async () => {
    const { service } = await setup();
    const { proposal } = await service.synthesize(request());
    await expect(service.revise(actor(), proposal.id, { artifact: { name: 'no agents' } })).rejects.toBeInstanceOf(ProposalInvalidError);
    expect(await service.get(actor(), proposal.id)).toEqual(proposal);
  });
});

describe('gated activation: approval-gate', () => {
  it('apply opens a pending gate and installs nothing; a second apply returns the same gate', async () => {
    const { service, installed, events } = await setup();
    const { proposal } = await service.synthesize(request());
    const first = await service.apply(actor(), proposal.id);
    expect(first.gate).toMatchObject({ state: 'pending', proposalId: proposal.id });
    expect(first.proposal.state).toBe('draft');
    expect(await installed.list(TENANT)).toEqual([]);
    expect((await service.apply(actor(), proposal.id)).gate!.approvalId).toBe(first.gate!.approvalId);
    expect((await events()).map((e) => e.type)).toEqual(['proposal.created']);
  });

  it('denied installs nothing; granted installs and marks the proposal applied with its activation record', async () => {
    const { service, installed, events } = await setup();
    const { proposal } = await service.synthesize(request());
    const g1 = (await service.apply(actor(), proposal.id)).gate!;
    const denied = await service.decide(g1.approvalId, 'denied', { decidedBy: 'approver' });
    expect([denied.gate!.state, denied.proposal.state]).toEqual(['denied', 'draft']);
    expect(await installed.list(TENANT)).toEqual([]);
    await expect(service.decide(g1.approvalId, 'granted', { decidedBy: 'approver' })).rejects.toBeInstanceOf(IllegalTransitionError);
    const g2 = (await service.apply(actor(), proposal.id)).gate!;
    const granted = await service.decide(g2.approvalId, 'granted', { decidedBy: 'approver' });
    expect(granted.proposal.state).toBe('applied');
    expect(granted.proposal.activation).toMatchObject({ mode: 'approval-gate', approvalId: g2.approvalId, gateOutcome: 'granted' });
    expect((await installed.list(TENANT)).map((a) => a.proposalId)).toEqual([proposal.id]);
    expect((await events()).at(-1)).toMatchObject({ type: 'proposal.activated', payload: { proposalId: proposal.id, activation: 'approval-gate', approvalId: g2.approvalId } });
  });

  it('a revision while the gate is pending supersedes it: the old gate can no longer install anything', async () => {
    const { service, installed } = await setup();
    const { proposal } = await service.synthesize(request());
    const gate = (await service.apply(actor(), proposal.id)).gate!;
    await service.revise(actor(), proposal.id, { artifact: agentPack('acme.triage', { version: '2.0.0' }) });
    await expect(service.decide(gate.approvalId, 'granted', { decidedBy: 'approver' })).rejects.toMatchObject({ status: 409 });
    expect(await installed.list(TENANT)).toEqual([]);
    // A new apply opens a new gate, on the new revision: the superseded one is no longer pending.
    const next = (await service.apply(actor(), proposal.id)).gate!;
    expect(next.approvalId).not.toBe(gate.approvalId);
    await service.reject(actor(), proposal.id);
    // Superseded, not merely stale: even a denial finds no pending gate.
    for (const decision of ['granted', 'denied'] as const) await expect(service.decide(next.approvalId, decision, { decidedBy: 'approver' })).rejects.toMatchObject({ status: 409 });
    expect(await installed.list(TENANT)).toEqual([]);
  });

  it('an override installs and is audited with its (redacted) reason', async () => {
    const { service, overrides } = await setup();
    const { proposal } = await service.synthesize(request());
    const gate = (await service.apply(actor(), proposal.id)).gate!;
    const out = await service.decide(gate.approvalId, 'overridden', { decidedBy: 'ops', reason: `incident, key ${SECRET}` });
    expect(out.proposal.activation).toMatchObject({ gateOutcome: 'overridden' });
    expect(await overrides()).toEqual([expect.objectContaining({ approvalId: gate.approvalId, proposalId: proposal.id, decidedBy: 'ops', reason: `incident, key ${MARKER}` })]);
    expect(JSON.stringify(out)).not.toContain(SECRET);
  });

  it('an unknown gate is 404', async () => {
    await expect((await setup()).service.decide('gate_nope', 'granted', { decidedBy: 'x' })).rejects.toBeInstanceOf(ProposalNotFoundError);
  });
});

describe('gated activation: direct-rbac', () => {
  it('advertises the scope; a caller without it gets 403 and nothing changes; with it the artefact is installed at once', async () => {
    const { service, installed, events } = await setup({ mode: 'direct-rbac' });
    expect(service.capability().agents.proposals).toMatchObject({ activation: 'direct-rbac', activationScope: DEFAULT_ACTIVATION_SCOPE });
    const { proposal } = await service.synthesize(request());
    await expect(service.apply(actor(TENANT, ['proposals:read']), proposal.id)).rejects.toBeInstanceOf(ActivationForbiddenError);
    expect((await service.get(actor(), proposal.id)).state).toBe('draft');
    expect(await installed.list(TENANT)).toEqual([]);
    expect((await events()).map((e) => e.type)).toEqual(['proposal.created']);
    const out = await service.apply(actor(TENANT, [DEFAULT_ACTIVATION_SCOPE]), proposal.id);
    expect(out.gate).toBeUndefined();
    expect(out.proposal).toMatchObject({ state: 'applied', activation: { mode: 'direct-rbac' } });
    expect(await installed.list(TENANT)).toHaveLength(1);
  });
});

describe('SR-1: provenance, rationale and every persisted string are redaction-safe; events are content-free', () => {
  it('a secret in title, rationale, artefact and provenance is stored as its marker; events carry identifiers only', async () => {
    const { service, events } = await setup();
    const { proposal } = await service.synthesize(request({
      title: `Triage ${SECRET}`,
      rationale: `Seen with key ${SECRET} in 14 runs`,
      artifact: agentPack('acme.triage', { notes: [`uses ${SECRET}`] }),
      sourceRunIds: [`run-${SECRET}`],
    }));
    const stored = JSON.stringify(await service.get(actor(), proposal.id));
    expect(stored).not.toContain(SECRET);
    expect(stored.split(MARKER).length - 1).toBe(4);
    const revised = await service.revise(actor(), proposal.id, { rationale: `again ${SECRET}` });
    expect(revised.rationale).toBe(`again ${MARKER}`);
    const gate = (await service.apply(actor(), proposal.id)).gate!;
    await service.decide(gate.approvalId, 'granted', { decidedBy: 'approver' });
    const wire = JSON.stringify(await events());
    expect((await events()).map((e) => e.type)).toEqual(['proposal.created', 'proposal.activated']);
    for (const leak of [SECRET, 'Triage', 'rationale', '14 runs', 'again']) expect(wire).not.toContain(leak);
  });
});

describe('CTI-1: a proposal is bound to its tenant', () => {
  it('another tenant finds nothing (404 on read, revise, apply, reject, archive, installed) and its list is empty; an operator sees it', async () => {
    const { service } = await setup();
    const { proposal } = await service.synthesize(request());
    const them = actor(OTHER, [DEFAULT_ACTIVATION_SCOPE]);
    for (const call of [() => service.get(them, proposal.id), () => service.revise(them, proposal.id, { title: 'x' }), () => service.apply(them, proposal.id), () => service.reject(them, proposal.id), () => service.archive(them, proposal.id), () => service.installed(them, proposal.id)]) {
      await expect(call()).rejects.toBeInstanceOf(ProposalNotFoundError);
    }
    expect(await service.list(OTHER)).toEqual([]);
    expect((await service.get(OPERATOR, proposal.id)).id).toBe(proposal.id);
    expect((await service.get(actor(), proposal.id)).state).toBe('draft');
  });

  it('sourceRunIds may not name a run of another tenant', async () => {
    const { service } = await setup({ mode: 'approval-gate' }, { 'run-of-globex': OTHER, 'run-of-acme': TENANT });
    await expect(service.synthesize(request({ sourceRunIds: ['run-of-acme', 'run-of-globex'] }))).rejects.toMatchObject({ failures: [{ instancePath: '/sourceRunIds/1' }] });
    expect(await service.list(TENANT)).toEqual([]);
    await expect(service.synthesize(request({ sourceRunIds: ['run-of-acme', 'run-unknown'] }))).resolves.toBeDefined();
  });
});

describe('duplication detection', () => {
  it('a proposal restating an installed artefact of the same kind and name names it in duplicateOf', async () => {
    const { service } = await setup({ mode: 'direct-rbac' });
    const first = (await service.synthesize(request())).proposal;
    const applied = await service.apply(actor(TENANT, [DEFAULT_ACTIVATION_SCOPE]), first.id);
    const second = (await service.synthesize(request())).proposal;
    expect(second.duplicateOf).toBe(applied.proposal.activation!.installedArtifactRef);
    expect((await service.synthesize(request({ artifact: agentPack('x', { name: 'other-pack' }) }))).proposal.duplicateOf).toBeUndefined();
  });
});

describe('concurrent requests on one proposal (each its own transaction, optimistic revisions)', () => {
  it('two concurrent grants of one gate install once; two concurrent direct applies install once; concurrent revisions each land, in turn', async () => {
    const gated = await setup();
    const { proposal } = await gated.service.synthesize(request());
    const gate = (await gated.service.apply(actor(), proposal.id)).gate!;
    const grants = await Promise.allSettled([1, 2].map(() => gated.service.decide(gate.approvalId, 'granted', { decidedBy: 'approver' })));
    expect(grants.filter((g) => g.status === 'fulfilled')).toHaveLength(1);
    expect(await gated.installed.list(TENANT)).toHaveLength(1);

    const direct = await setup({ mode: 'direct-rbac' });
    const p2 = (await direct.service.synthesize(request())).proposal;
    const applies = await Promise.allSettled([1, 2].map(() => direct.service.apply(actor(TENANT, [DEFAULT_ACTIVATION_SCOPE]), p2.id)));
    expect(applies.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(await direct.installed.list(TENANT)).toHaveLength(1);

    const p3 = (await direct.service.synthesize(request())).proposal;
    const titles = ['first title', 'second title', 'third title'];
    await Promise.all(titles.map((title) => direct.service.revise(actor(), p3.id, { title })));
    expect(titles).toContain((await direct.service.get(actor(), p3.id)).title);
  });
  it('proposals per tenant are bounded: one more is 429 proposals and stores nothing; another tenant is counted apart', async () => {
    const { rt, port } = await setup();
    // the same store and keys (so the tenant's sealed registries open), a runtime with a tighter bound
    const service = requests(port, (await openRuntime({ port, secretKeys: rt.keys, proposalsPerTenant: 2 })).rt.proposals);
    await service.synthesize(request());
    await service.synthesize(request());
    expect(await service.synthesize(request()).catch((e: unknown) => e)).toMatchObject({ code: 'quota_exceeded', resource: 'proposals', limit: 2 });
    expect(await requests(port, rt.proposals).list(TENANT)).toHaveLength(2);
    await service.synthesize(request({ tenant: OTHER }));
  });
});
