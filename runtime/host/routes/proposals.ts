/**
 * RFC 0096 reviewable learning: the tenant's review surface (list, read, revise, apply, reject, archive, read back
 * what was installed) under the host-extension path the spec names, and two operator seams — the synthesiser that
 * persists a draft, and the approver who decides an approval gate. A tenant key acts on its own tenant's proposals
 * only (auth-binding.ts binds `proposalId`; the service checks `owner.tenant` again); an operator key acts across
 * tenants and holds every scope (so it may apply under direct-rbac), a tenant key holds none.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProposalActor } from '../../proposals/service.ts';
import { actingTenant, bodyOf, paramsOf, queryOf, serveWithoutUnit } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

/** The caller as the proposal service sees it. */
function actorOf(req: FastifyRequest): ProposalActor {
  const p = req.principal;
  return p?.role === 'tenant' ? { tenant: p.tenant, principal: p.keyId, scopes: [] } : { ...(p !== null ? { principal: p.keyId } : {}), scopes: 'all' };
}

export function registerProposals(app: FastifyInstance, host: HostRuntime): void {
  // The proposal service opens its own units (serveWithoutUnit).
  serveWithoutUnit(app, ROUTES.proposals, async (req) => {
    const { state, kind, tenant } = queryOf(req, ROUTES.proposals);
    const filter = { ...(state !== undefined ? { state } : {}), ...(kind !== undefined ? { kind } : {}) };
    return { proposals: await host.listProposals(actingTenant(req, tenant), filter) };
  });
  serveWithoutUnit(app, ROUTES.proposal, (req) => host.proposal(actorOf(req), paramsOf(req, ROUTES.proposal).proposalId));
  serveWithoutUnit(app, ROUTES.proposalRevise, (req) => host.reviseProposal(actorOf(req), paramsOf(req, ROUTES.proposalRevise).proposalId, bodyOf(req, ROUTES.proposalRevise)));
  serveWithoutUnit(app, ROUTES.proposalArchive, (req) => host.archiveProposal(actorOf(req), paramsOf(req, ROUTES.proposalArchive).proposalId));
  serveWithoutUnit(app, ROUTES.proposalApply, (req) => host.applyProposal(actorOf(req), paramsOf(req, ROUTES.proposalApply).proposalId));
  serveWithoutUnit(app, ROUTES.proposalReject, (req) => host.rejectProposal(actorOf(req), paramsOf(req, ROUTES.proposalReject).proposalId));
  serveWithoutUnit(app, ROUTES.proposalInstalled, (req) => host.installedArtifact(actorOf(req), paramsOf(req, ROUTES.proposalInstalled).proposalId));
  serveWithoutUnit(app, ROUTES.proposalSynthesize, (req) => host.synthesizeProposal(bodyOf(req, ROUTES.proposalSynthesize)));
  serveWithoutUnit(app, ROUTES.proposalGateDecide, (req) => host.decideProposalGate(bodyOf(req, ROUTES.proposalGateDecide), actorOf(req).principal ?? 'operator'));
}
