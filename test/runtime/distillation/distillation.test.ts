import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { openRuntime, request } from '../support.ts';
import { DistillationError, TokenBudgetExceededError, UnadvertisedDistiller } from '../../../runtime/distillation/distiller.ts';
import { INDEX_PATH, isValidIndex, readIndex } from '../../../runtime/distillation/index-manifest.ts';
import { countTokens, TOKENIZER_NAME } from '../../../runtime/shared/tokenizer.ts';
import { validateMemoryIndex } from '../../../generated/validators/validators.js';
import { validateRunEvent } from '../../../runtime/events/validate.ts';
import type { Summariser } from '../../../runtime/compaction/summariser.ts';
import { REF, setup, thrown, type Env } from '../compaction/fixture.ts';
import { markerOverlap } from '../../../runtime/redaction/marker.ts';
import { unitOfWork } from '../../../runtime/storage/index.ts';
import { detachedTx } from '../../../runtime/storage/unit-of-work.ts';

const seed = async (s: Env) => {
  for (const t of ['Customer asked about refunds.', 'Customer prefers email follow-up.', 'Customer asked about refunds.']) await s.put(REF, { content: t, tier: 'transactional' });
  await s.put(REF, { id: 'lt', content: 'Long-term fact stays.' });
};

describe('RFC 0062 distillation', () => {
  it('clamps the budget to the advertised maximum and defaults to it', async () => {
    const s = await setup({ maxTokenBudget: 50 });
    expect(s.distiller.budgetFor(undefined)).toBe(50);
    expect(s.distiller.budgetFor(500)).toBe(50);
    expect(s.distiller.budgetFor(20)).toBe(20);
    expect(((await thrown(() => s.distiller.budgetFor(0))) as DistillationError).code).toBe('invalid_budget');
    await seed(s);
    expect((await s.distill(REF, { tokenBudget: 10_000 })).event.distillation?.tokenBudget).toBe(50);
  });
  it('distils transactional entries into an archive, updates MEMORY-INDEX.json (workspace.updated) and reports the distillation sub-object', async () => {
    const s = await setup();
    await seed(s);
    const r = await s.distill(REF);
    expect(r.event.trigger).toBe('host-managed');
    expect(r.event.distillation).toEqual({ tokenBudget: 200, tokensUsed: expect.any(Number), indexUpdated: true });
    expect(r.event.distillation!.tokensUsed).toBeLessThanOrEqual(200);
    expect(r.event.byteSize).toBe(Buffer.byteLength(r.entry.content, 'utf8'));
    expect(r.archiveId).toMatch(/^arc_[0-9a-f]{64}$/);
    expect((await s.adapter.get(REF, r.event.outputId))?.content).toBe('Customer asked about refunds.\nCustomer prefers email follow-up.');
    const index = (await s.index())!;
    expect(validateMemoryIndex(index)).toBe(true);
    expect(index).toMatchObject({ schemaVersion: 1, memoryRef: REF, tokenizerName: TOKENIZER_NAME });
    expect(index.archives.map((a) => [a.archiveId, a.entryId, a.level, a.sourceCount])).toEqual([[r.archiveId, r.entry.id, 1, 3]]);
    const events = (await s.events()).filter((e) => e.type !== 'memory.written');
    expect(events.map((e) => e.type)).toEqual(['workspace.updated', 'memory.compacted']);
    expect(events[0]!.payload).toMatchObject({ path: INDEX_PATH, byteSize: Buffer.byteLength((await s.indexFile())!, 'utf8') });
    for (const e of events) expect(validateRunEvent(e).ok).toBe(true);
    // long-term entries are not distillation input
    expect(await s.adapter.get(REF, 'lt')).not.toBeNull();
  });
  it('without indexEmitted: no index file, no workspace.updated, indexUpdated false', async () => {
    const s = await setup({ indexEmitted: false });
    await seed(s);
    const r = await s.distill(REF);
    expect(r.event.distillation?.indexUpdated).toBe(false);
    expect(await s.indexFile()).toBeUndefined();
    expect((await s.events()).map((e) => e.type).filter((t) => t !== 'memory.written')).toEqual(['memory.compacted']);
  });
  it('is byte-stable: the same sources and budget give the same archive id and bytes, whenever it runs', async () => {
    const a = await setup(); await seed(a);
    const b = await setup(); b.clock.advance(123_456); await seed(b);
    const ra = await a.distill(REF, { tokenBudget: 150 });
    const rb = await b.distill(REF, { tokenBudget: 150 });
    expect(rb.archiveId).toBe(ra.archiveId);
    expect(rb.entry.id).toBe(ra.entry.id);
    expect(rb.entry.content).toBe(ra.entry.content);
    const c = await setup(); await seed(c);
    expect((await c.distill(REF, { tokenBudget: 149 })).archiveId).not.toBe(ra.archiveId); // the budget is part of the address
  });
  it('fails atomically with token_budget_exceeded: no archive, no index change, no event', async () => {
    const s = await setup();
    await seed(s);
    await s.distill(REF); // a first index exists
    for (const t of ['More notes about the order.', 'Another note.']) await s.put(REF, { content: t, tier: 'transactional' });
    const before = await s.snapshot();
    const err = await thrown(() => s.distill(REF, { tokenBudget: 5 }));
    expect(err).toBeInstanceOf(TokenBudgetExceededError);
    expect((err as TokenBudgetExceededError).code).toBe('token_budget_exceeded');
    expect((err as TokenBudgetExceededError).details.tokenBudget).toBe(5);
    expect(await s.snapshot()).toBe(before);
  });
  it('never reports more tokens than the budget, even when redaction markers outgrow the secrets (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 120 }), fc.array(fc.constantFrom('Alpha beta.', 'Key KKKKKKKK here.', 'Gamma KKKKKKKK delta KKKKKKKK.', 'Plain.'), { minLength: 1, maxLength: 6 }), async (budget, texts) => {
        const s = await setup({ maxTokenBudget: 120, summariser: (src, l) => `${src.join(' ')} KKKKKKKK KKKKKKKK`.split(' ').reduce((acc, w) => (l.countTokens!(`${acc} ${w}`) <= (l.maxTokens ?? Infinity) ? `${acc} ${w}`.trim() : acc), '') });
        try {
          await s.register({ 'a-rather-long-secret-id': 'KKKKKKKK' }, 'r');
          for (const t of texts) await s.put(REF, { content: t, tier: 'transactional' });
          const before = await s.snapshot();
          const inputTokens = (await s.entries(REF)).reduce((n, e) => n + countTokens(e.content), 0);
          try {
            const r = await s.distill(REF, { tokenBudget: budget });
            expect(r.event.distillation!.tokensUsed).toBeLessThanOrEqual(r.event.distillation!.tokenBudget);
            expect(r.event.distillation!.tokensUsed).toBe(inputTokens + countTokens(r.entry.content));
            expect(r.entry.content).not.toContain('KKKKKKKK');
          } catch (e) {
            expect(e).toBeInstanceOf(TokenBudgetExceededError);
            expect(await s.snapshot()).toBe(before);
          }
        } finally {
          await s.close();
        }
      }),
      { numRuns: 200 },
    );
  });
  it('recursive distillation distils level-1 archives into a level-2 archive and re-checks SR-1', async () => {
    const s = await setup({ maxTokenBudget: 1000 });
    await s.put(REF, { content: 'First batch note.', tier: 'transactional' });
    await s.distill(REF);
    await s.put(REF, { content: 'Second batch note.', tier: 'transactional' });
    await s.distill(REF);
    await s.register({ 'byok-2': 'Second batch' }, 'run-9'); // resolved after level 1 was written
    const top = await s.distill(REF, { fromLevel: 1 });
    expect(top.entry.tags).toContain('distill-level:2');
    expect(top.event.sourceCount).toBe(2);
    expect(top.entry.content).not.toContain('Second batch');
    expect(top.entry.content).toContain('[REDACTED:byok-2]');
    const index = (await s.index())!;
    expect(index.archives.map((a) => a.level)).toEqual([1, 1, 2]);
    expect(isValidIndex(index)).toBe(true);
  });
  it('archives persist for archiveRetention, then stop surfacing and leave the index on its next update', async () => {
    const s = await setup();
    await seed(s);
    const r = await s.distill(REF);
    expect(r.entry.expiresAt).toBe(new Date(s.clock.now() + 30 * 86_400_000).toISOString());
    s.clock.advance(30 * 86_400_000 - 1);
    expect(await s.adapter.get(REF, r.entry.id)).not.toBeNull();
    s.clock.advance(1);
    expect(await s.adapter.get(REF, r.entry.id)).toBeNull();
    await s.put(REF, { content: 'Fresh note.', tier: 'transactional' });
    await s.distill(REF);
    expect((await s.index())!.archives.map((a) => a.archiveId)).not.toContain(r.archiveId);
  });
  it('CTI-1 holds for archives and the index: another tenant sees neither', async () => {
    const s = await setup();
    await seed(s);
    const r = await s.distill(REF);
    const b = s.rt.adapterFor(detachedTx(s.rt.port), 'tenant-b');
    expect(await b.get(REF, r.entry.id)).toBeNull();
    expect(await unitOfWork(s.port, (tx) => s.workspace.read(tx, 'tenant-b', REF, INDEX_PATH))).toBeUndefined();
    expect(await unitOfWork(s.port, (tx) => s.workspace.read(tx, 'tenant-a', REF, INDEX_PATH))).toBeDefined();
    const before = await s.snapshot();
    expect(await thrown(() => s.distill(REF, { context: { tenant: 'tenant-b' } }))).toBeDefined();
    expect(await s.snapshot()).toBe(before);
  });
  it('advertises its configuration; an unadvertised distiller refuses to run', async () => {
    const s = await setup({ maxTokenBudget: 300 });
    expect(s.distiller.capability()).toEqual({ memory: { distillation: { supported: true, maxTokenBudget: 300, scheduled: false, indexEmitted: true, tokenizerName: TOKENIZER_NAME, archiveRetention: 'P30D' } } });
    const off = new UnadvertisedDistiller({ ...s.distillerOptions, maxTokenBudget: 10 });
    expect(off.capability()).toEqual({});
    expect(((await thrown(() => request(s.port, () => off.distill()))) as DistillationError).code).toBe('not_advertised');
  });
});

