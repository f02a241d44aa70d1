import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TenantMemoryAdapter } from '../../../runtime/memory/adapter.ts';
import { SharedMemoryStore } from '../../../runtime/memory/store.ts';
import { MemoryWriter } from '../../../runtime/memory/writer.ts';
import { SecretRegistries } from '../../../runtime/redaction/secret-registry.ts';
import { Compactor, COMPACTED_FROM } from '../../../runtime/compaction/compactor.ts';
import { Distiller, TokenBudgetExceededError } from '../../../runtime/distillation/distiller.ts';
import { Workspace, readIndex } from '../../../runtime/distillation/index-manifest.ts';
import { RunEventLog } from '../../../runtime/events/log.ts';
import { ManualClock, SequentialIds } from '../../../runtime/shared/clock.ts';
import type { Summariser } from '../../../runtime/compaction/summariser.ts';

const REF = 'mem://tenant-a/agent-1';
function setup(o: { summariser?: Summariser; maxTokenBudget?: number } = {}) {
  const clock = new ManualClock();
  const ids = new SequentialIds();
  const store = new SharedMemoryStore();
  const registries = new SecretRegistries();
  const writer = new MemoryWriter({ store, clock, ids, registries });
  const log = new RunEventLog(clock, ids);
  const emit = (runId: string, type: string, payload: Record<string, unknown>) => { log.append(runId, { type, payload }); };
  const compactor = new Compactor({ store, writer, clock, ids, emit, ...(o.summariser ? { summariser: o.summariser } : {}) });
  const workspace = new Workspace();
  const distiller = new Distiller({ store, writer, compactor, workspace, clock, ids, emit, maxTokenBudget: o.maxTokenBudget ?? 200, indexEmitted: true, archiveRetention: 'P30D' });
  const adapter = new TenantMemoryAdapter('tenant-a', store, clock);
  const events = () => log.runIds().flatMap((r) => log.read(r));
  return { clock, store, registries, writer, compactor, distiller, workspace, adapter, events };
}

