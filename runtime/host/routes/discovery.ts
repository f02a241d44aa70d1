import type { FastifyInstance } from 'fastify';
import { serve } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

/**
 * The discovery document, built from what the runtimes wire (public, no auth): sent as the registry's cached JSON
 * text (serialised once, again only when a capability changes) when the runtime offers it.
 */
export function registerDiscovery(app: FastifyInstance, host: HostRuntime): void {
  serve(app, ROUTES.discovery, async (_req, reply) => {
    if (host.discoveryJson === undefined) return host.discovery();
    reply.type('application/json; charset=utf-8');
    return host.discoveryJson();
  });
}
