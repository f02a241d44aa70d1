import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MemoryAdapterError, TenantMemoryAdapter } from '../../../runtime/memory/adapter.ts';
import { InvalidCursorError } from '../../../runtime/memory/cursor.ts';
import { parseMemoryRef } from '../../../runtime/memory/memory-ref.ts';
import { TenantReader } from '../../../runtime/memory/tenant-reader.ts';
import { MemoryWriteError, tierOf } from '../../../runtime/memory/writer.ts';
import { ManualClock, toIso } from '../../../runtime/shared/clock.ts';
import { DEFAULT_MEMORY_BOUNDS } from '../../../runtime/memory/writer.ts';
import type { SqlSession } from '../../../runtime/storage/sql/session.ts';
import type { StoragePort } from '../../../runtime/storage/port.ts';
import { openRuntime, put, request, storedEntries, thrown, withRuntime, type TestRuntime } from '../support.ts';
import { bindReads } from '../../../runtime/storage/reads/index.ts';
import { unitOfWork } from '../../../runtime/storage/index.ts';
import { detachedTx, type Tx } from '../../../runtime/storage/unit-of-work.ts';

const setup = async (o: Parameters<typeof openRuntime>[0] = {}) => {
  const t = await openRuntime(o);
  return { ...t, a: t.rt.adapterFor(detachedTx(t.rt.port), 'tenant-a'), b: t.rt.adapterFor(detachedTx(t.rt.port), 'tenant-b') };
};

/** Something else sharing the store writes a row under any key, bypassing the write path (no ref or tenant check). */
const plant = (port: StoragePort, tenant: string, memoryRef: string, id: string, content: string, atMs: number) =>
  request(port, (plan) => void plan.add('memory.put', { tenant, memoryRef, entry: { id, content, tags: [], createdAt: toIso(atMs) }, atMs, bounds: DEFAULT_MEMORY_BOUNDS }));

describe('MemoryAdapter read interface', () => {
  it('round-trips a write through list and get', async () => {
    const { rt, a } = await setup();
    const e = await put(rt, 'mem://tenant-a/agent-1', { content: 'prefers email', tags: ['pref'] });
    expect(await a.get('mem://tenant-a/agent-1', e.id)).toMatchObject({ id: e.id, content: 'prefers email', tags: ['pref'] });
    expect(await a.list('mem://tenant-a/agent-1', { tag: 'pref' })).toHaveLength(1);
    expect(await a.list('mem://tenant-a/agent-1', { tag: 'other' })).toHaveLength(0);
  });
  it('returns [] / null for unknown refs and ids', async () => {
    const { a } = await setup();
    expect(await a.list('mem://tenant-a/nothing')).toEqual([]);
    expect(await a.get('mem://tenant-a/nothing', 'x')).toBeNull();
  });
  it('honours limit and returns newest first', async () => {
    const { rt, a, clock } = await setup();
    for (let i = 0; i < 5; i++) { await put(rt, 'mem://tenant-a/s', { id: `m${i}`, content: `c${i}` }); clock.advance(1); }
    expect((await a.list('mem://tenant-a/s', { limit: 2 })).map((e) => e.id)).toEqual(['m4', 'm3']);
    expect(await a.list('mem://tenant-a/s', { limit: 0 })).toEqual([]);
  });
  it('a replaced entry keeps its createdAt, so it keeps its place in the list', async () => {
    const { rt, a, clock } = await setup();
    await put(rt, 'mem://tenant-a/s', { id: 'old', content: 'v1' });
    clock.advance(10);
    await put(rt, 'mem://tenant-a/s', { id: 'new', content: 'x' });
    clock.advance(10);
    const replaced = await put(rt, 'mem://tenant-a/s', { id: 'old', content: 'v2' });
    expect(replaced.createdAt).toBe(toIso(clock.now() - 20));
    expect((await a.list('mem://tenant-a/s')).map((e) => [e.id, e.content])).toEqual([['new', 'x'], ['old', 'v2']]);
  });
});

