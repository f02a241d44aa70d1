import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TenantMemoryAdapter, MemoryAdapterError } from '../../../runtime/memory/adapter.ts';
import { SharedMemoryStore } from '../../../runtime/memory/store.ts';
import { MemoryWriter, MemoryWriteError, tierOf } from '../../../runtime/memory/writer.ts';
import { parseMemoryRef } from '../../../runtime/memory/memory-ref.ts';
import { SecretRegistries } from '../../../runtime/redaction/secret-registry.ts';
import { writeRedactor } from '../../../runtime/redaction/chokepoint.ts';
import { ManualClock, SequentialIds } from '../../../runtime/shared/clock.ts';

function setup() {
  const clock = new ManualClock();
  const store = new SharedMemoryStore();
  const writer = new MemoryWriter({ store, clock, ids: new SequentialIds(), redact: writeRedactor(new SecretRegistries()) });
  return { clock, store, writer, a: new TenantMemoryAdapter('tenant-a', store, clock), b: new TenantMemoryAdapter('tenant-b', store, clock) };
}

describe('MemoryAdapter read interface', () => {
  it('round-trips a write through list and get', async () => {
    const { writer, a } = setup();
    const e = writer.put('mem://tenant-a/agent-1', { content: 'prefers email', tags: ['pref'] });
    expect(await a.get('mem://tenant-a/agent-1', e.id)).toMatchObject({ id: e.id, content: 'prefers email', tags: ['pref'] });
    expect(await a.list('mem://tenant-a/agent-1', { tag: 'pref' })).toHaveLength(1);
    expect(await a.list('mem://tenant-a/agent-1', { tag: 'other' })).toHaveLength(0);
  });
  it('returns [] / null for unknown refs and ids', async () => {
    const { a } = setup();
    expect(await a.list('mem://tenant-a/nothing')).toEqual([]);
    expect(await a.get('mem://tenant-a/nothing', 'x')).toBeNull();
  });
  it('honours limit and returns newest first', async () => {
    const { writer, a, clock } = setup();
    for (let i = 0; i < 5; i++) { writer.put('mem://tenant-a/s', { id: `m${i}`, content: `c${i}` }); clock.advance(1); }
    expect((await a.list('mem://tenant-a/s', { limit: 2 })).map((e) => e.id)).toEqual(['m4', 'm3']);
    expect(await a.list('mem://tenant-a/s', { limit: 0 })).toEqual([]);
  });
});

