import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ManualClock } from '../../../runtime/shared/clock.ts';
import { SubRunMemory, SubRunScopeError, type CrossChildMemoryConcurrency } from '../../../runtime/multi-agent/sub-run-memory.ts';
import type { StoragePort } from '../../../runtime/storage/port.ts';
import { openRuntime, racingPort, registerSecrets, request, storedEntries, thrown, withCommit, withRuntime, type TestRuntime } from '../support.ts';
import { unitsOf } from '../../../runtime/storage/index.ts';
import { unitOfWork } from '../../../runtime/storage/index.ts';
import { detachedTx } from '../../../runtime/storage/unit-of-work.ts';

const tenantOf = (ref: string) => /^mem:\/\/([a-z0-9-]+)\/[a-z0-9-]+$/.exec(ref)?.[1];
const SECRET = 'tok-SECRET-0123456789';
const PARENT = { runId: 'p', memoryRef: 'mem://acme/a' };

/** The store seen through a commit that takes time (a memory write waits `tags[0]` ms) and records overlapping writes. */
function slowPort(port: StoragePort) {
  const stats = { inFlight: 0, maxInFlight: 0, order: [] as string[] };
  const slow = withCommit(port, async (plan, inner) => {
    const write = plan.find((op) => op.op === 'memory.put');
    if (write?.op !== 'memory.put') return inner.commit(plan);
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    try {
      await new Promise((r) => setTimeout(r, Number(write.args.entry.tags[0] ?? 0)));
      const out = await inner.commit(plan);
      stats.order.push(write.args.entry.id);
      return out;
    } finally {
      stats.inFlight--;
    }
  });
  return { slow, stats };
}

/** Sub-run memory over the wired runtime's writer and readers, with parent run `p` and child runs started as needed. */
async function setup(t: TestRuntime, o: { concurrency?: CrossChildMemoryConcurrency; port?: StoragePort; mint?: (tenant: string, child: string) => string } = {}) {
  const mem = new SubRunMemory({
    units: unitsOf(o.port ?? t.port),
    clock: t.clock,
    store: { readerFor: (tx, tenant) => t.rt.readerFor(tx, tenant) },
    writer: t.rt.writer,
    tenantOf,
    tenantOfRun: (tx, runId) => t.rt.runs.tenantOf(tx, runId),
    mintIsolatedRef: o.mint ?? ((tenant, child) => `mem://${tenant}/${child}`),
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
  });
  await request(t.port, (plan) => t.rt.startRun(plan, { runId: PARENT.runId, workflowId: 'wf', memoryRef: PARENT.memoryRef }));
  const child = async (runId: string, isolation?: 'isolated') => {
    await request(t.port, (plan) => t.rt.startRun(plan, { runId, workflowId: 'wf', memoryRef: PARENT.memoryRef, parentRunId: PARENT.runId }));
    return request(t.port, (tx) => mem.scopeForChild(tx, PARENT, runId, isolation !== undefined ? { memoryScopeIsolation: isolation } : {}));
  };
  return { mem, child };
}

