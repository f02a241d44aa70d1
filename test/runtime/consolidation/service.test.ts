import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ManualClock, toIso } from '../../../runtime/shared/clock.ts';
import { InMemoryStorePort, type StoredEntry } from '../../../runtime/memory/memory-port.ts';
import { ReadSnapshotHolds } from '../../../runtime/memory/read-snapshots.ts';
import type { AgentMemoryConsolidatedPayload } from '../../../generated/ts/index.ts';
import { ConsolidationError, ConsolidationService } from '../../../runtime/consolidation/service.ts';

const tenantOf = (ref: string) => /^mem:\/\/([a-z0-9-]+)\/[a-z0-9-]+$/.exec(ref)?.[1];
const SECRETS = new Map([['s1', 'sk-live-CANARY-AAAA1111'], ['s2', 'pw-CANARY-BBBB2222']]);
const redact = (c: string) => {
  let out = c;
  for (const [id, v] of [...SECRETS].sort((a, b) => b[1].length - a[1].length)) out = out.split(v).join(`[REDACTED:${id}]`);
  return out;
};

class CountingStore extends InMemoryStorePort {
  writes: { op: string; ref: string }[] = [];
  override async upsert(ref: string, e: StoredEntry) {
    this.writes.push({ op: 'upsert', ref });
    return super.upsert(ref, e);
  }
  override async remove(ref: string, id: string) {
    this.writes.push({ op: 'remove', ref });
    return super.remove(ref, id);
  }
}

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const store = new CountingStore();
  const events: AgentMemoryConsolidatedPayload[] = [];
  const holds = new ReadSnapshotHolds();
  const svc = new ConsolidationService({ clock, store, tenantOf, redact, holds, emit: (_t, p) => void events.push(p) });
  return { clock, store, events, holds, svc };
}
const e = (id: string, content: string, t: number, tags: string[] = []): StoredEntry => ({ id, content, tags, createdAt: toIso(Date.UTC(2026, 0, 1) - 1e6 + t) });