describe('CTI-1 cross-tenant isolation', () => {
  it('an adapter bound to tenant A returns nothing for a tenant-B ref even though the shared store holds it', async () => {
    const { writer, a, b, store } = setup();
    const e = writer.put('mem://tenant-b/agent', { content: 'tenant B secret plan' });
    expect(store.listRawSync('mem://tenant-b/agent')).toHaveLength(1);
    expect(await a.list('mem://tenant-b/agent')).toEqual([]);
    expect(await a.get('mem://tenant-b/agent', e.id)).toBeNull();
    // positive control: B's own adapter sees it
    expect(await b.get('mem://tenant-b/agent', e.id)).not.toBeNull();
  });
  it('a malformed ref never falls through to a lookup, even when the store holds that exact key', async () => {
    const { store, a } = setup();
    const hostile = 'mem://tenant-a/../tenant-b/agent';
    store.upsertSync(hostile, { id: 'x', content: 'leak', tags: [], createdAt: new Date(0).toISOString() });
    expect(await a.list(hostile)).toEqual([]);
    expect(await a.get(hostile, 'x')).toBeNull();
  });
  it('store failures surface as an error without entry data', async () => {
    const clock = new ManualClock();
    const broken = new SharedMemoryStore();
    broken.listRawSync = () => { throw new Error('db row: content=SECRET-CONTENT-123'); };
    const adapter = new TenantMemoryAdapter('tenant-a', broken, clock);
    const err = await adapter.list('mem://tenant-a/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MemoryAdapterError);
    expect(JSON.stringify({ m: (err as Error).message, s: String(err) })).not.toContain('SECRET-CONTENT');
  });
  it('no cross-tenant entry ever surfaces under random interleavings of writes, reads and hostile refs (property)', async () => {
    const tenants = ['tenant-a', 'tenant-b', 'tenant-c'] as const;
    const hostile = fc.constantFrom(
      'mem://tenant-a/../tenant-b/s1', 'mem://tenant-a/s1/../../tenant-b/s1', 'mem://tenant-b/s1\u0000', 'mem://tenant-a/s1\u0000/../tenant-b',
      'mem://TENANT-A/s1', 'mem://tenant-a//s1', 'mem://tenant-a/%2e%2e/tenant-b', 'mem://tenant-a/s1/', 'mem:/tenant-a/s1', 'tenant-b/s1',
      'mem://tenant-a\\..\\tenant-b/s1', 'mem://tenant-a/s\uFF0E\uFF0E', `mem://tenant-a/${'x'.repeat(600)}`, '',
    );
    const validRef = fc.tuple(fc.constantFrom(...tenants), fc.constantFrom('s1', 's2', 'agents/x')).map(([t, s]) => `mem://${t}/${s}`);
    const refArb = fc.oneof(validRef, hostile, fc.string({ maxLength: 30 }).map((x) => `mem://${x}`));
    const op = fc.oneof(
      // a tenant writes through the host write path (which must refuse other tenants' and malformed refs)
      fc.record({ kind: fc.constant('write' as const), as: fc.constantFrom(...tenants), ref: refArb }),
      // something else sharing the store plants an entry under an arbitrary key, tagged as foreign
      fc.record({ kind: fc.constant('plant' as const), ref: refArb }),
      fc.record({ kind: fc.constant('read' as const), reader: fc.constantFrom(...tenants), ref: refArb }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 50 }), async (ops) => {
        const { writer, store, clock } = setup();
        const expected = new Map<string, Set<string>>(); // valid ref -> ids its tenant wrote
        let n = 0;
        for (const o of ops) {
          if (o.kind === 'write') {
            const id = `e${n++}`;
            try {
              writer.put(o.ref, { id, content: `owner=${o.as};${id}` }, { tenant: o.as });
              expect(o.ref.startsWith(`mem://${o.as}/`)).toBe(true);
              if (!expected.has(o.ref)) expected.set(o.ref, new Set());
              expected.get(o.ref)!.add(id);
            } catch (e) {
              expect(e).toBeInstanceOf(MemoryWriteError);
            }
          } else if (o.kind === 'plant') {
            store.upsertSync(o.ref, { id: `p${n++}`, content: 'owner=foreign', tags: [], createdAt: new Date(0).toISOString() });
          } else {
            const adapter = new TenantMemoryAdapter(o.reader, store, clock);
            const listed = await adapter.list(o.ref);
            for (const e of listed) {
              if (!e.content.startsWith(`owner=${o.reader};`)) expect(e.content).toBe('owner=foreign');
              // a foreign plant is only ever visible under a well-formed ref of the reader's own tenant
              expect(parseMemoryRef(o.ref)?.tenant).toBe(o.reader);
            }
            // positive control: everything the reader's tenant wrote under this ref is visible
            const own = parseMemoryRef(o.ref)?.tenant === o.reader ? (expected.get(o.ref) ?? new Set()) : new Set<string>();
            for (const id of own) expect(listed.some((e) => e.id === id)).toBe(true);
            for (const id of own) expect((await adapter.get(o.ref, id))?.id).toBe(id);
            if (parseMemoryRef(o.ref)?.tenant !== o.reader) expect(listed).toEqual([]);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
  it('the write path refuses another tenant\'s ref and malformed refs, with messages free of content', () => {
    const { writer } = setup();
    const tryPut = (ref: string) => { try { writer.put(ref, { content: 'CANARY-WRITE-9' }, { tenant: 'tenant-a' }); return null; } catch (e) { return e as MemoryWriteError; } };
    expect(tryPut('mem://tenant-b/x')?.code).toBe('cross_tenant');
    expect(tryPut('mem://tenant-a/../tenant-b/x')?.code).toBe('invalid_memory_ref');
    const big = (() => { try { writer.put('mem://tenant-a/x', { content: `CANARY-WRITE-9${'z'.repeat(70_000)}` }); return null; } catch (e) { return e as MemoryWriteError; } })();
    expect(big?.code).toBe('entry_too_large');
    for (const e of [tryPut('mem://tenant-b/x'), big]) expect(`${e?.message} ${String(e)}`).not.toContain('CANARY');
  });
  it('forget erases a subject from live memory of one tenant only', async () => {
    const { writer, a, b } = setup();
    writer.put('mem://tenant-a/s', { id: 'a1', content: 'x', tags: ['subject:alice'] });
    writer.put('mem://tenant-a/t', { id: 'a2', content: 'y', tags: ['subject:alice'] });
    writer.put('mem://tenant-a/s', { id: 'a3', content: 'z', tags: ['subject:bob'] });
    writer.put('mem://tenant-b/s', { id: 'b1', content: 'w', tags: ['subject:alice'] });
    expect(writer.forget('tenant-a', 'subject:alice')).toBe(2);
    expect((await a.list('mem://tenant-a/s')).map((e) => e.id)).toEqual(['a3']);
    expect(await a.get('mem://tenant-a/t', 'a2')).toBeNull();
    expect(await b.get('mem://tenant-b/s', 'b1')).not.toBeNull();
  });
  it('tiers: an entry written as transactional is told apart from long-term by its tier tag', () => {
    const { writer } = setup();
    const t = writer.put('mem://tenant-a/s', { content: 'turn note', tier: 'transactional' });
    const l = writer.put('mem://tenant-a/s', { content: 'standing fact' });
    expect(tierOf(t.tags)).toBe('transactional');
    expect(tierOf(l.tags)).toBe('long-term');
  });
});

describe('TTL', () => {
  it('an entry surfaces until expiresAt and never at or after it (millisecond granularity), purged or not', async () => {
    const { writer, a, clock, store } = setup();
    const e = writer.put('mem://tenant-a/s', { content: 'x', ttlSeconds: 5 });
    clock.advance(4999);
    expect(await a.get('mem://tenant-a/s', e.id)).not.toBeNull();
    clock.advance(1);
    expect(await a.get('mem://tenant-a/s', e.id)).toBeNull();
    expect(await a.list('mem://tenant-a/s')).toEqual([]);
    expect(store.listRawSync('mem://tenant-a/s')).toHaveLength(1); // not purged, still hidden
    expect(store.purgeExpired(clock.now())).toBe(1);
  });
  it('expired entries never surface and live ones always do, under random clock advances and purges (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ ttlMs: fc.integer({ min: 1, max: 10_000 }), at: fc.integer({ min: 0, max: 10_000 }), abs: fc.boolean() }), { maxLength: 20 }),
        // each step: advance by a random amount, or land exactly on the next expiry instant (the boundary)
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.boolean(), fc.boolean()), { maxLength: 12 }),
        async (writes, steps) => {
          const { writer, a, clock, store } = setup();
          const sorted = [...writes].sort((x, y) => x.at - y.at);
          const start = clock.now();
          const expiry = new Map<string, number>();
          for (const w of sorted) {
            clock.set(start + w.at);
            const e = w.abs
              ? writer.put('mem://tenant-a/s', { content: 'x', expiresAt: new Date(clock.now() + w.ttlMs).toISOString() })
              : writer.put('mem://tenant-a/s', { content: 'x', ttlSeconds: w.ttlMs / 1000 });
            expiry.set(e.id, clock.now() + w.ttlMs);
          }
          for (const [adv, purge, exact] of steps) {
            const next = Math.min(...[...expiry.values()].filter((t) => t > clock.now()));
            if (exact && Number.isFinite(next)) clock.set(next);
            else clock.advance(adv);
            if (purge) store.purgeExpired(clock.now());
            const now = clock.now();
            const listed = new Set((await a.list('mem://tenant-a/s')).map((e) => e.id));
            for (const [id, exp] of expiry) {
              expect(listed.has(id)).toBe(now < exp);
              expect((await a.get('mem://tenant-a/s', id)) !== null).toBe(now < exp);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