describe('pages and cursors', () => {
  const REF = 'mem://tenant-a/paged';
  const walk = async (adapter: TenantMemoryAdapter, ref: string, limit: number, o: { tag?: string; between?: () => Promise<void> } = {}) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10_000; pages++) {
      const page = await adapter.page(ref, { limit, ...(o.tag !== undefined ? { tag: o.tag } : {}), ...(cursor !== undefined ? { cursor } : {}) });
      seen.push(...page.entries.map((e) => e.id));
      if (page.nextCursor === undefined) return seen;
      cursor = page.nextCursor;
      await o.between?.();
    }
    throw new Error('the walk did not end');
  };

  it('a walk returns every entry present for the whole walk exactly once, newest first, while writes go on (property)', async () => {
    const step = fc.oneof(
      fc.record({ k: fc.constant('add' as const), n: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ k: fc.constant('replace' as const), i: fc.nat() }),
      fc.record({ k: fc.constant('delete' as const), i: fc.nat() }),
      fc.record({ k: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 7 }), fc.array(step, { maxLength: 30 }), fc.boolean(), async (initial, limit, steps, tagged) => {
        await withRuntime({}, async ({ rt, clock }) => {
          const live = new Set<string>();
          const created = new Map<string, number>();
          let n = 0;
          const add = async () => {
            const id = `e${String(n++).padStart(3, '0')}`;
            created.set(id, clock.now());
            await put(rt, REF, { id, content: id, tags: tagged && n % 2 === 0 ? ['t', 'u'] : ['u'] });
            live.add(id);
            if (n % 3 === 0) clock.advance(1); // several entries share a createdAt: the id breaks the tie
          };
          for (let i = 0; i < initial; i++) await add();
          const present = new Set(live); // present for the whole walk: there at the start, never deleted or re-added
          const queue = [...steps];
          const between = async () => {
            const s = queue.shift();
            if (s === undefined) return;
            const ids = [...live];
            if (s.k === 'add') for (let i = 0; i < s.n; i++) await add();
            else if (s.k === 'tick') clock.advance(s.ms);
            else if (ids.length > 0) {
              const id = ids[s.i % ids.length]!;
              if (s.k === 'replace') await put(rt, REF, { id, content: `${id}'`, tags: ['u'] });
              else {
                await request(rt.port, (plan) => rt.writer.delete(plan, REF, id));
                live.delete(id);
                present.delete(id);
              }
            }
          };
          const tag = tagged ? 'u' : undefined;
          const seen = await walk(rt.adapterFor(detachedTx(rt.port), 'tenant-a'), REF, limit, { ...(tag !== undefined ? { tag } : {}), between });
          expect(new Set(seen).size).toBe(seen.length);
          for (const id of present) expect(seen).toContain(id);
          // newest first by (createdAt, id): createdAt never rises along the walk, and ties go by id
          for (let i = 1; i < seen.length; i++) {
            const [p, q] = [seen[i - 1]!, seen[i]!];
            expect(created.get(p)! > created.get(q)! || (created.get(p) === created.get(q) && p < q)).toBe(true);
          }
        });
      }),
      { numRuns: 150 },
    );
  });

  it('a cursor resumes only the list it was minted for: another tenant, ref, tag or view, a forged or foreign cursor is invalid_cursor', async () => {
    const key = Buffer.alloc(32, 7);
    const { rt, port, clock } = await setup({ cursorKey: key });
    for (let i = 0; i < 5; i++) { await put(rt, REF, { id: `m${i}`, content: `c${i}`, tags: ['t'] }); clock.advance(1); }
    await put(rt, 'mem://tenant-b/paged', { content: 'b' });
    const a = rt.adapterFor(detachedTx(rt.port), 'tenant-a');
    const first = await a.page(REF, { limit: 2 });
    expect(first.entries.map((e) => e.id)).toEqual(['m4', 'm3']);
    const cursor = first.nextCursor!;
    expect((await a.page(REF, { limit: 2, cursor })).entries.map((e) => e.id)).toEqual(['m2', 'm1']);
    const refused = async (p: Promise<unknown>) => expect(await p.catch((e: unknown) => e)).toBeInstanceOf(InvalidCursorError);
    await refused(unitOfWork(rt.port, (tx) => rt.adapterFor(tx, 'tenant-b').page('mem://tenant-b/paged', { cursor })));
    await refused(a.page('mem://tenant-a/other', { cursor }));
    await refused(a.page(REF, { cursor, tag: 't' }));
    const tagged = (await a.page(REF, { limit: 1, tag: 't' })).nextCursor!;
    await refused(a.page(REF, { cursor: tagged }));
    await refused(a.page(REF, { cursor: `${cursor.split('.')[0]}.AAAAAAAAAAAAAAAAAAAAAAAA` }));
    await refused(a.page(REF, { cursor: 'not-a-cursor' }));
    await refused(a.page(REF, { cursor: `${Buffer.from('["tenant-a","mem://tenant-a/paged",null,null,0,"x"]').toString('base64url')}.x` }));
    // A fork's view binds its run into its cursors: a live-memory cursor does not resume the fork's list, nor back.
    const run = await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: REF }));
    const fork = await request(port, (plan) => rt.fork(plan, run.runId, 0));
    const view = (await unitOfWork(rt.port, (tx) => rt.memoryOfRun(tx, fork.runId)))!;
    await refused(view.page(REF, { cursor }));
    // Another runtime on the same store and key (a restart, another host) resumes it; one with another key does not.
    const again = (await openRuntime({ port, cursorKey: key })).rt.adapterFor(detachedTx(port), 'tenant-a');
    expect((await again.page(REF, { limit: 2, cursor })).entries.map((e) => e.id)).toEqual(['m2', 'm1']);
    await refused((await openRuntime({ port, cursorKey: Buffer.alloc(32, 8) })).rt.adapterFor(detachedTx(port), 'tenant-a').page(REF, { cursor }));
  });
});

