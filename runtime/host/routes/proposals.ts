/**
 * RFC 0096 reviewable learning: the tenant's review surface (list, read, revise, apply, reject, archive, read back
 * what was installed) under the host-extension path the spec names, and two operator seams — the synthesiser that
 * persists a draft, and the approver who decides an approval gate. A tenant key acts on its own tenant's proposals
 * only (auth-binding.ts binds `proposalId`; the service checks `owner.tenant` again); an operator key acts across
 * tenants and holds every scope (so it may apply under direct-rbac), a tenant key holds none.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProposalActor } from '../../proposals/service.ts';
import { actingTenant, bodyOf, paramsOf, queryOf, serve } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

/** The caller as the proposal service sees it. */
function actorOf(req: FastifyRequest): ProposalActor {
  const p = req.principal;
  return p?.role === 'tenant' ? { tenant: p.tenant, principal: p.keyId, scopes: [] } : { ...(p !== null ? { principal: p.keyId } : {}), scopes: 'all' };
}

export function registerProposals(app: FastifyInstance, host: HostRuntime): void {
  serve(app, ROUTES.proposals, async (req, _reply, tx) => {
    const { state, kind, tenant } = queryOf(req, ROUTES.proposals);
    const filter = { ...(state !== undefined ? { state } : {}), ...(kind !== undefined ? { kind } : {}) };
    return { proposals: await host.listProposals(tx, actingTenant(req, tenant), filter) };
  });
  serve(app, ROUTES.proposal, (req, _reply, tx) => host.proposal(tx, actorOf(req), paramsOf(req, ROUTES.proposal).proposalId));
  serve(app, ROUTES.proposalRevise, (req, _reply, tx) => host.reviseProposal(tx, actorOf(req), paramsOf(req, ROUTES.proposalRevise).proposalId, bodyOf(req, ROUTES.proposalRevise)));
  serve(app, ROUTES.proposalArchive, (req, _reply, tx) => host.archiveProposal(tx, actorOf(req), paramsOf(req, ROUTES.proposalArchive).proposalId));
  serve(app, ROUTES.proposalApply, (req, _reply, tx) => host.applyProposal(tx, actorOf(req), paramsOf(req, ROUTES.proposalApply).proposalId));
  serve(app, ROUTES.proposalReject, (req, _reply, tx) => host.rejectProposal(tx, actorOf(req), paramsOf(req, ROUTES.proposalReject).proposalId));
  serve(app, ROUTES.proposalInstalled, (req, _reply, tx) => host.installedArtifact(tx, actorOf(req), paramsOf(req, ROUTES.proposalInstalled).proposalId));
  serve(app, ROUTES.proposalSynthesize, (req, _reply, tx) => host.synthesizeProposal(tx, bodyOf(req, ROUTES.proposalSynthesize)));
  serve(app, ROUTES.proposalGateDecide, (req, _reply, tx) => host.decideProposalGate(tx, bodyOf(req, ROUTES.proposalGateDecide), actorOf(req).principal ?? 'operator'));
}
