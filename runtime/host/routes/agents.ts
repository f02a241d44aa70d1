/** RFC 0072 agent inventory, each entry with the RFC 0080 §C degraded-memory projection. */
import type { FastifyInstance } from 'fastify';
import { actingTenant, queryOf, serve } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

export function registerAgents(app: FastifyInstance, host: HostRuntime): void {
  serve(app, ROUTES.agents, (req, _reply, tx) => {
    const tenant = actingTenant(req, queryOf(req, ROUTES.agents).tenant);
    return host.agentInventory(tx, tenant === '' ? undefined : tenant);
  });
}
