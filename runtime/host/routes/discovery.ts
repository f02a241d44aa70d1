import type { FastifyInstance } from 'fastify';
import type { HostRuntime } from '../host-runtime.ts';

/** GET /.well-known/openwop — the discovery document, built from what the runtimes wire (public, no auth). */
export function registerDiscovery(app: FastifyInstance, host: HostRuntime): void {
  app.get('/.well-known/openwop', async () => host.discovery());
}