describe('sub-run memory (RFC 0039 MAE-2)', () => {
  it('a child inherits the parent scope by default; isolated gives a fresh ref in the same tenant', async () => {
    const { child } = await setup(await openRuntime());
    expect((await child('run-c1')).memoryRef).toBe('mem://acme/a');
    const iso = await child('run-c2', 'isolated');
    expect(iso.memoryRef).toBe('mem://acme/run-c2');
    expect(iso.tenantId).toBe('acme');
    expect(iso.isolated).toBe(true);
  });

  it('refuses an isolated scope minted outside the parent tenant, and a parent memoryRef of another tenant than the parent run (CTI-1)', async () => {
    const t = await openRuntime();
    const { mem } = await setup(t, { mint: () => 'mem://other/x' });
    expect(await thrown(() => request(t.port, (tx) => mem.scopeForChild(tx, PARENT, 'c', { memoryScopeIsolation: 'isolated' })))).toBeInstanceOf(SubRunScopeError);
    expect(await thrown(() => request(t.port, (tx) => mem.scopeForChild(tx, { runId: PARENT.runId, memoryRef: 'mem://globex/a' }, 'c')))).toBeInstanceOf(SubRunScopeError);
    expect(await thrown(() => request(t.port, (tx) => mem.scopeForChild(tx, { runId: PARENT.runId, memoryRef: '../etc' }, 'c')))).toBeInstanceOf(SubRunScopeError);
  });

  it('a parent reads through its own tenant: another tenant\'s ref, or any ref read by an unknown run, reads as empty', async () => {
    const t = await openRuntime();
    const { mem } = await setup(t);
    await request(t.port, (plan) => t.rt.writer.put(plan, 'mem://globex/a', { content: 'globex fact' }));
    expect(await request(t.port, (tx) => mem.readForParent(tx, PARENT.runId, 'mem://globex/a'))).toEqual([]);
    await request(t.port, (plan) => t.rt.writer.put(plan, PARENT.memoryRef, { content: 'acme fact' }));
    expect(await request(t.port, (tx) => mem.readForParent(tx, 'nobody', PARENT.memoryRef))).toEqual([]);
    expect(await request(t.port, (tx) => mem.readForParent(tx, PARENT.runId, PARENT.memoryRef))).toHaveLength(1);
  });

  it('TTL counts from the child write time, not the parent start (T+10s, ttl 5s → expires T+15s)', async () => {
    const t = await openRuntime({ clock: new ManualClock(Date.UTC(2026, 0, 1)) });
    const parentStart = t.clock.now();
    const { mem, child } = await setup(t);
    t.clock.advance(10_000);
    const e = await mem.write(await child('run-c'), { content: 'fact', ttlSeconds: 5 });
    expect(Date.parse(e.expiresAt!)).toBe(parentStart + 15_000);
    t.clock.advance(4_999);
    expect(await request(t.port, (tx) => mem.readForParent(tx, PARENT.runId, PARENT.memoryRef))).toHaveLength(1);
    t.clock.advance(1);
    expect(await request(t.port, (tx) => mem.readForParent(tx, PARENT.runId, PARENT.memoryRef))).toHaveLength(0);
  });

  it('child writes pass the SR-1 chokepoint, attributed to the child run', async () => {
    const t = await openRuntime();
    const { mem, child } = await setup(t);
    await registerSecrets(t.rt, 'acme', 'run-resolver', { s1: SECRET });
    const e = await mem.write(await child('c'), { content: `key ${SECRET}` });
    expect(e.content).toBe('key [REDACTED:s1]');
    const written = (await unitOfWork(t.rt.port, (tx) => t.rt.log.read(tx, 'c'))).events.filter((x) => x.type === 'memory.written');
    expect(written.map((x) => x.payload.memoryId)).toEqual([e.id]);
  });

  it('a child write whose tenant registered a secret while the write was in flight is redone from its reads: the new secret is redacted', async () => {
    const t = await openRuntime();
    // another request registers a secret between this write's reads and its commit
    const racing = racingPort(t.port, (plan) => plan.some((op) => op.op === 'memory.put'), () => registerSecrets(t.rt, 'acme', 'run-late', { s2: 'LATE-SECRET-0123456789' }));
    const { mem, child } = await setup(t, { port: racing.port });
    const e = await mem.write(await child('c'), { content: 'key LATE-SECRET-0123456789' });
    expect(racing.raced()).toBe(true);
    expect(e.content).toBe('key [REDACTED:s2]');
    expect(JSON.stringify(await storedEntries(t.port))).not.toContain('LATE-SECRET');
  });

  it('strict: sibling writes never overlap and the parent read waits for pending sibling writes', async () => {
    const t = await openRuntime();
    const { slow, stats } = slowPort(t.port);
    const { mem, child } = await setup(t, { concurrency: 'strict', port: slow });
    const [c1, c2] = [await child('c1'), await child('c2')];
    const writes = [mem.write(c1, { id: 'x1', content: 'a', tags: ['20'] }), mem.write(c2, { id: 'x2', content: 'b', tags: ['1'] })];
    const seen = await request(t.port, (tx) => mem.readForParent(tx, PARENT.runId, PARENT.memoryRef));
    await Promise.all(writes);
    expect(stats.maxInFlight).toBe(1);
    expect(stats.order).toEqual(['x1', 'x2']);
    expect(seen.map((e) => e.id).sort()).toEqual(['x1', 'x2']);
  });

  it('advisory: writes may overlap; concurrent writes to one id resolve last-write-wins', async () => {
    const t = await openRuntime();
    const { slow, stats } = slowPort(t.port);
    const { mem, child } = await setup(t, { concurrency: 'advisory', port: slow });
    const [c1, c2] = [await child('c1'), await child('c2')];
    await Promise.all([mem.write(c1, { id: 'k', content: 'slow', tags: ['20'] }), mem.write(c2, { id: 'k', content: 'fast', tags: ['1'] })]);
    expect(stats.maxInFlight).toBe(2);
    expect(stats.order).toEqual(['k', 'k']);
    expect((await storedEntries(t.port, PARENT.memoryRef)).map((e) => e.content)).toEqual(['slow']);
  });

  it('property: expiresAt = child write time + ttl, whatever the parent start and dispatch delays', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ delay: fc.integer({ min: 0, max: 100_000 }), ttl: fc.integer({ min: 1, max: 10_000 }) }), { minLength: 1, maxLength: 10 }),
        async (children) => {
          await withRuntime({ clock: new ManualClock(Date.UTC(2026, 0, 1)) }, async (t) => {
            const parentStart = t.clock.now();
            const { mem, child } = await setup(t);
            let i = 0;
            for (const c of children) {
              t.clock.advance(c.delay);
              const writtenAt = t.clock.now();
              const e = await mem.write(await child(`c${i++}`), { content: 'x', ttlSeconds: c.ttl });
              expect(Date.parse(e.expiresAt!)).toBe(writtenAt + c.ttl * 1000);
              if (writtenAt > parentStart) expect(Date.parse(e.expiresAt!)).not.toBe(parentStart + c.ttl * 1000);
            }
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});