describe('CTI-1 cross-tenant isolation', () => {
  it('an adapter bound to tenant A returns nothing for a tenant-B ref even though the shared store holds it', async () => {
    const { rt, port, a, b } = await setup();
    const e = await put(rt, 'mem://tenant-b/agent', { content: 'tenant B secret plan' });
    expect(await storedEntries(port, 'mem://tenant-b/agent')).toHaveLength(1);
    expect(await a.list('mem://tenant-b/agent')).toEqual([]);
    expect(await a.get('mem://tenant-b/agent', e.id)).toBeNull();
    // positive control: B's own adapter sees it
    expect(await b.get('mem://tenant-b/agent', e.id)).not.toBeNull();
  });
  it('a malformed ref never falls through to a lookup, even when the store holds that exact key', async () => {
    const { port, a, clock } = await setup();
    const hostile = 'mem://tenant-a/../tenant-b/agent';
    await plant(port, 'tenant-a', hostile, 'x', 'leak', clock.now());
    expect(await storedEntries(port, hostile)).toHaveLength(1);
    expect(await a.list(hostile)).toEqual([]);
    expect(await a.get(hostile, 'x')).toBeNull();
  });
  it('a row whose tenant column is another tenant is not served under a ref of the reader\'s tenant', async () => {
    const { port, a, clock } = await setup();
    await plant(port, 'tenant-b', 'mem://tenant-a/s', 'x', 'leak', clock.now());
    expect(await a.list('mem://tenant-a/s')).toEqual([]);
    expect(await a.get('mem://tenant-a/s', 'x')).toBeNull();
  });
  it('store failures surface as an error without entry data', async () => {
    const fail = async (): Promise<never> => { throw new Error('db row: content=SECRET-CONTENT-123'); };
    const broken: SqlSession = { dialect: 'sqlite', run: fail, get: fail, all: fail, returning: fail };
    // A unit of work whose every read fails as the store would.
    const tx: Tx = { read: bindReads(broken), add: () => { throw new Error('read-only'); }, beforeCommit: () => {}, afterCommit: () => {}, afterFailure: () => {}, size: 0 };
    const adapter = new TenantMemoryAdapter(new TenantReader(tx, 'tenant-a'), new ManualClock());
    for (const err of [await thrown(() => adapter.list('mem://tenant-a/x')), await thrown(() => adapter.get('mem://tenant-a/x', 'id'))]) {
      expect(err).toBeInstanceOf(MemoryAdapterError);
      expect(JSON.stringify({ m: (err as Error).message, s: String(err) })).not.toContain('SECRET-CONTENT');
    }
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
      // something else sharing the store plants an entry under an arbitrary key and tenant column, tagged as foreign
      fc.record({ kind: fc.constant('plant' as const), tenant: fc.constantFrom(...tenants), ref: refArb }),
      fc.record({ kind: fc.constant('read' as const), reader: fc.constantFrom(...tenants), ref: refArb }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 50 }), async (ops) => {
        await withRuntime({}, async ({ rt, port, clock }: TestRuntime) => {
          const expected = new Map<string, Set<string>>(); // valid ref -> ids its tenant wrote
          let n = 0;
          for (const o of ops) {
            if (o.kind === 'write') {
              const id = `e${n++}`;
              try {
                await put(rt, o.ref, { id, content: `owner=${o.as};${id}` }, { tenant: o.as });
                expect(o.ref.startsWith(`mem://${o.as}/`)).toBe(true);
                if (!expected.has(o.ref)) expected.set(o.ref, new Set());
                expected.get(o.ref)!.add(id);
              } catch (e) {
                expect(e).toBeInstanceOf(MemoryWriteError);
              }
            } else if (o.kind === 'plant') {
              // The store itself refuses text it cannot hold (U+0000): such a plant never lands.
              await plant(port, o.tenant, o.ref, `p${n++}`, 'owner=foreign', clock.now()).catch((e: unknown) => {
                if ((e as { code?: unknown }).code !== 'invalid_text') throw e;
              });
            } else {
              const adapter = rt.adapterFor(detachedTx(rt.port), o.reader);
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
        });
      }),
      { numRuns: 300 },
    );
  });
  it('the write path refuses another tenant\'s ref and malformed refs, with messages free of content, and stores nothing', async () => {
    const { rt, port } = await setup();
    const tryPut = (ref: string, content = 'CANARY-WRITE-9') => thrown(() => put(rt, ref, { content }, { tenant: 'tenant-a' })) as Promise<MemoryWriteError | undefined>;
    const cross = await tryPut('mem://tenant-b/x');
    expect(cross?.code).toBe('cross_tenant');
    expect((await tryPut('mem://tenant-a/../tenant-b/x'))?.code).toBe('invalid_memory_ref');
    const big = await tryPut('mem://tenant-a/x', `CANARY-WRITE-9${'z'.repeat(70_000)}`);
    expect(big?.code).toBe('entry_too_large');
    for (const e of [cross, big]) expect(`${e?.message} ${String(e)}`).not.toContain('CANARY');
    expect(await storedEntries(port)).toEqual([]);
  });
  it('forget erases a subject from live memory of one tenant only', async () => {
    const { rt, a, b } = await setup();
    await put(rt, 'mem://tenant-a/s', { id: 'a1', content: 'x', tags: ['subject:alice'] });
    await put(rt, 'mem://tenant-a/t', { id: 'a2', content: 'y', tags: ['subject:alice'] });
    await put(rt, 'mem://tenant-a/s', { id: 'a3', content: 'z', tags: ['subject:bob'] });
    await put(rt, 'mem://tenant-b/s', { id: 'b1', content: 'w', tags: ['subject:alice'] });
    const erased = await request(rt.port, (plan) => rt.writer.forget(plan, 'tenant-a', 'subject:alice'));
    expect(erased.value.map((e) => e.id).sort()).toEqual(['a1', 'a2']);
    expect((await a.list('mem://tenant-a/s')).map((e) => e.id)).toEqual(['a3']);
    expect(await a.get('mem://tenant-a/t', 'a2')).toBeNull();
    expect(await b.get('mem://tenant-b/s', 'b1')).not.toBeNull();
  });
  it('tiers: an entry written as transactional is told apart from long-term by its tier tag', async () => {
    const { rt } = await setup();
    const t = await put(rt, 'mem://tenant-a/s', { content: 'turn note', tier: 'transactional' });
    const l = await put(rt, 'mem://tenant-a/s', { content: 'standing fact' });
    expect(tierOf(t.tags)).toBe('transactional');
    expect(tierOf(l.tags)).toBe('long-term');
  });
});