describe('ConsolidationService (RFC 0068 §D)', () => {
  it('considers long-term entries only: transactional duplicates are neither counted nor touched', async () => {
    const { store, svc } = setup();
    const ref = 'mem://support/agent-9';
    for (const x of [
      e('l1', 'Customer prefers email.', 1),
      e('t1', 'Customer prefers email.', 2, ['tier:transactional']),
      e('t2', 'Customer prefers email.', 3, ['tier:transactional']),
    ])
      await store.upsert(ref, x);
    store.writes = [];
    const r = await svc.consolidate(ref);
    expect(r.payload).toMatchObject({ inputCount: 1, outputCount: 1 });
    expect(store.writes).toEqual([]);
    expect((await store.listRaw(ref)).map((x) => x.id).sort()).toEqual(['l1', 't1', 't2']);
  });
  it('4 entries → 3 (dedup), second pass {3,3} with no writes; secret stays redacted; event content-free', async () => {
    const { store, events, svc } = setup();
    const ref = 'mem://support/agent-7';
    for (const x of [
      e('m1', `Refund policy is 30 days; key ${SECRETS.get('s1')}`, 1),
      e('m2', `refund policy is 30 days, key ${SECRETS.get('s1')}`, 2),
      e('m3', 'Customer prefers email.', 3),
      e('m4', 'Office is in Lisbon.', 4),
    ])
      await store.upsert(ref, x);
    store.writes = [];
    const first = await svc.consolidate(ref, { trigger: 'on-demand' });
    expect(first.payload).toEqual({ memoryRef: ref, inputCount: 4, outputCount: 3, mergedIds: ['m1'], trigger: 'on-demand' });
    const stored = await store.listRaw(ref);
    expect(JSON.stringify(stored)).not.toContain('CANARY');
    expect(stored.find((s) => s.id === 'm2')!.content).toContain('[REDACTED:s1]');
    store.writes = [];
    const second = await svc.consolidate(ref, { trigger: 'on-demand' });
    expect(second.payload).toMatchObject({ inputCount: 3, outputCount: 3 });
    expect(store.writes).toEqual([]);
    expect(JSON.stringify(events)).not.toContain('CANARY');
    expect(JSON.stringify(events)).not.toContain('Refund');
  });

  it('refuses malformed refs, another tenant, and a run triggering a pass over its own read snapshot', async () => {
    const { svc, holds } = setup();
    await expect(svc.consolidate('../etc/passwd')).rejects.toMatchObject({ code: 'consolidation_invalid_memory_ref' });
    await expect(svc.consolidate('mem://acme/a', { tenantId: 'globex' })).rejects.toMatchObject({ code: 'consolidation_cross_tenant' });
    holds.acquire('run-1', 'mem://acme/a');
    await expect(svc.consolidate('mem://acme/a', { requestedByRunId: 'run-1' })).rejects.toBeInstanceOf(ConsolidationError);
    await expect(svc.consolidate('mem://acme/b', { requestedByRunId: 'run-1' })).resolves.toBeDefined();
    holds.release('run-1');
    await expect(svc.consolidate('mem://acme/a', { requestedByRunId: 'run-1' })).resolves.toBeDefined();
  });

  it('expired entries are neither counted nor touched', async () => {
    const { store, svc, clock } = setup();
    const ref = 'mem://acme/a';
    await store.upsert(ref, { ...e('old', 'dup text here', 1), expiresAt: toIso(clock.now() - 1) });
    await store.upsert(ref, e('new', 'dup text here', 2));
    const r = await svc.consolidate(ref);
    expect(r.payload).toMatchObject({ inputCount: 1, outputCount: 1 });
    expect((await store.listRaw(ref)).map((x) => x.id).sort()).toEqual(['new', 'old']);
  });

  const word = fc.constantFrom('refund', 'policy', 'email', 'customer', 'lisbon', 'invoice', SECRETS.get('s1')!, SECRETS.get('s2')!);
  const corpus = fc.array(
    fc.record({ tenant: fc.constantFrom('acme', 'globex'), words: fc.array(word, { minLength: 1, maxLength: 6 }), fact: fc.option(fc.constantFrom('fact:x', 'fact:y'), { nil: undefined }), t: fc.nat(100) }),
    { maxLength: 40 },
  );

  it('property: second pass is a no-op, other tenant untouched, no registered secret survives, events content-free', async () => {
    await fc.assert(
      fc.asyncProperty(corpus, async (rows) => {
        const { store, events, svc } = setup();
        rows.forEach((r, i) => void store.upsert(`mem://${r.tenant}/agent`, e(`m${i}`, r.words.join(' '), r.t, r.fact ? [r.fact] : [])));
        const otherBefore = JSON.stringify(await store.listRaw('mem://globex/agent'));
        store.writes = [];
        const first = await svc.consolidate('mem://acme/agent', { trigger: 'host-managed', tenantId: 'acme' });
        expect(first.payload.outputCount).toBeLessThanOrEqual(first.payload.inputCount);
        expect(store.writes.every((w) => w.ref === 'mem://acme/agent')).toBe(true);
        expect(JSON.stringify(await store.listRaw('mem://globex/agent'))).toBe(otherBefore);
        const after = JSON.stringify(await store.listRaw('mem://acme/agent'));
        for (const v of SECRETS.values()) expect(after).not.toContain(v);
        store.writes = [];
        const second = await svc.consolidate('mem://acme/agent', { trigger: 'host-managed' });
        expect(second.payload.inputCount).toBe(second.payload.outputCount);
        expect(second.payload.inputCount).toBe(first.payload.outputCount);
        expect(store.writes).toEqual([]);
        const serial = JSON.stringify(events);
        expect(serial).not.toContain('CANARY');
        for (const w of ['refund', 'policy', 'email', 'lisbon', 'invoice']) expect(serial).not.toContain(w);
      }),
      { numRuns: 200 },
    );
  });
});
