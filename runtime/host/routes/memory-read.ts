/**
 * The memory read route upstream's suite uses: GET /v1/memory/{memoryRef} lists a scope as the caller's tenant reads
 * it (CTI-1, TTL), a page at a time (`limit`, `cursor`). An opaque ref names a scope inside the caller's tenant
 * (route-helpers.ts scopedRef).
 */
import type { FastifyInstance } from 'fastify';
import { actingTenant, pageOf, paramsOf, queryOf, scopedRef, serve, tenantOrThrow } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

export function registerMemoryRead(app: FastifyInstance, host: HostRuntime): void {
  serve(app, ROUTES.memoryList, async (req, _reply, tx) => {
    const memoryRef = scopedRef(req, paramsOf(req, ROUTES.memoryList).memoryRef);
    // A tenant key reads as its tenant; an operator reads as the ref's tenant. One page, resumed with its cursor.
    return pageOf(host.memoryFor(tx, actingTenant(req, tenantOrThrow(memoryRef))), memoryRef, queryOf(req, ROUTES.memoryList));
  });
}
