/**
 * The RFC 0096 review surface and the RFC 0080 §C inventory over HTTP, with tenant keys: CTI-1 on every proposal
 * route, direct-rbac refusal for a key without the scope, request validation, and the agent inventory of a tenant.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { validateAgentInventoryResponse, validateErrorEnvelope } from '../../../generated/validators/validators.js';
import { Credentials, parseApiKeysEnv } from '../../../runtime/host/auth.ts';
import { createHost } from '../../../runtime/host/server.ts';
import { ROUTES, targetOf, type CatalogueRoute } from '../../../runtime/host/seam-catalogue.ts';
import { BUILT_IN_AGENTS } from '../../../runtime/openwop/agent-inventory.ts';

const KEY_A = 'tenant-a-key-0123456789abcdef';
const KEY_B = 'tenant-b-key-0123456789abcdef';
const OPERATOR = 'operator-key-0123456789abcdef';
const credentials = () => new Credentials(parseApiKeysEnv(`${KEY_A}=tenant-a:tenant,${KEY_B}=tenant-b:tenant,${OPERATOR}=*:operator`));
let app: FastifyInstance | undefined;
afterEach(async () => { await app?.close(); app = undefined; });

async function host(activation?: 'direct-rbac') {
  app = (await createHost({ credentials: credentials(), ...(activation !== undefined ? { proposalActivation: { mode: activation } } : {}) })).app;
  const as = async (key: string, route: CatalogueRoute, target: Parameters<typeof targetOf>[1] = {}, body?: unknown) => {
    const res = await app!.inject({ method: route.method, url: targetOf(route, target), headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) });
    return { status: res.statusCode, body: res.json() as Record<string, any> };
  };
  const synth = async (tenant: string, agentId = 'a.helper') => {
    const r = await as(OPERATOR, ROUTES.proposalSynthesize, {}, { tenant, kind: 'agent-pack', artifact: { name: `pack-${agentId}`, agents: [{ id: agentId, memoryShape: { longTerm: true } }] }, sourceRunIds: ['run-1'] });
    expect(r.status).toBe(201);
    return r.body.proposal.id as string;
  };
  return { as, synth };
}

describe('proposals over HTTP', () => {
  it("a tenant key works on its own tenant's proposals; another tenant's are a 404 on every route, the same answer as a missing one", async () => {
    const { as, synth } = await host();
    const id = await synth('tenant-a');
    expect((await as(KEY_A, ROUTES.proposal, { params: { proposalId: id } })).body.state).toBe('draft');
    expect((await as(KEY_A, ROUTES.proposals, { query: { state: 'draft' } })).body.proposals.map((p: { id: string }) => p.id)).toEqual([id]);
    expect((await as(KEY_B, ROUTES.proposals)).body).toEqual({ proposals: [] });
    const foreign: [CatalogueRoute, unknown][] = [[ROUTES.proposal, undefined], [ROUTES.proposalRevise, { title: 'x' }], [ROUTES.proposalArchive, undefined], [ROUTES.proposalApply, undefined], [ROUTES.proposalReject, undefined], [ROUTES.proposalInstalled, undefined]];
    for (const [route, body] of foreign) {
      const r = await as(KEY_B, route, { params: { proposalId: id } }, body);
      expect([r.status, r.body.error], `${route.method} ${route.path}`).toEqual([404, 'not_found']);
      const missing = await as(KEY_B, route, { params: { proposalId: 'prop_missing' } }, body);
      expect(missing.status).toBe(404);
    }
    // Nothing the other tenant did changed it.
    expect((await as(KEY_A, ROUTES.proposal, { params: { proposalId: id } })).body.state).toBe('draft');
    // Naming another tenant in the list is refused.
    expect((await as(KEY_A, ROUTES.proposals, { query: { tenant: 'tenant-b' } })).status).toBe(403);
  });

  it('the synthesiser and the approver are operator seams; a tenant key can ask to apply but not grant its own gate', async () => {
    const { as, synth } = await host();
    const id = await synth('tenant-a');
    expect((await as(KEY_A, ROUTES.proposalSynthesize, {}, { tenant: 'tenant-a', kind: 'agent-pack', artifact: {}, sourceRunIds: ['r'] })).status).toBe(403);
    const applied = await as(KEY_A, ROUTES.proposalApply, { params: { proposalId: id } });
    expect(applied.body.gate.state).toBe('pending');
    expect((await as(KEY_A, ROUTES.proposalGateDecide, {}, { approvalId: applied.body.gate.approvalId, decision: 'granted' })).status).toBe(403);
    const granted = await as(OPERATOR, ROUTES.proposalGateDecide, {}, { approvalId: applied.body.gate.approvalId, decision: 'granted' });
    expect(granted.body.proposal.state).toBe('applied');
    expect((await as(KEY_A, ROUTES.proposalInstalled, { params: { proposalId: id } })).body.artifact).toEqual((await as(KEY_A, ROUTES.proposal, { params: { proposalId: id } })).body.artifact);
  });

  it('direct-rbac: a tenant key lacks the activation scope (403, nothing installed); an operator key holds it', async () => {
    const { as, synth } = await host('direct-rbac');
    const id = await synth('tenant-a');
    const refused = await as(KEY_A, ROUTES.proposalApply, { params: { proposalId: id } });
    expect([refused.status, refused.body.error, refused.body.details]).toEqual([403, 'forbidden', { scope: 'proposals:apply' }]);
    expect((await as(KEY_A, ROUTES.proposalInstalled, { params: { proposalId: id } })).status).toBe(404);
    expect((await as(OPERATOR, ROUTES.proposalApply, { params: { proposalId: id } })).body.proposal.activation.mode).toBe('direct-rbac');
    expect((await as(KEY_A, ROUTES.agents)).body.agents.map((a: { agentId: string }) => a.agentId)).toContain('a.helper');
  });

  it('validation: an unknown filter, a revision that does not fit the kind, a state in the body, an override without reason are 400', async () => {
    const { as, synth } = await host();
    const id = await synth('tenant-a');
    for (const r of [
      await as(KEY_A, ROUTES.proposals, { query: { state: 'live' } }),
      await as(KEY_A, ROUTES.proposalRevise, { params: { proposalId: id } }, { artifact: { name: 'no agents' } }),
      await as(KEY_A, ROUTES.proposalRevise, { params: { proposalId: id } }, { state: 'applied' }),
      await as(OPERATOR, ROUTES.proposalGateDecide, {}, { approvalId: 'gate_1', decision: 'overridden' }),
      await as(OPERATOR, ROUTES.proposalSynthesize, {}, { tenant: 'tenant-a', kind: 'prompt-template', artifact: { name: 'x' }, sourceRunIds: ['r'] }),
    ]) {
      expect([r.status, r.body.error]).toEqual([400, 'validation_failed']);
      expect(validateErrorEnvelope(r.body)).toBe(true);
    }
    expect((await as(KEY_A, ROUTES.proposal, { params: { proposalId: id } })).body.state).toBe('draft');
  });
});

describe('GET /v1/agents', () => {
  it("built-ins for everyone, a tenant's applied agent packs for that tenant only; valid against the schema", async () => {
    const { as, synth } = await host();
    const id = await synth('tenant-a', 'a.only');
    const gate = (await as(OPERATOR, ROUTES.proposalApply, { params: { proposalId: id } })).body.gate;
    await as(OPERATOR, ROUTES.proposalGateDecide, {}, { approvalId: gate.approvalId, decision: 'granted' });
    const a = await as(KEY_A, ROUTES.agents);
    const b = await as(KEY_B, ROUTES.agents);
    const op = await as(OPERATOR, ROUTES.agents);
    for (const r of [a, b, op]) expect(validateAgentInventoryResponse(r.body)).toBe(true);
    expect(a.body.agents.map((x: { agentId: string }) => x.agentId)).toEqual([...BUILT_IN_AGENTS.map((x) => x.agentId), 'a.only'].sort());
    expect(b.body.agents.map((x: { agentId: string }) => x.agentId)).toEqual(BUILT_IN_AGENTS.map((x) => x.agentId).sort());
    expect(op.body.total).toBe(BUILT_IN_AGENTS.length);
    expect((await as(KEY_B, ROUTES.agents, { query: { tenant: 'tenant-a' } })).status).toBe(403);
  });
});

describe('approval gates per proposal', () => {
  it('revise-then-apply opens a new gate each time (the pending one superseded), up to 64 per proposal; the 65th is 429, nothing written', async () => {
    const { as, synth } = await host();
    const id = await synth('tenant-a');
    for (let i = 0; i < 64; i++) {
      const applied = await as(KEY_A, ROUTES.proposalApply, { params: { proposalId: id } });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      expect((await as(KEY_A, ROUTES.proposalRevise, { params: { proposalId: id } }, { title: `revision ${i}` })).status).toBe(200);
    }
    const before = (await as(KEY_A, ROUTES.proposal, { params: { proposalId: id } })).body;
    const refused = await as(KEY_A, ROUTES.proposalApply, { params: { proposalId: id } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'quota_exceeded', details: { resource: 'approval-gates-per-proposal', limit: 64 } });
    expect((await as(KEY_A, ROUTES.proposal, { params: { proposalId: id } })).body).toEqual(before);
  });
});
