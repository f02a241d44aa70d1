import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { createOpenwopRuntime } from '../../../runtime/openwop/index.ts';
import { DistillationError, TokenBudgetExceededError, UnadvertisedDistiller } from '../../../runtime/distillation/distiller.ts';
import { INDEX_PATH, isValidIndex, readIndex } from '../../../runtime/distillation/index-manifest.ts';
import { countTokens, TOKENIZER_NAME } from '../../../runtime/shared/tokenizer.ts';
import { validateMemoryIndex } from '../../../generated/validators/validators.js';
import { validateRunEvent } from '../../../runtime/events/validate.ts';
import { TenantMemoryAdapter } from '../../../runtime/memory/adapter.ts';
import type { Summariser } from '../../../runtime/compaction/summariser.ts';
import { REF, setup, thrown, type Env } from '../compaction/fixture.ts';
import { markerOverlap } from '../../../runtime/redaction/marker.ts';

const seed = (s: Env) => {
  for (const t of ['Customer asked about refunds.', 'Customer prefers email follow-up.', 'Customer asked about refunds.']) s.writer.put(REF, { content: t, tier: 'transactional' });
  s.writer.put(REF, { id: 'lt', content: 'Long-term fact stays.' });
};
const snapshot = (s: Env) => JSON.stringify({ mem: s.store.refs().map((r) => [r, s.store.listRawSync(r)]), idx: s.workspace.read(REF, INDEX_PATH) ?? null, ev: s.events() });

