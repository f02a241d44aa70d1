import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ManualClock, SequentialIds } from '../../../runtime/shared/clock.ts';
import { InMemoryStorePort, type MemoryStorePort, type StoredEntry } from '../../../runtime/memory/memory-port.ts';
import { SubRunMemory, SubRunScopeError, type CrossChildMemoryConcurrency } from '../../../runtime/multi-agent/sub-run-memory.ts';

const tenantOf = (ref: string) => /^mem:\/\/([a-z0-9-]+)\/[a-z0-9-]+$/.exec(ref)?.[1];
const SECRET = 'tok-SECRET-0123456789';

/** A store whose writes take time and that records whether two writes were ever in flight at once. */
class SlowStore implements MemoryStorePort {
  readonly inner = new InMemoryStorePort();
  inFlight = 0;
  maxInFlight = 0;
  readonly order: string[] = [];
  readerFor(tenant: string) {
    return this.inner.readerFor(tenant);
  }
  async upsert(ref: string, e: StoredEntry) {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((r) => setTimeout(r, Number(e.tags[0] ?? 0)));
    await this.inner.upsert(ref, e);
    this.order.push(e.id);
    this.inFlight--;
  }
  remove(ref: string, id: string) {
    return this.inner.remove(ref, id);
  }
}

function setup(concurrency: CrossChildMemoryConcurrency = 'strict', store: MemoryStorePort = new InMemoryStorePort()) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const mem = new SubRunMemory({
    clock,
    ids: new SequentialIds(),
    store,
    tenantOf,
    tenantOfRun: () => 'acme',
    mintIsolatedRef: (t, child) => `mem://${t}/${child}`,
    redact: (s) => s.split(SECRET).join('[REDACTED:s1]'),
    concurrency,
  });
  return { clock, mem, store };
}

describe('sub-run memory (RFC 0039 MAE-2)', () => {
  it('a child inherits the parent scope by default; isolated gives a fresh ref in the same tenant', () => {
    const { mem } = setup();
    const parent = { runId: 'run-p', memoryRef: 'mem://acme/agent-1' };
    expect(mem.scopeForChild(parent, 'run-c1').memoryRef).toBe('mem://acme/agent-1');
    const iso = mem.scopeForChild(parent, 'run-c2', { memoryScopeIsolation: 'isolated' });
    expect(iso.memoryRef).toBe('mem://acme/run-c2');
    expect(iso.tenantId).toBe('acme');
    expect(iso.isolated).toBe(true);
  });

  it('refuses an isolated scope minted outside the parent tenant (CTI-1)', () => {
    const clock = new ManualClock();
    const mem = new SubRunMemory({
      clock,
      ids: new SequentialIds(),
      store: new InMemoryStorePort(),
      tenantOf,
      tenantOfRun: () => 'acme',
      mintIsolatedRef: () => 'mem://other/x',
      redact: (s) => s,
    });
    expect(() => mem.scopeForChild({ runId: 'p', memoryRef: 'mem://acme/a' }, 'c', { memoryScopeIsolation: 'isolated' })).toThrow(SubRunScopeError);
  });

  it('TTL counts from the child write time, not the parent start (T+10s, ttl 5s → expires T+15s)', async () => {
    const { clock, mem } = setup();
    const parentStart = clock.now();
    const parent = { runId: 'run-p', memoryRef: 'mem://acme/agent-1' };
    clock.advance(10_000);
    const e = await mem.scopeForChild(parent, 'run-c').write({ content: 'fact', ttlSeconds: 5 });
    expect(Date.parse(e.expiresAt!)).toBe(parentStart + 15_000);
    clock.advance(4_999);
    expect(await mem.readForParent('run-p', parent.memoryRef)).toHaveLength(1);
    clock.advance(1);
    expect(await mem.readForParent('run-p', parent.memoryRef)).toHaveLength(0);
  });

  it('child writes pass the SR-1 chokepoint', async () => {
    const { mem } = setup();
    const e = await mem.scopeForChild({ runId: 'p', memoryRef: 'mem://acme/a' }, 'c').write({ content: `key ${SECRET}` });
    expect(e.content).toBe('key [REDACTED:s1]');
  });

  it('strict: sibling writes never overlap and the parent read waits for pending sibling writes', async () => {
    const store = new SlowStore();
    const { mem } = setup('strict', store);
    const parent = { runId: 'p', memoryRef: 'mem://acme/a' };
    const c1 = mem.scopeForChild(parent, 'c1');
    const c2 = mem.scopeForChild(parent, 'c2');
    const writes = [c1.write({ id: 'x1', content: 'a', tags: ['20'] }), c2.write({ id: 'x2', content: 'b', tags: ['1'] })];
    const read = mem.readForParent('p', parent.memoryRef);
    const seen = await read;
    await Promise.all(writes);
    expect(store.maxInFlight).toBe(1);
    expect(store.order).toEqual(['x1', 'x2']);
    expect(seen.map((e) => e.id).sort()).toEqual(['x1', 'x2']);
  });

  it('advisory: writes may overlap; concurrent writes to one id resolve last-write-wins', async () => {
    const store = new SlowStore();
    const { mem } = setup('advisory', store);
    const parent = { runId: 'p', memoryRef: 'mem://acme/a' };
    await Promise.all([
      mem.scopeForChild(parent, 'c1').write({ id: 'k', content: 'slow', tags: ['20'] }),
      mem.scopeForChild(parent, 'c2').write({ id: 'k', content: 'fast', tags: ['1'] }),
    ]);
    expect(store.maxInFlight).toBe(2);
    expect((await store.inner.listRaw(parent.memoryRef))[0]!.content).toBe('slow');
  });

  it('property: expiresAt = child write time + ttl, whatever the parent start and dispatch delays', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ delay: fc.integer({ min: 0, max: 100_000 }), ttl: fc.integer({ min: 1, max: 10_000 }) }), { minLength: 1, maxLength: 10 }),
        async (children) => {
          const { clock, mem } = setup();
          const parent = { runId: 'p', memoryRef: 'mem://acme/a' };
          const parentStart = clock.now();
          let i = 0;
          for (const c of children) {
            clock.advance(c.delay);
            const writtenAt = clock.now();
            const e = await mem.scopeForChild(parent, `c${i++}`).write({ content: 'x', ttlSeconds: c.ttl });
            expect(Date.parse(e.expiresAt!)).toBe(writtenAt + c.ttl * 1000);
            if (writtenAt > parentStart) expect(Date.parse(e.expiresAt!)).not.toBe(parentStart + c.ttl * 1000);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
