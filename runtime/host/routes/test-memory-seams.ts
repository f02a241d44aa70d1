/**
 * The memory test seams at the paths upstream's suite calls (/v1/test/memory/seed, /v1/test/memory/compact), next
 * to ours under /v1/host/sample/: seed entries with the ids the caller chose, and run one client-requested RFC 0012
 * compaction answering with the memory.compacted event plus the persisted content out of band.
 */
import type { FastifyInstance } from 'fastify';
import { afterCommit, bodyOf, scopedRef, serve, tenantOrThrow } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

export function registerTestMemorySeams(app: FastifyInstance, host: HostRuntime): void {
  serve(app, ROUTES.testMemorySeed, async (req, _reply, tx) => {
    const body = bodyOf(req, ROUTES.testMemorySeed);
    const memoryRef = scopedRef(req, body.memoryRef);
    const tenant = tenantOrThrow(memoryRef);
    const { entries } = await host.seedMemory(tx, { memoryRef, tenant, entries: body.entries.map((e) => ({ id: e.id, content: e.content, tags: e.tags ?? [] })) });
    return afterCommit(() => ({ memoryRef, entries: entries.map((e) => e.value) }));
  });

  serve(app, ROUTES.testMemoryCompact, async (req, _reply, tx) => {
    const { memoryRef: asked, sourceIds } = bodyOf(req, ROUTES.testMemoryCompact);
    const memoryRef = scopedRef(req, asked);
    const r = await host.compact(tx, memoryRef, tenantOrThrow(memoryRef), sourceIds);
    return { type: 'memory.compacted', runId: r.compactionRunId, payload: r.event, outputContent: r.output.content };
  });
}