describe('RFC 0062 distillation', () => {
  it('clamps the budget to the advertised maximum and defaults to it', () => {
    const s = setup({ maxTokenBudget: 50 });
    expect(s.distiller.budgetFor(undefined)).toBe(50);
    expect(s.distiller.budgetFor(500)).toBe(50);
    expect(s.distiller.budgetFor(20)).toBe(20);
    expect((thrown(() => s.distiller.budgetFor(0)) as DistillationError).code).toBe('invalid_budget');
    seed(s);
    expect(s.distiller.distill(REF, { tokenBudget: 10_000 }).event.distillation?.tokenBudget).toBe(50);
  });
  it('distils transactional entries into an archive, updates MEMORY-INDEX.json (workspace.updated) and reports the distillation sub-object', async () => {
    const s = setup();
    seed(s);
    const r = s.distiller.distill(REF);
    expect(r.event.trigger).toBe('host-managed');
    expect(r.event.distillation).toEqual({ tokenBudget: 200, tokensUsed: expect.any(Number), indexUpdated: true });
    expect(r.event.distillation!.tokensUsed).toBeLessThanOrEqual(200);
    expect(r.event.byteSize).toBe(Buffer.byteLength(r.entry.content, 'utf8'));
    expect(r.archiveId).toMatch(/^arc_[0-9a-f]{64}$/);
    expect((await s.adapter.get(REF, r.event.outputId))?.content).toBe('Customer asked about refunds.\nCustomer prefers email follow-up.');
    const index = readIndex(s.workspace, REF)!;
    expect(validateMemoryIndex(index)).toBe(true);
    expect(index).toMatchObject({ schemaVersion: 1, memoryRef: REF, tokenizerName: TOKENIZER_NAME });
    expect(index.archives.map((a) => [a.archiveId, a.entryId, a.level, a.sourceCount])).toEqual([[r.archiveId, r.entry.id, 1, 3]]);
    const events = s.events();
    expect(events.map((e) => e.type)).toEqual(['workspace.updated', 'memory.compacted']);
    expect(events[0]!.payload).toMatchObject({ path: INDEX_PATH, byteSize: Buffer.byteLength(s.workspace.read(REF, INDEX_PATH)!, 'utf8') });
    for (const e of events) expect(validateRunEvent(e).ok).toBe(true);
    // long-term entries are not distillation input
    expect(await s.adapter.get(REF, 'lt')).not.toBeNull();
  });
  it('without indexEmitted: no index file, no workspace.updated, indexUpdated false', () => {
    const s = setup({ indexEmitted: false });
    seed(s);
    const r = s.distiller.distill(REF);
    expect(r.event.distillation?.indexUpdated).toBe(false);
    expect(s.workspace.read(REF, INDEX_PATH)).toBeUndefined();
    expect(s.events().map((e) => e.type)).toEqual(['memory.compacted']);
  });
  it('is byte-stable: the same sources and budget give the same archive id and bytes, whenever it runs', () => {
    const a = setup(); seed(a);
    const b = setup(); b.clock.advance(123_456); seed(b);
    const ra = a.distiller.distill(REF, { tokenBudget: 150 });
    const rb = b.distiller.distill(REF, { tokenBudget: 150 });
    expect(rb.archiveId).toBe(ra.archiveId);
    expect(rb.entry.id).toBe(ra.entry.id);
    expect(rb.entry.content).toBe(ra.entry.content);
    const c = setup(); seed(c);
    expect(c.distiller.distill(REF, { tokenBudget: 149 }).archiveId).not.toBe(ra.archiveId); // the budget is part of the address
  });
  it('fails atomically with token_budget_exceeded: no archive, no index change, no event', () => {
    const s = setup();
    seed(s);
    s.distiller.distill(REF); // a first index exists
    for (const t of ['More notes about the order.', 'Another note.']) s.writer.put(REF, { content: t, tier: 'transactional' });
    const before = snapshot(s);
    const err = thrown(() => s.distiller.distill(REF, { tokenBudget: 5 }));
    expect(err).toBeInstanceOf(TokenBudgetExceededError);
    expect((err as TokenBudgetExceededError).code).toBe('token_budget_exceeded');
    expect((err as TokenBudgetExceededError).details.tokenBudget).toBe(5);
    expect(snapshot(s)).toBe(before);
  });
  it('never reports more tokens than the budget, even when redaction markers outgrow the secrets (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 120 }), fc.array(fc.constantFrom('Alpha beta.', 'Key KKKKKKKK here.', 'Gamma KKKKKKKK delta KKKKKKKK.', 'Plain.'), { minLength: 1, maxLength: 6 }), (budget, texts) => {
        const s = setup({ maxTokenBudget: 120, summariser: (src, l) => `${src.join(' ')} KKKKKKKK KKKKKKKK`.split(' ').reduce((acc, w) => (l.countTokens!(`${acc} ${w}`) <= (l.maxTokens ?? Infinity) ? `${acc} ${w}`.trim() : acc), '') });
        s.registries.forRun('r', 'tenant-a').register('a-rather-long-secret-id', 'KKKKKKKK', 'run');
        for (const t of texts) s.writer.put(REF, { content: t, tier: 'transactional' });
        const before = snapshot(s);
        const inputTokens = s.store.listRawSync(REF).reduce((n, e) => n + countTokens(e.content), 0);
        try {
          const r = s.distiller.distill(REF, { tokenBudget: budget });
          expect(r.event.distillation!.tokensUsed).toBeLessThanOrEqual(r.event.distillation!.tokenBudget);
          expect(r.event.distillation!.tokensUsed).toBe(inputTokens + countTokens(r.entry.content));
          expect(r.entry.content).not.toContain('KKKKKKKK');
        } catch (e) {
          expect(e).toBeInstanceOf(TokenBudgetExceededError);
          expect(snapshot(s)).toBe(before);
        }
      }),
      { numRuns: 300 },
    );
  });
  it('recursive distillation distils level-1 archives into a level-2 archive and re-checks SR-1', () => {
    const s = setup({ maxTokenBudget: 1000 });
    s.writer.put(REF, { content: 'First batch note.', tier: 'transactional' });
    s.distiller.distill(REF);
    s.writer.put(REF, { content: 'Second batch note.', tier: 'transactional' });
    s.distiller.distill(REF);
    s.registries.forRun('run-9', 'tenant-a').register('byok-2', 'Second batch', 'run'); // resolved after level 1 was written
    const top = s.distiller.distill(REF, { fromLevel: 1 });
    expect(top.entry.tags).toContain('distill-level:2');
    expect(top.event.sourceCount).toBe(2);
    expect(top.entry.content).not.toContain('Second batch');
    expect(top.entry.content).toContain('[REDACTED:byok-2]');
    const index = readIndex(s.workspace, REF)!;
    expect(index.archives.map((a) => a.level)).toEqual([1, 1, 2]);
    expect(isValidIndex(index)).toBe(true);
  });
  it('archives persist for archiveRetention, then stop surfacing and leave the index on its next update', async () => {
    const s = setup();
    seed(s);
    const r = s.distiller.distill(REF);
    expect(r.entry.expiresAt).toBe(new Date(s.clock.now() + 30 * 86_400_000).toISOString());
    s.clock.advance(30 * 86_400_000 - 1);
    expect(await s.adapter.get(REF, r.entry.id)).not.toBeNull();
    s.clock.advance(1);
    expect(await s.adapter.get(REF, r.entry.id)).toBeNull();
    s.writer.put(REF, { content: 'Fresh note.', tier: 'transactional' });
    s.distiller.distill(REF);
    expect(readIndex(s.workspace, REF)!.archives.map((a) => a.archiveId)).not.toContain(r.archiveId);
  });
  it('CTI-1 holds for archives and the index: another tenant sees neither', async () => {
    const s = setup();
    seed(s);
    const r = s.distiller.distill(REF);
    const b = new TenantMemoryAdapter('tenant-b', s.store, s.clock);
    expect(await b.get(REF, r.entry.id)).toBeNull();
    expect(s.workspace.read('mem://tenant-b/agent-1', INDEX_PATH)).toBeUndefined();
    expect(thrown(() => s.distiller.distill(REF, { context: { tenant: 'tenant-b' } }))).toBeDefined();
  });
  it('advertises its configuration; an unadvertised distiller refuses to run', () => {
    const s = setup({ maxTokenBudget: 300 });
    expect(s.distiller.capability()).toEqual({ memory: { distillation: { supported: true, maxTokenBudget: 300, scheduled: false, indexEmitted: true, tokenizerName: TOKENIZER_NAME, archiveRetention: 'P30D' } } });
    const off = new UnadvertisedDistiller({ store: s.store, writer: s.writer, compactor: s.compactor, workspace: s.workspace, clock: s.clock, ids: s.ids, emit: () => {}, maxTokenBudget: 10 });
    expect(off.capability()).toEqual({});
    expect((thrown(() => off.distill()) as DistillationError).code).toBe('not_advertised');
  });
});

