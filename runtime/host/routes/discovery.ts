import type { FastifyInstance } from 'fastify';
import { serve } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

/**
 * The discovery document, built from what the runtimes wire (public, no auth). The registry hands out the same
 * frozen document until a capability changes, so its JSON text is cached by document identity: serialised once per
 * document, whatever wraps the runtime (a wrapper that changes the document returns a new object and gets its own text).
 */
export function registerDiscovery(app: FastifyInstance, host: HostRuntime): void {
  const texts = new WeakMap<object, string>();
  serve(app, ROUTES.discovery, async (_req, reply) => {
    const doc = await host.discovery();
    let text = texts.get(doc);
    if (text === undefined) texts.set(doc, (text = JSON.stringify(doc)));
    reply.type('application/json; charset=utf-8');
    return text;
  });
}
