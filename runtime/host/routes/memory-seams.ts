/**
 * Memory test seams under /v1/host/sample/memory/… (documented in docs/host.md). They drive the runtime exactly as
 * a real host's background jobs would, so the conformance suite can observe CTI-1, SR-1, TTL, compaction,
 * distillation, consolidation and commitments over HTTP.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  validateHostSampleCommitmentFireRequest, validateHostSampleConsolidateRequest, validateHostSampleMemoryCompactRequest,
  validateHostSampleMemoryDistillRequest, validateHostSampleMemoryRedactionRequest, validateHostSampleMemorySeedRequest,
} from '../../../generated/validators/validators.js';
import type {
  HostSampleCommitmentFireRequest, HostSampleConsolidateRequest, HostSampleMemoryCompactRequest, HostSampleMemoryDistillRequest,
  HostSampleMemoryRedactionRequest, HostSampleMemorySeedRequest,
} from '../../../generated/ts/index.ts';
import { HttpError } from '../errors.ts';
import { bodyOf, type HostContext } from '../context.ts';
import { parseMemoryRef } from '../../memory/memory-ref.ts';
import { CommitmentEngine, InMemoryFiredLedger } from '../../commitments/engine.ts';
import { ConsolidationService } from '../../consolidation/service.ts';
import { TenantMemoryAdapter } from '../../memory/adapter.ts';
import type { CommitmentFiredPayload } from '../../../generated/ts/index.ts';

const CONSOLIDATION_FIXTURE = ['Refund policy: refunds within 30 days.', 'Refund policy: refunds within 30 days.', 'Customer prefers email follow-up.', 'Shipping is free over 50 EUR.'];

export function tenantOrThrow(ref: string): string {
  const p = parseMemoryRef(ref);
  if (p === null) throw new HttpError('validation_failed', 'memoryRef is malformed', { failures: [{ instancePath: '/memoryRef', message: 'must be mem://<tenant>/<scope>' }] });
  return p.tenant;
}

export function registerMemorySeams(app: FastifyInstance, ctx: HostContext): void {
  const rt = ctx.openwop;
  /** The read adapter a caller of the given tenant gets (the mutations break CTI-1 or TTL, tests only). */
  const readerFor = (tenant: string, memoryRef: string) => {
    const t = ctx.mutations.crossTenantRead ? (parseMemoryRef(memoryRef)?.tenant ?? tenant) : tenant;
    return ctx.mutations.ignoreTtl ? new TenantMemoryAdapter(t, rt.store, { now: () => 0 }) : rt.adapterFor(t);
  };

  // RFC 0068 seam: one on-demand consolidation pass (seeds the 4-entry fixture when the ref is empty).
  app.post('/v1/host/sample/memory/consolidate', async (req) => {
    const body = bodyOf<HostSampleConsolidateRequest>(req, validateHostSampleConsolidateRequest);
    const tenant = tenantOrThrow(body.memoryRef);
    if (rt.store.listRawSync(body.memoryRef).length === 0) for (const c of CONSOLIDATION_FIXTURE) rt.writer.put(body.memoryRef, { content: c }, { tenant });
    let canary: string | undefined;
    if (body.includeSecretCanary === true) {
      canary = `sk-canary-${randomUUID()}`;
      const runId = `fixture-${randomUUID()}`;
      rt.registries.forRun(runId, tenant).register('byok-consolidation-canary', canary, 'run');
      const content = `Deploy key for the nightly job is ${canary}.`;
      if (ctx.mutations.leakSecret) rt.store.upsertSync(body.memoryRef, { id: `leak-${runId}`, content, tags: [], createdAt: new Date().toISOString() });
      else rt.writer.put(body.memoryRef, { content }, { runId, tenant });
    }
    // Broken variant: a consolidation service without the SR-1 chokepoint (and a canary written around it).
    const service = ctx.mutations.leakSecret
      ? new ConsolidationService({ clock: rt.clock, store: rt.store, tenantOf: (r) => parseMemoryRef(r)?.tenant, redact: (c) => c, emit: (type, payload) => { rt.log.append('host-background', { type, payload: { ...payload } }); } })
      : rt.consolidation;
    const result = await service.consolidate(body.memoryRef, { trigger: 'on-demand', tenantId: tenant });
    const secretLeaked = canary !== undefined && rt.store.listRawSync(body.memoryRef).some((e) => e.content.includes(canary!));
    const ev = rt.lastConsolidationEvent();
    return { event: result.payload, secretLeaked, ...(ev !== undefined ? { eventId: ev.eventId, runId: ev.runId } : {}) };
  });

  // RFC 0068 seam: infer a commitment from a fixture entry, satisfy its condition, evaluate it repeatedly.
  app.post('/v1/host/sample/commitment/fire', async (req) => {
    const body = bodyOf<HostSampleCommitmentFireRequest>(req, validateHostSampleCommitmentFireRequest);
    const tenant = tenantOrThrow(body.memoryRef);
    const canary = body.includeIntentionCanary === true ? `intent-canary-${randomUUID()}` : undefined;
    const predicateId = `fixture-${randomUUID().slice(0, 8)}`;
    const conditionTag = body.condition === 'time' ? `at:${new Date(rt.clock.now()).toISOString()}` : `when:${predicateId}`;
    const entry = rt.writer.put(body.memoryRef, { content: `Remind me to follow up on the contract ${canary ?? ''}`.trim(), tags: ['intent:remind', conditionTag, 'action:run'] }, { tenant });
    const fired: CommitmentFiredPayload[] = [];
    const engine = ctx.mutations.refireCommitment ? undefined : rt.commitments;
    const armed = (engine ?? rt.commitments).inferFrom(body.memoryRef, entry);
    const commitmentId = armed[0]?.commitmentId;
    if (commitmentId === undefined) throw new HttpError('internal_error', 'fixture produced no commitment');
    if (body.condition === 'predicate') rt.predicates.set(tenant, predicateId, true);
    const record = (p: CommitmentFiredPayload) => { if (p.commitmentId === commitmentId) fired.push(p); };
    for (let i = 0; i < 3; i++) {
      if (ctx.mutations.refireCommitment) {
        // Broken variant: a fresh ledger each evaluation, so the same instance fires again.
        const broken = new CommitmentEngine({ clock: rt.clock, tenantOf: (r) => parseMemoryRef(r)?.tenant, predicates: rt.predicates, emit: (_t, p) => { rt.log.append('host-background', { type: 'commitment.fired', payload: { ...p } }); }, ledger: new InMemoryFiredLedger() });
        broken.inferFrom(body.memoryRef, entry);
        for (const o of await broken.tick()) record(o.payload);
      } else {
        for (const o of await rt.commitments.tick()) record(o.payload);
      }
    }
    if (fired.length === 0) throw new HttpError('internal_error', 'the satisfied commitment did not fire');
    const event = { ...fired[0]!, ...(ctx.mutations.leakIntention ? { note: `Remind me to follow up on the contract ${canary ?? ''}` } : {}) };
    return { event, fireCount: fired.length, ...(canary !== undefined ? { intentionCanary: canary } : {}) };
  });

  // Seed entries (through the SR-1 chokepoint). Optional secrets are registered in a fixture run first.
  app.post('/v1/host/sample/memory/seed', async (req) => {
    const { memoryRef, entries, secrets, runId: asked } = bodyOf<HostSampleMemorySeedRequest>(req, validateHostSampleMemorySeedRequest);
    const tenant = tenantOrThrow(memoryRef);
    const runId = asked ?? `seed-${randomUUID()}`;
    // A run belongs to one tenant for its whole life: naming another tenant's run is a conflict, before any write.
    const conflict = () => new HttpError('conflict', 'runId belongs to another tenant', { failures: [{ instancePath: '/runId', message: 'run is bound to another tenant' }] });
    const started = rt.runs.get(runId);
    if (started !== undefined && started.tenant !== tenant) throw conflict();
    try {
      rt.registries.forRun(runId, tenant);
    } catch {
      throw conflict();
    }
    for (const { secretId, value } of secrets ?? []) {
      rt.byok.store(secretId, value, 'run');
      rt.byok.resolve(runId, tenant, secretId);
    }
    const written = entries.map((e) => rt.asRun(runId, () => rt.writer.put(memoryRef, {
      content: e.content,
      tags: e.tags ?? [],
      ...(e.ttlSeconds !== undefined ? { ttlSeconds: e.ttlSeconds } : {}),
      ...(e.tier === 'transactional' ? { tier: 'transactional' as const } : {}),
    }, { runId, tenant })));
    return { memoryRef, runId, entries: written };
  });

  // The read interface, as a tenant sees it: ?tenant=&memoryRef=&tag=&limit= (CTI-1: another tenant's ref gives []).
  app.get('/v1/host/sample/memory/entries', async (req) => {
    const q = req.query as Record<string, string | undefined>;
    const tenant = q.tenant ?? '';
    const limit = q.limit === undefined ? undefined : Number(q.limit);
    const entries = await readerFor(tenant, q.memoryRef ?? '').list(q.memoryRef ?? '', { ...(limit !== undefined ? { limit } : {}), ...(q.tag !== undefined ? { tag: q.tag } : {}) });
    return { entries };
  });
  app.get('/v1/host/sample/memory/entry', async (req) => {
    const q = req.query as Record<string, string | undefined>;
    const entry = await readerFor(q.tenant ?? '', q.memoryRef ?? '').get(q.memoryRef ?? '', q.id ?? '');
    if (entry === null) throw new HttpError('not_found', 'no such entry');
    return entry;
  });

  // SR-1 fixture: resolve a BYOK secret in a run, write an entry containing its plaintext.
  app.post('/v1/host/sample/memory/redaction', async (req) => {
    const { memoryRef } = bodyOf<HostSampleMemoryRedactionRequest>(req, validateHostSampleMemoryRedactionRequest);
    const tenant = tenantOrThrow(memoryRef);
    const runId = `redaction-${randomUUID()}`;
    const secretId = `byok-${randomUUID().slice(0, 8)}`;
    const value = `sk-live-${randomUUID()}`;
    rt.byok.store(secretId, value, 'user');
    const plaintext = rt.byok.resolve(runId, tenant, secretId)!;
    const entry = rt.asRun(runId, () => rt.writer.put(memoryRef, { content: `The API key is ${plaintext} — keep it safe.` }, { runId, tenant }));
    rt.registries.endRun(runId);
    return { memoryRef, memoryId: entry.id, secretId, secretValue: plaintext };
  });

  // RFC 0012 client-requested compaction.
  app.post('/v1/host/sample/memory/compact', async (req) => {
    const { memoryRef, sourceIds } = bodyOf<HostSampleMemoryCompactRequest>(req, validateHostSampleMemoryCompactRequest);
    const tenant = tenantOrThrow(memoryRef);
    const r = rt.compactor.compact(memoryRef, { trigger: 'client-requested', context: { tenant }, ...(sourceIds !== undefined ? { sourceIds } : {}) });
    return { compactionRunId: r.compactionRunId, event: r.event, output: r.output };
  });

  // RFC 0062 on-demand distillation of the ref's transactional entries.
  app.post('/v1/host/sample/memory/distill', async (req) => {
    const { memoryRef, tokenBudget } = bodyOf<HostSampleMemoryDistillRequest>(req, validateHostSampleMemoryDistillRequest);
    const tenant = tenantOrThrow(memoryRef);
    const r = rt.distiller.distill(memoryRef, { context: { tenant }, ...(tokenBudget !== undefined ? { tokenBudget } : {}) });
    return { archiveId: r.archiveId, event: r.event, entry: r.entry, ...(r.index !== undefined ? { index: r.index } : {}) };
  });
}
