/**
 * Memory test seams under /v1/host/sample/memory/… (documented in docs/host.md). They drive the runtime exactly as
 * a real host's background jobs would, so the conformance suite can observe CTI-1, SR-1, TTL, compaction,
 * distillation, consolidation and commitments over HTTP.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CommitmentFiredPayload } from '../../../generated/ts/index.ts';
import { HttpError } from '../errors.ts';
import { actingTenant, bodyOf, queryOf, scopedRef, serve, tenantOrThrow } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';

const DISTILLATION_FIXTURE = ['Ticket 1: the customer asked for a refund of order 1042.', 'Ticket 2: the refund was approved within the 30-day window.', 'Ticket 3: the customer prefers email follow-up.'];
const CONSOLIDATION_FIXTURE = ['Refund policy: refunds within 30 days.', 'Refund policy: refunds within 30 days.', 'Customer prefers email follow-up.', 'Shipping is free over 50 EUR.'];

export function registerMemorySeams(app: FastifyInstance, host: HostRuntime): void {
  // RFC 0068 seam: one on-demand consolidation pass (seeds the 4-entry fixture when the ref is empty).
  serve(app, ROUTES.consolidate, async (req) => {
    const body = bodyOf(req, ROUTES.consolidate);
    const tenant = tenantOrThrow(body.memoryRef);
    if (host.storedCount(body.memoryRef) === 0) for (const c of CONSOLIDATION_FIXTURE) host.write(body.memoryRef, { content: c }, { tenant });
    let canary: string | undefined;
    // The fixture run that plants the canary lives exactly as long as this request (its registry ends with it).
    const fixtureRun = `fixture-${randomUUID()}`;
    try {
      if (body.includeSecretCanary === true) {
        canary = `sk-canary-${randomUUID()}`;
        host.plantSecret(body.memoryRef, { runId: fixtureRun, tenant, secretId: 'byok-consolidation-canary', value: canary, content: `Deploy key for the nightly job is ${canary}.` });
      }
      const { event, eventId, runId } = await host.consolidate(body.memoryRef, tenant);
      const secretLeaked = canary !== undefined && host.persistedContains(body.memoryRef, canary);
      return { event, secretLeaked, ...(eventId !== undefined && runId !== undefined ? { eventId, runId } : {}) };
    } finally {
      host.endRun(fixtureRun);
    }
  });

  // RFC 0068 seam: infer a commitment from a fixture entry, satisfy its condition, evaluate it repeatedly. One
  // request at a time: an evaluation fires every due commitment, so a concurrent request's evaluation (while this
  // one awaits its store) would fire this one's commitment and this request would see no fire of its own.
  let commitmentSeam: Promise<unknown> = Promise.resolve();
  serve(app, ROUTES.commitmentFire, (req) => {
    const turn = commitmentSeam.then(() => fireCommitmentSeam(req));
    commitmentSeam = turn.catch(() => undefined);
    return turn;
  });
  const fireCommitmentSeam = async (req: FastifyRequest) => {
    const body = bodyOf(req, ROUTES.commitmentFire);
    const tenant = tenantOrThrow(body.memoryRef);
    const canary = body.includeIntentionCanary === true ? `intent-canary-${randomUUID()}` : undefined;
    const predicateId = `fixture-${randomUUID().slice(0, 8)}`;
    const conditionTag = body.condition === 'time' ? `at:${new Date(host.now()).toISOString()}` : `when:${predicateId}`;
    const entry = host.write(body.memoryRef, { content: `Remind me to follow up on the contract ${canary ?? ''}`.trim(), tags: ['intent:remind', conditionTag, 'action:run'] }, { tenant });
    const commitmentId = host.armCommitments(body.memoryRef, entry)[0];
    if (commitmentId === undefined) throw new HttpError('internal_error', 'fixture produced no commitment');
    if (body.condition === 'predicate') host.satisfyPredicate(tenant, predicateId);
    const fired: CommitmentFiredPayload[] = [];
    for (let i = 0; i < 3; i++) fired.push(...(await host.evaluateCommitments()).filter((p) => p.commitmentId === commitmentId));
    if (fired.length === 0) throw new HttpError('internal_error', 'the satisfied commitment did not fire');
    return { event: fired[0]!, fireCount: fired.length, ...(canary !== undefined ? { intentionCanary: canary } : {}) };
  };

  // Seed entries (through the SR-1 chokepoint). Optional secrets are registered in a fixture run first. A run the
  // seam makes up ends with the request; a run the client names lives on (bounded per tenant, expires when idle).
  serve(app, ROUTES.memorySeed, async (req) => {
    const { memoryRef, entries, secrets, runId: asked } = bodyOf(req, ROUTES.memorySeed);
    const tenant = tenantOrThrow(memoryRef);
    const runId = asked ?? `seed-${randomUUID()}`;
    // A run belongs to one tenant for its whole life: naming another tenant's run is a conflict, before any write.
    if (!host.claimRun(runId, tenant)) throw new HttpError('conflict', 'runId belongs to another tenant', { failures: [{ instancePath: '/runId', message: 'run is bound to another tenant' }] });
    try {
      for (const { secretId, value } of secrets ?? []) host.resolveSecret(runId, tenant, { secretId, value, scope: 'run' });
      const written = entries.map((e) => host.write(memoryRef, {
        content: e.content,
        tags: e.tags ?? [],
        ...(e.ttlSeconds !== undefined ? { ttlSeconds: e.ttlSeconds } : {}),
        ...(e.tier === 'transactional' ? { tier: 'transactional' as const } : {}),
      }, { runId, tenant }));
      return { memoryRef, runId, entries: written };
    } finally {
      if (asked === undefined) host.endRun(runId);
    }
  });

  // The read interface, as a tenant sees it (CTI-1: another tenant's ref gives []).
  serve(app, ROUTES.memoryEntries, async (req) => {
    const q = queryOf(req, ROUTES.memoryEntries);
    const tenant = actingTenant(req, q.tenant);
    const limit = q.limit === undefined ? undefined : Number(q.limit);
    const entries = await host.memoryFor(tenant).list(q.memoryRef ?? '', { ...(limit !== undefined ? { limit } : {}), ...(q.tag !== undefined ? { tag: q.tag } : {}) });
    return { entries };
  });
  serve(app, ROUTES.memoryEntry, async (req) => {
    const q = queryOf(req, ROUTES.memoryEntry);
    const entry = await host.memoryFor(actingTenant(req, q.tenant)).get(q.memoryRef ?? '', q.id ?? '');
    if (entry === null) throw new HttpError('not_found', 'no such entry');
    return entry;
  });

  // SR-1 fixture: resolve a BYOK secret in a run, write an entry containing its plaintext.
  serve(app, ROUTES.memoryRedaction, async (req) => {
    const { memoryRef } = bodyOf(req, ROUTES.memoryRedaction);
    const tenant = tenantOrThrow(memoryRef);
    const runId = `redaction-${randomUUID()}`;
    const secretId = `byok-${randomUUID().slice(0, 8)}`;
    const value = `sk-live-${randomUUID()}`;
    try {
      const plaintext = host.resolveSecret(runId, tenant, { secretId, value, scope: 'user' });
      const entry = host.write(memoryRef, { content: `The API key is ${plaintext} — keep it safe.` }, { runId, tenant });
      return { memoryRef, memoryId: entry.id, secretId, secretValue: plaintext };
    } finally {
      host.endRun(runId);
    }
  });

  // RFC 0012 client-requested compaction.
  serve(app, ROUTES.memoryCompact, async (req) => {
    const { memoryRef, sourceIds } = bodyOf(req, ROUTES.memoryCompact);
    const tenant = tenantOrThrow(memoryRef);
    const r = host.compact(memoryRef, tenant, sourceIds);
    return { compactionRunId: r.compactionRunId, event: r.event, output: r.output };
  });

  // RFC 0062 on-demand distillation of the ref's transactional entries, or of the named sources (each seeded with
  // fixed text when the ref does not hold it, so the same request always distils the same bytes). An empty ref is
  // seeded with a small transactional corpus first.
  serve(app, ROUTES.memoryDistill, async (req) => {
    const { memoryRef: asked, tokenBudget, sources } = bodyOf(req, ROUTES.memoryDistill);
    const memoryRef = scopedRef(req, asked);
    const tenant = tenantOrThrow(memoryRef);
    const seed = async (id: string | undefined, content: string) => host.write(memoryRef, { ...(id !== undefined ? { id } : {}), content, tier: 'transactional' }, { tenant });
    const reader = await host.memoryFor(tenant);
    for (const id of sources ?? []) if ((await reader.get(memoryRef, id)) === null) await seed(id, `Distillation source ${id}: the customer asked about ${id} and was answered.`);
    const distil = async () => host.distill(memoryRef, tenant, tokenBudget, sources);
    const r = await distil().catch(async (e: unknown) => {
      if (sources !== undefined || (e as { code?: unknown }).code !== 'no_sources') throw e;
      for (const c of DISTILLATION_FIXTURE) await seed(undefined, c);
      return distil();
    });
    return r;
  });
}
