import { describe, expect, it } from 'vitest';
import { isExpired } from '../../../runtime/memory/ttl.ts';
import type { MemoryEntry } from '../../../generated/ts/index.ts';
import { DEFAULT_MEMORY_BOUNDS } from '../../../runtime/memory/writer.ts';
import { toIso } from '../../../runtime/shared/clock.ts';
import { openRuntime, request } from '../support.ts';
import { unitOfWork } from '../../../runtime/storage/index.ts';
import { detachedTx } from '../../../runtime/storage/unit-of-work.ts';

const REF = 'mem://tenant-a/ttl';

describe('the one TTL rule', () => {
  it('hides an entry at and after expiresAt, and an entry whose expiresAt does not parse', () => {
    const t = Date.UTC(2026, 0, 1);
    expect(isExpired({}, t)).toBe(false);
    expect(isExpired({ expiresAt: toIso(t + 1) }, t)).toBe(false);
    expect(isExpired({ expiresAt: toIso(t) }, t)).toBe(true);
    expect(isExpired({ expiresAt: toIso(t - 1) }, t)).toBe(true);
    for (const bad of ['', 'never', 'not-an-instant', '2026-13-45T99:00:00Z']) expect(isExpired({ expiresAt: bad }, t), bad).toBe(true);
  });

  it('every read path of the wired runtime agrees: expired and unreadable lifetimes are hidden, live ones surface', async () => {
    const { rt, port, clock } = await openRuntime();
    const run = await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: REF }));
    const now = clock.now();
    // Raw entries straight into the store, attributed to the run (the write path would refuse the unreadable one),
    // with an event of the run after them: a fork at that event reads them.
    await request(port, (plan) => {
      const raw = (entry: MemoryEntry) => plan.add('memory.put', { tenant: 'tenant-a', memoryRef: REF, entry, atMs: now, runId: run.runId, bounds: DEFAULT_MEMORY_BOUNDS });
      raw({ id: 'live', content: 'live entry', tags: [], createdAt: toIso(now), expiresAt: toIso(now + 60_000) });
      raw({ id: 'forever', content: 'entry without lifetime', tags: [], createdAt: toIso(now) });
      raw({ id: 'past', content: 'expired entry', tags: [], createdAt: toIso(now), expiresAt: toIso(now) });
      raw({ id: 'unreadable', content: 'entry with unreadable lifetime', tags: [], createdAt: toIso(now), expiresAt: 'not-an-instant' });
      rt.log.append(plan, run.runId, { type: 'memory.written', payload: { memoryRef: REF, memoryId: 'unreadable', operation: 'put' } });
    });
    const fromSeq = (await unitOfWork(rt.port, (tx) => rt.runs.row(tx, run.runId)))!.nextSeq - 1;
    const visible = ['forever', 'live'];

    const adapter = rt.adapterFor(detachedTx(rt.port), 'tenant-a');
    expect((await adapter.list(REF)).map((e) => e.id).sort()).toEqual(visible);
    expect(await adapter.get(REF, 'unreadable')).toBeNull();
    expect(await adapter.get(REF, 'past')).toBeNull();
    expect((await unitOfWork(rt.port, (tx) => rt.compactor.selectSources(tx, REF, {}))).map((e) => e.id).sort()).toEqual(visible);
    expect((await request(port, (tx) => rt.subRuns.readForParent(tx, run.runId, REF))).map((e) => e.id).sort()).toEqual(visible);
    const fork = await request(port, (plan) => rt.fork(plan, run.runId, fromSeq));
    const view = (await unitOfWork(rt.port, (tx) => rt.memoryOfRun(tx, fork.runId)))!;
    expect((await view.list(REF)).map((e) => e.id).sort()).toEqual(visible);
    expect(await view.get(REF, 'unreadable')).toBeNull();
    expect(await view.get(REF, 'past')).toBeNull();
    const pass = await request(port, (plan) => rt.consolidation.consolidate(plan, REF, { trigger: 'on-demand' }));
    expect(pass.payload.inputCount).toBe(visible.length);
    const purged = await request(port, (plan) => plan.add('memory.purgeExpired', { atMs: clock.now(), limit: 100 }));
    expect(purged.value).toBe(2);
  });
});