describe('SR-1 across every write path', () => {
  const unit = fc.constantFrom('k', 'e', 'y', '-', '.', '*', '(', '[', '$', '9');
  // values that could overlap the redaction marker are refused at registration (runtime/redaction/marker.ts)
  const secretArb = fc.string({ minLength: 8, maxLength: 14, unit }).filter((v) => markerOverlap(v) === undefined);
  it('no registered secret of 8+ chars survives a direct put, compaction, distillation or recursive distillation (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(secretArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(fc.nat({ max: 7 }), fc.boolean()), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (base, picks, registerLate) => {
          // nested: a longer secret that contains the first one
          const secrets = [...new Set([...base, `${base[0]}-outer`])];
          // a hallucinating summariser re-inserts every secret and a BYOK form into its output
          const evil: Summariser = (src) => `${src.join(' ')} ${secrets.join(' ')} [BYOK:${secrets[0]}].`;
          const s = setup({ summariser: evil, maxTokenBudget: 100_000 });
          const register = () => secrets.forEach((v, i) => s.registries.forRun('run-1', 'tenant-a').register(`s${i}`, v, 'run'));
          if (!registerLate) register();
          const direct = picks.map(([p, tx]) => s.writer.put(REF, { content: `note ${secrets[p % secrets.length]} end.`, ...(tx ? { tier: 'transactional' as const } : {}) }));
          if (registerLate) register(); // sources hold plaintext: derived content must still be clean
          const outputs: string[] = registerLate ? [] : direct.map((e) => e.content);
          s.writer.put(REF, { content: 'level one seed.', tier: 'transactional' });
          outputs.push(s.distiller.distill(REF).entry.content);
          s.writer.put(REF, { content: `second ${secrets[0]}.`, tier: 'transactional' });
          outputs.push(s.distiller.distill(REF).entry.content);
          outputs.push(s.distiller.distill(REF, { fromLevel: 1 }).entry.content);
          outputs.push(s.compactor.compact(REF).output.content);
          for (const out of outputs) {
            for (const v of secrets) expect(out.includes(v)).toBe(false);
            expect(out).not.toMatch(/\[BYOK:/);
          }
          // and what a reader gets back is clean too
          for (const e of s.store.listRawSync(REF)) for (const v of secrets) expect(e.content.includes(v)).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('distillation of named sources (the upstream-shaped seam)', () => {
  it('distils exactly the named entries and reports the sha256 of the archive bytes; the same sources give the same checksum', () => {
    const rt = createOpenwopRuntime();
    const ref = 'mem://acme/distil-named';
    const seed = () => ['s1', 's2'].map((id) => rt.writer.put(ref, { id, content: `Source ${id} was answered.`, tier: 'transactional' }, { tenant: 'acme' }));
    seed();
    rt.writer.put(ref, { id: 'other', content: 'Not named.', tier: 'transactional' }, { tenant: 'acme' });
    const a = rt.distiller.distill(ref, { sourceIds: ['s1', 's2'], context: { tenant: 'acme' } });
    expect(a.event.sourceIds).toEqual(['s1', 's2']);
    expect(a.archiveChecksum).toBe(`sha256:${createHash('sha256').update(a.entry.content).digest('hex')}`);
    expect(a.indexFile?.content.archives.map((x) => x.archiveId)).toContain(a.archiveId);
    seed();
    const b = rt.distiller.distill(ref, { sourceIds: ['s1', 's2'], context: { tenant: 'acme' } });
    expect(b.archiveChecksum).toBe(a.archiveChecksum);
  });
});