describe('SR-1 across every write path', () => {
  const unit = fc.constantFrom('k', 'e', 'y', '-', '.', '*', '(', '[', '$', '9');
  // values that could overlap the redaction marker are refused at registration (runtime/redaction/marker.ts)
  const secretArb = fc.string({ minLength: 8, maxLength: 14, unit }).filter((v) => markerOverlap(v) === undefined);
  it('no registered secret of 8+ chars survives a direct put, compaction, distillation or recursive distillation (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(secretArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(fc.nat({ max: 7 }), fc.boolean()), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        async (base, picks, registerLate) => {
          // nested: a longer secret that contains the first one
          const secrets = [...new Set([...base, `${base[0]}-outer`])];
          // a hallucinating summariser re-inserts every secret and a BYOK form into its output
          const evil: Summariser = (src) => `${src.join(' ')} ${secrets.join(' ')} [BYOK:${secrets[0]}].`;
          const s = await setup({ summariser: evil, maxTokenBudget: 100_000 });
          try {
            const register = () => s.register(Object.fromEntries(secrets.map((v, i) => [`s${i}`, v])));
            if (!registerLate) await register();
            const direct = [];
            for (const [p, tx] of picks) direct.push(await s.put(REF, { content: `note ${secrets[p % secrets.length]} end.`, ...(tx ? { tier: 'transactional' as const } : {}) }));
            if (registerLate) await register(); // sources hold plaintext: derived content must still be clean
            const outputs: string[] = registerLate ? [] : direct.map((e) => e.content);
            await s.put(REF, { content: 'level one seed.', tier: 'transactional' });
            outputs.push((await s.distill(REF)).entry.content);
            await s.put(REF, { content: `second ${secrets[0]}.`, tier: 'transactional' });
            outputs.push((await s.distill(REF)).entry.content);
            outputs.push((await s.distill(REF, { fromLevel: 1 })).entry.content);
            outputs.push((await s.compact(REF)).output.content);
            for (const out of outputs) {
              for (const v of secrets) expect(out.includes(v)).toBe(false);
              expect(out).not.toMatch(/\[BYOK:/);
            }
            // and what a reader gets back is clean too
            for (const e of await s.entries(REF)) for (const v of secrets) expect(e.content.includes(v)).toBe(false);
          } finally {
            await s.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('distillation of named sources (the upstream-shaped seam)', () => {
  it('distils exactly the named entries and reports the sha256 of the archive bytes; the same sources give the same checksum', async () => {
    const { rt, port, clock } = await openRuntime();
    const ref = 'mem://acme/distil-named';
    const seed = () => request(port, async (plan) => {
      for (const id of ['s1', 's2']) await rt.writer.put(plan, ref, { id, content: `Source ${id} was answered.`, tier: 'transactional' }, { tenant: 'acme' });
    });
    const distil = () => request(port, (plan) => rt.distiller.distill(plan, ref, { sourceIds: ['s1', 's2'], context: { tenant: 'acme' } }));
    await seed();
    await request(port, (plan) => rt.writer.put(plan, ref, { id: 'other', content: 'Not named.', tier: 'transactional' }, { tenant: 'acme' }));
    const a = await distil();
    expect(a.event.sourceIds).toEqual(['s1', 's2']);
    expect(a.archiveChecksum).toBe(`sha256:${createHash('sha256').update(a.entry.content).digest('hex')}`);
    expect(a.indexFile?.content.archives.map((x) => x.archiveId)).toContain(a.archiveId);
    expect(await unitOfWork(rt.port, (tx) => rt.adapterFor(tx, 'acme').get(ref, 'other'))).not.toBeNull();
    clock.advance(5_000);
    await seed();
    const b = await distil();
    expect(b.archiveChecksum).toBe(a.archiveChecksum);
    // the archive distilled again from the same sources is the same entry: it keeps its creation time
    expect(b.entry.createdAt).toBe(a.entry.createdAt);
  });
});