describe('TTL', () => {
  const purge = (port: StoragePort, atMs: number) => request(port, (plan) => plan.add('memory.purgeExpired', { atMs, limit: 10_000 })).then((p) => p.value);
  it('an entry surfaces until expiresAt and never at or after it (millisecond granularity), purged or not', async () => {
    const { rt, port, a, clock } = await setup();
    const e = await put(rt, 'mem://tenant-a/s', { content: 'x', ttlSeconds: 5 });
    clock.advance(4999);
    expect(await a.get('mem://tenant-a/s', e.id)).not.toBeNull();
    expect(await purge(port, clock.now())).toBe(0);
    clock.advance(1);
    expect(await a.get('mem://tenant-a/s', e.id)).toBeNull();
    expect(await a.list('mem://tenant-a/s')).toEqual([]);
    expect(await storedEntries(port, 'mem://tenant-a/s')).toHaveLength(1); // not purged, still hidden
    expect(await purge(port, clock.now())).toBe(1);
    expect(await storedEntries(port, 'mem://tenant-a/s')).toHaveLength(0);
  });
  it('expired entries never surface and live ones always do, under random clock advances and purges (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ ttlMs: fc.integer({ min: 1, max: 10_000 }), at: fc.integer({ min: 0, max: 10_000 }), abs: fc.boolean(), tagged: fc.boolean() }), { maxLength: 20 }),
        // each step: advance by a random amount, or land exactly on the next expiry instant (the boundary)
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.boolean(), fc.boolean()), { maxLength: 12 }),
        async (writes, steps) => {
          await withRuntime({}, async ({ rt, port, clock }) => {
            const a = rt.adapterFor(detachedTx(rt.port), 'tenant-a');
            const sorted = [...writes].sort((x, y) => x.at - y.at);
            const start = clock.now();
            const expiry = new Map<string, { at: number; tagged: boolean }>();
            for (const w of sorted) {
              clock.set(start + w.at);
              const tags = w.tagged ? ['t'] : [];
              const e = w.abs
                ? await put(rt, 'mem://tenant-a/s', { content: 'x', tags, expiresAt: new Date(clock.now() + w.ttlMs).toISOString() })
                : await put(rt, 'mem://tenant-a/s', { content: 'x', tags, ttlSeconds: w.ttlMs / 1000 });
              expiry.set(e.id, { at: clock.now() + w.ttlMs, tagged: w.tagged });
            }
            for (const [adv, purgeNow, exact] of steps) {
              const next = Math.min(...[...expiry.values()].map((x) => x.at).filter((t) => t > clock.now()));
              if (exact && Number.isFinite(next)) clock.set(next);
              else clock.advance(adv);
              if (purgeNow) await purge(port, clock.now());
              const now = clock.now();
              const listed = new Set((await a.list('mem://tenant-a/s')).map((e) => e.id));
              const listedByTag = new Set((await a.list('mem://tenant-a/s', { tag: 't' })).map((e) => e.id));
              for (const [id, { at, tagged }] of expiry) {
                expect(listed.has(id)).toBe(now < at);
                expect(listedByTag.has(id)).toBe(tagged && now < at);
                expect((await a.get('mem://tenant-a/s', id)) !== null).toBe(now < at);
              }
            }
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