describe('RFC 0012 compaction', () => {
  it('collapses sources into one readable entry tagged compacted-from and emits memory.compacted', async () => {
    const s = setup();
    for (let i = 0; i < 3; i++) s.writer.put(REF, { id: `m${i}`, content: `Fact ${i}. Customer prefers email.` });
    const r = s.compactor.compact(REF);
    expect(r.event).toEqual({ memoryRef: REF, outputId: r.output.id, sourceIds: ['m0', 'm1', 'm2'], sourceCount: 3, trigger: 'host-managed', byteSize: Buffer.byteLength(r.output.content) });
    const out = await s.adapter.get(REF, r.event.outputId);
    expect(out?.tags).toContain(`${COMPACTED_FROM}${r.compactionRunId}`);
    expect(out?.content).toBe('Fact 0.\nCustomer prefers email.\nFact 1.\nFact 2.');
    expect(await s.adapter.get(REF, 'm0')).toBeNull();
    expect(s.events().filter((e) => e.type === 'memory.compacted')).toHaveLength(1);
  });
  it('lists sourceIds exhaustively up to 100 sources and omits them above, with an exact sourceCount', () => {
    for (const n of [100, 101]) {
      const s = setup();
      for (let i = 0; i < n; i++) s.writer.put(REF, { content: `Note ${i}.` });
      const { event } = s.compactor.compact(REF);
      expect(event.sourceCount).toBe(n);
      if (n <= 100) expect(event.sourceIds).toHaveLength(n);
      else expect(event.sourceIds).toBeUndefined();
    }
  });
  it('SR-1 carry-forward: a summariser that hallucinates a secret or a BYOK form is still redacted', async () => {
    const leaky: Summariser = () => 'Summary mentions sk-live-ABCDEFGH1234 and [BYOK:openai-key].';
    const s = setup({ summariser: leaky });
    s.registries.forRun('run-1', 'tenant-a').register('byok-1', 'sk-live-ABCDEFGH1234', 'run');
    s.writer.put(REF, { content: 'Already clean [REDACTED:byok-1].' });
    const { output } = s.compactor.compact(REF);
    expect(output.content).toBe('Summary mentions [REDACTED:byok-1] and [REDACTED:byok-reference].');
  });
  it('keeps redaction markers from the sources intact', () => {
    const s = setup();
    s.writer.put(REF, { content: 'Token was [REDACTED:byok-9].' });
    expect(s.compactor.compact(REF).output.content).toContain('[REDACTED:byok-9]');
  });
  it('no registered secret survives compaction or distillation (property)', () => {
    const secret = fc.string({ minLength: 8, maxLength: 14, unit: fc.constantFrom('k', 'e', 'y', '-', '9') });
    fc.assert(
      fc.property(fc.uniqueArray(secret, { minLength: 1, maxLength: 4 }), fc.array(fc.nat({ max: 5 }), { minLength: 1, maxLength: 6 }), (secrets, picks) => {
        const s = setup({ maxTokenBudget: 10_000 });
        const reg = s.registries.forRun('run-1', 'tenant-a');
        secrets.forEach((v, i) => reg.register(`s${i}`, v, 'run'));
        // the summariser re-inserts every secret, as a hallucinating model might
        const evil: Summariser = (src) => `${src.join(' ')} ${secrets.join(' ')}.`;
        const s2 = setup({ summariser: evil, maxTokenBudget: 10_000 });
        const reg2 = s2.registries.forRun('run-1', 'tenant-a');
        secrets.forEach((v, i) => reg2.register(`s${i}`, v, 'run'));
        for (const env of [s, s2]) {
          for (const p of picks) env.writer.put(REF, { content: `note ${secrets[p % secrets.length]} end.`, tier: 'transactional' });
          const d = env.distiller.distill(REF);
          const c = env.compactor.compact(REF);
          for (const v of secrets) {
            expect(d.entry.content.includes(v)).toBe(false);
            expect(c.output.content.includes(v)).toBe(false);
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('RFC 0062 distillation', () => {
  const seed = (s: ReturnType<typeof setup>) => {
    for (const t of ['Customer asked about refunds.', 'Customer prefers email follow-up.', 'Customer asked about refunds.']) s.writer.put(REF, { content: t, tier: 'transactional' });
    s.writer.put(REF, { content: 'Long-term fact stays.' });
  };
  it('clamps the budget to the advertised maximum and defaults to it', () => {
    const s = setup({ maxTokenBudget: 50 });
    expect(s.distiller.budgetFor(undefined)).toBe(50);
    expect(s.distiller.budgetFor(500)).toBe(50);
    expect(s.distiller.budgetFor(20)).toBe(20);
    expect(() => s.distiller.budgetFor(0)).toThrow();
  });
  it('distils transactional entries into an archive, updates the index and reports the distillation sub-object', async () => {
    const s = setup();
    seed(s);
    const r = s.distiller.distill(REF);
    expect(r.event.trigger).toBe('host-managed');
    expect(r.event.distillation).toEqual({ tokenBudget: 200, tokensUsed: expect.any(Number), indexUpdated: true });
    expect(r.event.distillation!.tokensUsed).toBeLessThanOrEqual(200);
    expect(r.archiveId).toMatch(/^arc_[0-9a-f]{64}$/);
    expect((await s.adapter.get(REF, r.entry.id))?.content).toBe('Customer asked about refunds.\nCustomer prefers email follow-up.');
    const index = readIndex(s.workspace, REF)!;
    expect(index.archives.map((a) => a.archiveId)).toEqual([r.archiveId]);
    const types = s.events().map((e) => e.type);
    expect(types).toEqual(['workspace.updated', 'memory.compacted']);
    // the long-term entry was not an input
    expect((await s.adapter.list(REF)).map((e) => e.content)).toContain('Long-term fact stays.');
  });
  it('is byte-stable: the same sources and budget give the same archive id and bytes', () => {
    const a = setup(); seed(a);
    const b = setup(); seed(b);
    b.clock.advance(123_456);
    const ra = a.distiller.distill(REF, { tokenBudget: 150 });
    const rb = b.distiller.distill(REF, { tokenBudget: 150 });
    expect(rb.archiveId).toBe(ra.archiveId);
    expect(rb.entry.content).toBe(ra.entry.content);
  });
  it('fails atomically with token_budget_exceeded: no archive, no index change, no event', async () => {
    const s = setup();
    seed(s);
    const before = (await s.adapter.list(REF)).length;
    const err = (() => { try { s.distiller.distill(REF, { tokenBudget: 5 }); } catch (e) { return e; } })();
    expect(err).toBeInstanceOf(TokenBudgetExceededError);
    expect((err as TokenBudgetExceededError).details.tokenBudget).toBe(5);
    expect((await s.adapter.list(REF)).length).toBe(before);
    expect(readIndex(s.workspace, REF)).toBeUndefined();
    expect(s.events()).toEqual([]);
  });
  it('recursive distillation distils level-1 archives into a level-2 archive and re-checks SR-1', () => {
    const s = setup({ maxTokenBudget: 1000 });
    s.writer.put(REF, { content: 'First batch note.', tier: 'transactional' });
    s.distiller.distill(REF);
    s.writer.put(REF, { content: 'Second batch note.', tier: 'transactional' });
    s.distiller.distill(REF);
    s.registries.forRun('run-9', 'tenant-a').register('byok-2', 'Second batch', 'run'); // registered later
    const top = s.distiller.distill(REF, { fromLevel: 1 });
    expect(top.entry.tags).toContain('distill-level:2');
    expect(top.event.sourceCount).toBe(2);
    expect(top.entry.content).not.toContain('Second batch');
    expect(top.entry.content).toContain('[REDACTED:byok-2]');
  });
  it('archives expire after archiveRetention and drop out of reads', async () => {
    const s = setup();
    seed(s);
    const r = s.distiller.distill(REF);
    s.clock.advance(30 * 86_400_000 - 1);
    expect(await s.adapter.get(REF, r.entry.id)).not.toBeNull();
    s.clock.advance(1);
    expect(await s.adapter.get(REF, r.entry.id)).toBeNull();
  });
});
