/**
 * Memory test seams under /v1/host/sample/memory/… (documented in docs/host.md). They drive the runtime exactly as
 * a real host's background jobs would, so the conformance suite can observe CTI-1, SR-1, TTL, compaction,
 * distillation, consolidation and commitments over HTTP.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CommitmentFiredPayload } from '../../../generated/ts/index.ts';
import { HttpError } from '../errors.ts';
import { backgroundRunId } from '../../events/log.ts';
import { actingTenant, afterCommit, bodyOf, pageOf, queryOf, scopedRef, serve, serveSteps, tenantOrThrow, type Step } from '../route-helpers.ts';
import { ROUTES } from '../seam-catalogue.ts';
import type { HostRuntime } from '../host-runtime.ts';
import type { Tx } from '../../storage/index.ts';

const DISTILLATION_FIXTURE = ['Ticket 1: the customer asked for a refund of order 1042.', 'Ticket 2: the refund was approved within the 30-day window.', 'Ticket 3: the customer prefers email follow-up.'];
const CONSOLIDATION_FIXTURE = ['Refund policy: refunds within 30 days.', 'Refund policy: refunds within 30 days.', 'Customer prefers email follow-up.', 'Shipping is free over 50 EUR.'];

export function registerMemorySeams(app: FastifyInstance, host: HostRuntime): void {
  // RFC 0068 seam: one on-demand consolidation pass (seeds the 4-entry fixture when the ref is empty).
  // A seam of steps (route-helpers.ts serveSteps): the pass must read the fixture and the canary as committed.
  serveSteps(app, ROUTES.consolidate, async (req, _reply, step) => {
    const body = bodyOf(req, ROUTES.consolidate);
    const tenant = tenantOrThrow(body.memoryRef);
    await step(async (tx) => {
      if ((await host.storedCount(tx, body.memoryRef)) === 0) await host.seedMemory(tx, { memoryRef: body.memoryRef, tenant, entries: CONSOLIDATION_FIXTURE.map((content) => ({ content })) });
    });
    let canary: string | undefined;
    // The fixture run that plants the canary lives exactly as long as this request (its registry ends with it).
    const fixtureRun = `fixture-${randomUUID()}`;
    try {
      if (body.includeSecretCanary === true) {
        const planted = `sk-canary-${randomUUID()}`;
        canary = planted;
        await step((tx) => host.plantSecret(tx, body.memoryRef, { runId: fixtureRun, tenant, secretId: 'byok-consolidation-canary', value: planted, content: `Deploy key for the nightly job is ${planted}.` }));
      }
      const { event, eventId, runId } = await step((tx) => host.consolidate(tx, body.memoryRef, tenant));
      const planted = canary;
      const secretLeaked = planted !== undefined && (await step((tx) => host.persistedContains(tx, body.memoryRef, planted)));
      return { event, secretLeaked, ...(eventId !== undefined && runId !== undefined ? { eventId, runId } : {}) };
    } finally {
      await step((tx) => host.endRun(tx, fixtureRun));
    }
  });

  // RFC 0068 seam: infer a commitment from a fixture entry, satisfy its condition, evaluate it repeatedly. One
  // request at a time: an evaluation fires every due commitment, so a concurrent request's evaluation (while this
  // one awaits its store) would fire this one's commitment and this request would see no fire of its own.
  let commitmentSeam: Promise<unknown> = Promise.resolve();
  serveSteps(app, ROUTES.commitmentFire, (req, _reply, step) => {
    const turn = commitmentSeam.then(() => fireCommitmentSeam(req, step));
    commitmentSeam = turn.catch(() => undefined);
    return turn;
  });
  const fireCommitmentSeam = async (req: FastifyRequest, step: Step) => {
    const body = bodyOf(req, ROUTES.commitmentFire);
    const tenant = tenantOrThrow(body.memoryRef);
    // The fixture commitment asks for a follow-up run: at the tenant's bound it would wait, not fire — say so.
    await step((tx) => host.checkFollowUpRoom(tx, tenant));
    const canary = body.includeIntentionCanary === true ? `intent-canary-${randomUUID()}` : undefined;
    const predicateId = `fixture-${randomUUID().slice(0, 8)}`;
    const conditionTag = body.condition === 'time' ? `at:${new Date(host.now()).toISOString()}` : `when:${predicateId}`;
    const entry = (await step((tx) => host.write(tx, body.memoryRef, { content: `Remind me to follow up on the contract ${canary ?? ''}`.trim(), tags: ['intent:remind', conditionTag, 'action:run'] }, { tenant }))).value;
    const commitmentId = (await step(async (tx) => host.armCommitments(tx, body.memoryRef, entry)))[0];
    if (commitmentId === undefined) throw new HttpError('internal_error', 'fixture produced no commitment');
    if (body.condition === 'predicate') await step((tx) => host.satisfyPredicate(tx, tenant, predicateId));
    const fired: CommitmentFiredPayload[] = [];
    for (let i = 0; i < 3; i++) fired.push(...(await host.evaluateCommitments()).filter((p) => p.commitmentId === commitmentId));
    // Another host sharing the store may have fired it first (every host does the background work): the ledger says.
    if (fired.length === 0) fired.push(...(await step((tx) => host.commitmentFires(tx, tenant, commitmentId))));
    if (fired.length === 0) throw new HttpError('internal_error', 'the satisfied commitment did not fire');
    return { event: fired[0]!, fireCount: fired.length, ...(canary !== undefined ? { intentionCanary: canary } : {}) };
  };

  // Seed entries (through the SR-1 chokepoint), all in one transaction: a seed of which one entry is refused leaves
  // nothing. Optional secrets are registered in the seed's run first. A run the seam makes up ends with the request;
  // a run the client names lives on (bounded per tenant, dropped when idle).
  serve(app, ROUTES.memorySeed, async (req, _reply, tx) => {
    const { memoryRef, entries, secrets, runId } = bodyOf(req, ROUTES.memorySeed);
    const tenant = tenantOrThrow(memoryRef);
    const seeded = await host.seedMemory(tx, {
      memoryRef, tenant, ...(runId !== undefined ? { runId } : {}), ...(secrets !== undefined ? { secrets } : {}),
      entries: entries.map((e) => ({
        content: e.content,
        tags: e.tags ?? [],
        ...(e.ttlSeconds !== undefined ? { ttlSeconds: e.ttlSeconds } : {}),
        ...(e.tier === 'transactional' ? { tier: 'transactional' as const } : {}),
      })),
    });
    return afterCommit(() => ({ memoryRef, runId: seeded.runId ?? backgroundRunId(tenant), entries: seeded.entries.map((e) => e.value) }));
  });

  // The read interface, as a tenant sees it (CTI-1: another tenant's ref gives []), one page at a time.
  serve(app, ROUTES.memoryEntries, async (req, _reply, tx) => {
    const q = queryOf(req, ROUTES.memoryEntries);
    const tenant = actingTenant(req, q.tenant);
    return pageOf(host.memoryFor(tx, tenant), q.memoryRef ?? '', q);
  });
  serve(app, ROUTES.memoryEntry, async (req, _reply, tx) => {
    const q = queryOf(req, ROUTES.memoryEntry);
    const entry = await host.memoryFor(tx, actingTenant(req, q.tenant)).get(q.memoryRef ?? '', q.id ?? '');
    if (entry === null) throw new HttpError('not_found', 'no such entry');
    return entry;
  });

  // SR-1 fixture: resolve a BYOK secret in a run, write an entry containing its plaintext.
  // Steps: the run's registry ends after the write committed, whatever happened to it.
  serveSteps(app, ROUTES.memoryRedaction, async (req, _reply, step) => {
    const { memoryRef } = bodyOf(req, ROUTES.memoryRedaction);
    const tenant = tenantOrThrow(memoryRef);
    const runId = `redaction-${randomUUID()}`;
    const secretId = `byok-${randomUUID().slice(0, 8)}`;
    const value = `sk-live-${randomUUID()}`;
    try {
      const { plaintext, entry } = await step(async (tx) => {
        const plaintext = await host.resolveSecret(tx, runId, tenant, { secretId, value, scope: 'user' });
        return { plaintext, entry: await host.write(tx, memoryRef, { content: `The API key is ${plaintext} — keep it safe.` }, { runId, tenant }) };
      });
      return { memoryRef, memoryId: entry.value.id, secretId, secretValue: plaintext };
    } finally {
      await step((tx) => host.endRun(tx, runId));
    }
  });

  // RFC 0012 client-requested compaction.
  serve(app, ROUTES.memoryCompact, async (req, _reply, tx) => {
    const { memoryRef, sourceIds } = bodyOf(req, ROUTES.memoryCompact);
    const tenant = tenantOrThrow(memoryRef);
    const r = await host.compact(tx, memoryRef, tenant, sourceIds);
    return { compactionRunId: r.compactionRunId, event: r.event, output: r.output };
  });

  // RFC 0062 on-demand distillation of the ref's transactional entries, or of the named sources (each seeded with
  // fixed text when the ref does not hold it, so the same request always distils the same bytes). An empty ref is
  // seeded with a small transactional corpus first.
  // Steps: the distillation reads the sources seeded before it as committed.
  serveSteps(app, ROUTES.memoryDistill, async (req, _reply, step) => {
    const { memoryRef: asked, tokenBudget, sources } = bodyOf(req, ROUTES.memoryDistill);
    const memoryRef = scopedRef(req, asked);
    const tenant = tenantOrThrow(memoryRef);
    const seed = (tx: Tx, id: string | undefined, content: string) => host.write(tx, memoryRef, { ...(id !== undefined ? { id } : {}), content, tier: 'transactional' }, { tenant });
    await step(async (tx) => {
      const reader = host.memoryFor(tx, tenant);
      for (const id of sources ?? []) if ((await reader.get(memoryRef, id)) === null) await seed(tx, id, `Distillation source ${id}: the customer asked about ${id} and was answered.`);
    });
    const distil = () => step((tx) => host.distill(tx, memoryRef, tenant, tokenBudget, sources));
    const r = await distil().catch(async (e: unknown) => {
      if (sources !== undefined || (e as { code?: unknown }).code !== 'no_sources') throw e;
      await step(async (tx) => { for (const c of DISTILLATION_FIXTURE) await seed(tx, undefined, c); });
      return distil();
    });
    return r;
  });
}
