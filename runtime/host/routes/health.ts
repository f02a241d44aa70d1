/**
 * GET /livez and GET /readyz: what a supervisor or a load balancer asks, without a key and without content. /livez
 * answers 200 while the process serves at all; /readyz answers 200 when the host may take requests, and 503 with
 * `Retry-After` when it may not — its store cannot take writes (a full disk: it is ready again as soon as a write
 * succeeds), or it is draining before a stop.
 */
import type { FastifyInstance } from 'fastify';
import { serveWithoutUnit } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

export interface Readiness {
  /** Set once the host stops taking requests (SIGTERM): /readyz answers 503 from then on. */
  draining: boolean;
  /**
   * Set once a credentials rotation finished without this host's credentials (fleet-credentials.ts): /readyz and
   * every other request but /livez answer 503 from then on.
   */
  retired?: boolean;
  /** Set when the app starts closing (server.ts): every request still arriving is a 503 envelope. */
  closing?: boolean;
}

/** Why the host may not take requests now, or undefined when it may. */
export async function notReady(host: HostRuntime, readiness: Readiness): Promise<'draining' | 'credentials-retired' | 'store-unwritable' | undefined> {
  if (readiness.retired === true) return 'credentials-retired';
  if (readiness.draining) return 'draining';
  return (await host.health()).writable ? undefined : 'store-unwritable';
}

export function registerHealth(app: FastifyInstance, host: HostRuntime, readiness: Readiness): void {
  serveWithoutUnit(app, ROUTES.liveness, async () => ({ status: 'ok' }));
  serveWithoutUnit(app, ROUTES.readiness, async (_req, reply) => {
    const reason = await notReady(host, readiness);
    if (reason === undefined) return { status: 'ok' };
    reply.code(503).header('retry-after', '1');
    return { status: 'unavailable', reason };
  });
}
