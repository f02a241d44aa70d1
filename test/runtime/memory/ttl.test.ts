import { describe, expect, it } from 'vitest';
import { isExpired } from '../../../runtime/memory/ttl.ts';
import { createOpenwopRuntime } from '../../../runtime/openwop/index.ts';
import { ManualClock, SequentialIds, toIso } from '../../../runtime/shared/clock.ts';

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
    const clock = new ManualClock();
    const rt = createOpenwopRuntime({ clock, ids: new SequentialIds() });
    const run = rt.startRun({ workflowId: 'wf', memoryRef: REF });
    const now = clock.now();
    // Raw entries straight into the store, attributed to the run (the write path would refuse the unreadable one).
    rt.asRun(run.runId, () => {
      rt.store.upsertSync(REF, { id: 'live', content: 'live entry', tags: [], createdAt: toIso(now), expiresAt: toIso(now + 60_000) });
      rt.store.upsertSync(REF, { id: 'forever', content: 'entry without lifetime', tags: [], createdAt: toIso(now) });
      rt.store.upsertSync(REF, { id: 'past', content: 'expired entry', tags: [], createdAt: toIso(now), expiresAt: toIso(now) });
      rt.store.upsertSync(REF, { id: 'unreadable', content: 'entry with unreadable lifetime', tags: [], createdAt: toIso(now), expiresAt: 'not-an-instant' });
    });
    const fromSeq = rt.log.lastSequence(run.runId);
    const visible = ['forever', 'live'];

    const adapter = rt.adapterFor('tenant-a');
    expect((await adapter.list(REF)).map((e) => e.id).sort()).toEqual(visible);
    expect(await adapter.get(REF, 'unreadable')).toBeNull();
    expect(await adapter.get(REF, 'past')).toBeNull();
    expect(rt.compactor.selectSources(REF, {}).map((e) => e.id).sort()).toEqual(visible);
    expect((await rt.subRuns.readForParent(run.runId, REF)).map((e) => e.id).sort()).toEqual(visible);
    const view = rt.journal.openFork({ runId: 'fork-ttl', tenant: run.tenant }, run.runId, fromSeq);
    expect((await view.list(REF)).map((e) => e.id).sort()).toEqual(visible);
    expect(await view.get(REF, 'unreadable')).toBeNull();
    view.close();
    expect((await rt.consolidation.consolidate(REF, { trigger: 'on-demand' })).payload.inputCount).toBe(visible.length);
    expect(rt.store.purgeExpired(clock.now())).toBe(2);
  });
});

