import type { FastifyInstance } from 'fastify';
import { serve } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

/** The discovery document, built from what the runtimes wire (public, no auth). */
export function registerDiscovery(app: FastifyInstance, host: HostRuntime): void {
  serve(app, ROUTES.discovery, async () => host.discovery());
}
