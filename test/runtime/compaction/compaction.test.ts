import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COMPACTED_FROM, CompactionError } from '../../../runtime/compaction/compactor.ts';
import { extractiveSummariser, type Summariser } from '../../../runtime/compaction/summariser.ts';
import { validateRunEvent } from '../../../runtime/events/validate.ts';
import { REF, setup, thrown } from './fixture.ts';
import { unitOfWork } from '../../../runtime/storage/index.ts';

describe('RFC 0012 compaction', () => {
  it('collapses sources into one entry readable via get, tagged compacted-from, and emits memory.compacted (with the writes it made)', async () => {
    const s = await setup();
    for (let i = 0; i < 3; i++) await s.put(REF, { id: `m${i}`, content: `Fact ${i}. Customer prefers email.` });
    const before = (await s.events()).length;
    const r = await s.compact(REF);
    expect(r.event).toEqual({ memoryRef: REF, outputId: r.output.id, sourceIds: ['m0', 'm1', 'm2'], sourceCount: 3, trigger: 'host-managed', byteSize: Buffer.byteLength(r.output.content, 'utf8') });
    const out = await s.adapter.get(REF, r.event.outputId);
    expect(out?.tags).toContain(`${COMPACTED_FROM}${r.compactionRunId}`);
    expect(r.compactionRunId.length).toBeGreaterThan(0);
    expect(out?.content).toBe('Fact 0.\nCustomer prefers email.\nFact 1.\nFact 2.');
    expect(await s.adapter.get(REF, 'm0')).toBeNull();
    const events = await s.events();
    const ev = events.filter((e) => e.type === 'memory.compacted');
    expect(ev.map((e) => e.payload)).toEqual([r.event]);
    expect(ev[0]!.runId).toBe(r.compactionRunId); // logged in a run of its own, in the tenant
    expect((await unitOfWork(s.rt.port, (tx) => s.rt.runs.row(tx, r.compactionRunId)))).toMatchObject({ tenant: 'tenant-a', kind: 'task' });
    // the output's put and the sources' deletions are announced in the same transaction
    expect(events.slice(before).filter((e) => e.type === 'memory.written').map((e) => e.payload.operation).sort()).toEqual(['delete', 'delete', 'delete', 'put']);
    for (const e of events) expect(validateRunEvent(e).ok).toBe(true);
  });
  it('byteSize is the UTF-8 byte length of the output content, not its UTF-16 length', async () => {
    const s = await setup();
    await s.put(REF, { content: 'Zażółć gęślą jaźń. 東京 🚀.' });
    const r = await s.compact(REF);
    expect(r.event.byteSize).toBe(Buffer.byteLength(r.output.content, 'utf8'));
    expect(r.event.byteSize).toBeGreaterThan(r.output.content.length);
  });
  it('lists sourceIds exhaustively up to 100 sources and omits them above, with an exact sourceCount', async () => {
    for (const n of [1, 100, 101, 250]) {
      const s = await setup();
      const ids: string[] = [];
      for (let i = 0; i < n; i++) ids.push((await s.put(REF, { content: `Note ${i}.` })).id);
      const { event } = await s.compact(REF);
      expect(event.sourceCount).toBe(n);
      if (n <= 100) expect([...event.sourceIds!].sort()).toEqual([...ids].sort());
      else expect(event).not.toHaveProperty('sourceIds');
    }
  });
  it('SR-1 carry-forward: a summariser that hallucinates a secret or a BYOK form is still redacted', async () => {
    const leaky: Summariser = () => 'Summary mentions sk-live-ABCDEFGH1234 and [BYOK:openai-key] and [BYOK:x y].';
    const s = await setup({ summariser: leaky });
    await s.register({ 'byok-1': 'sk-live-ABCDEFGH1234' });
    await s.put(REF, { content: 'Already clean [REDACTED:byok-1].' });
    const { output } = await s.compact(REF);
    expect(output.content).toBe('Summary mentions [REDACTED:byok-1] and [REDACTED:byok-reference] and [REDACTED:byok-reference].');
    expect(output.content).not.toMatch(/\[BYOK:/);
  });
  it('keeps redaction markers from the sources intact, even with dots and colons in the secretId', async () => {
    const s = await setup();
    await s.put(REF, { content: 'Token was [REDACTED:byok.9] today. Other [REDACTED:vault:key-2]!' });
    const out = (await s.compact(REF)).output.content;
    expect(out).toContain('[REDACTED:byok.9]');
    expect(out).toContain('[REDACTED:vault:key-2]');
  });
  it('a source written before its secret was registered does not leak through the summary, even split at a period', async () => {
    const s = await setup();
    await s.put(REF, { content: 'The key is abc. defghijk and more.' }); // no registry yet: stored as is
    await s.register({ late: 'abc. defghijk' });
    const out = (await s.compact(REF)).output.content;
    expect(out).not.toContain('defghijk');
    expect(out).toContain('[REDACTED:late]');
  });
  it('refuses a malformed ref, unknown sources and too many sources, writing nothing', async () => {
    const s = await setup();
    await s.put(REF, { id: 'k', content: 'x.' });
    const before = await s.snapshot();
    expect(((await thrown(() => s.compact('mem://tenant-a/../b/x'))) as CompactionError).code).toBe('invalid_memory_ref');
    expect(((await thrown(() => s.compact(REF, { sourceIds: ['k', 'nope'] }))) as CompactionError).code).toBe('unknown_source');
    expect(((await thrown(() => s.compact('mem://tenant-a/empty'))) as CompactionError).code).toBe('no_sources');
    expect(((await thrown(() => s.compact(REF, { sourceIds: Array.from({ length: 1001 }, (_, i) => `id${i}`) }))) as CompactionError).code).toBe('too_many_sources');
    expect(await s.snapshot()).toBe(before);
    expect((await s.entries(REF)).map((e) => e.id)).toEqual(['k']);
    expect((await s.events()).filter((e) => e.type === 'memory.compacted')).toEqual([]);
  });
  it('a compaction cannot cross tenants: the context tenant must own the ref', async () => {
    const s = await setup();
    await s.put('mem://tenant-b/x', { content: 'B fact.' });
    expect(await thrown(() => s.compact('mem://tenant-b/x', { context: { tenant: 'tenant-a' } }))).toBeDefined();
    expect(await s.entries('mem://tenant-b/x')).toHaveLength(1);
  });
  it('a memoryRef at its entry bound can still be compacted and distilled: the sources leave before the output arrives', async () => {
    const s = await setup({ memoryBounds: { entriesPerMemoryRef: 3 } });
    for (let i = 0; i < 3; i++) await s.put(REF, { content: `Fact ${i}.` });
    expect(await thrown(() => s.put(REF, { content: 'One too many.' }))).toMatchObject({ code: 'quota_exceeded' });
    await s.compact(REF);
    expect(await s.entries(REF)).toHaveLength(1);
    for (let i = 0; i < 2; i++) await s.put(REF, { content: `Turn ${i}.`, tier: 'transactional' });
    await s.distill(REF);
    expect(await s.entries(REF)).toHaveLength(2);
  });
  it('advertises exactly its configuration', async () => {
    expect((await setup()).compactor.capability()).toEqual({ memory: { compaction: { supported: true, trigger: 'both', maxInputEntries: 1000, maxOutputBytes: 65536 } } });
  });
  it('the extractive summariser is deterministic and drops repeated sentences', () => {
    const src = ['A one. B two.', 'a  ONE. C three!'];
    expect(extractiveSummariser(src, {})).toBe('A one.\nB two.\nC three!');
    expect(extractiveSummariser(src, {})).toBe(extractiveSummariser([...src], {}));
  });
  it('compaction events validate and the output is always readable and tagged (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ maxLength: 40 }), { minLength: 1, maxLength: 30 }), async (contents) => {
        const s = await setup();
        try {
          for (const c of contents) await s.put(REF, { content: c });
          const r = await s.compact(REF);
          expect((await s.entries(REF)).map((e) => [e.id, e.content])).toEqual([[r.event.outputId, r.output.content]]);
          expect(r.output.tags).toContain(`${COMPACTED_FROM}${r.compactionRunId}`);
          expect(r.event.byteSize).toBe(Buffer.byteLength(r.output.content, 'utf8'));
          expect(r.event.sourceIds).toHaveLength(contents.length);
          for (const e of await s.events()) expect(validateRunEvent(e).ok).toBe(true);
        } finally {
          await s.close();
        }
      }),
      { numRuns: 100 },
    );
  });
});
