import type { FastifyInstance } from 'fastify';
import type { HostContext } from '../context.ts';

/** GET /.well-known/openwop — the discovery document, built from what the runtimes wire (public, no auth). */
export function registerDiscovery(app: FastifyInstance, ctx: HostContext): void {
  app.get('/.well-known/openwop', async () => ctx.openwop.discovery());
}
