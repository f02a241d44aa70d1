import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MemoryEntry } from '../../../generated/ts/index.ts';
import { toIso } from '../../../runtime/shared/clock.ts';
import { DEFAULT_MEMORY_BOUNDS } from '../../../runtime/memory/writer.ts';
import { ForkSeqOutOfRangeError, ReplayMemorySnapshotUnavailableError } from '../../../runtime/multi-agent/replay-snapshots.ts';
import { openRuntime, put, request, thrown, withRuntime, type TestRuntime } from '../support.ts';
import { unitOfWork } from '../../../runtime/storage/index.ts';

const M = 'mem://acme/m';
const M1 = 'mem://acme/m1';
const M2 = 'mem://acme/m2';

/** A run `r` of tenant acme whose log holds only what the test marks (memory is written outside it). */
async function withRun(t: TestRuntime, runId: string) {
  await request(t.port, (plan) => t.rt.startRun(plan, { runId, workflowId: 'wf', memoryRef: M }));
}
/** Append a marker event to the run: the fork point "now"; its sequence. */
const mark = async (t: TestRuntime, runId: string) => (await request(t.port, (plan) => t.rt.log.append(plan, runId, { type: 'vendor.mark', payload: {} }))).value.sequence;
/** Fork `runId` at `seq` and read memory as the fork does. */
async function forkAt(t: TestRuntime, runId: string, seq: number) {
  const fork = await request(t.port, (plan) => t.rt.fork(plan, runId, seq));
  return { fork, view: (await unitOfWork(t.rt.port, (tx) => t.rt.memoryOfRun(tx, fork.runId)))! };
}
const del = (t: TestRuntime, ref: string, id: string) => request(t.port, (plan) => t.rt.writer.delete(plan, ref, id));
const prune = async (t: TestRuntime, beforeMs: number) => (await request(t.port, (plan) => plan.add('journal.prune', { beforeMs, limit: 10_000 }))).value;

describe('replay memory snapshots (RFC 0039 MAE-3)', () => {
  it('a fork at N reads memory as it was at N, not the current state', async () => {
    const t = await openRuntime();
    await withRun(t, 'r1');
    const ref = 'mem://acme/agent-1';
    await put(t.rt, ref, { id: 'k', content: 'v1' });
    const s0 = await mark(t, 'r1');
    await put(t.rt, ref, { id: 'k', content: 'v2' });
    await put(t.rt, ref, { id: 'j', content: 'new' });
    const s1 = await mark(t, 'r1');
    await del(t, ref, 'k');
    const s2 = await mark(t, 'r1');
    const at0 = (await forkAt(t, 'r1', s0)).view;
    expect((await at0.get(ref, 'k'))?.content).toBe('v1');
    expect(await at0.get(ref, 'j')).toBeNull();
    const at1 = (await forkAt(t, 'r1', s1)).view;
    expect((await at1.list(ref)).map((e) => e.content).sort()).toEqual(['new', 'v2']);
    const at2 = (await forkAt(t, 'r1', s2)).view;
    expect(await at2.get(ref, 'k')).toBeNull();
    // a fork's view is its tenant's: another tenant's ref reads as empty from it
    await put(t.rt, 'mem://globex/x', { id: 'g', content: 'globex' });
    expect(await at2.list('mem://globex/x')).toEqual([]);
  });

  it('TTL is evaluated at the snapshot anchor, not now', async () => {
    const t = await openRuntime();
    await withRun(t, 'r');
    await put(t.rt, M, { id: 'x', content: 'short-lived', ttlSeconds: 5 });
    const s0 = await mark(t, 'r');
    t.clock.advance(10_000);
    const s1 = await mark(t, 'r');
    expect((await (await forkAt(t, 'r', s0)).view.get(M, 'x'))?.content).toBe('short-lived');
    expect(await (await forkAt(t, 'r', s1)).view.get(M, 'x')).toBeNull();
  });

  it('an entry whose expiresAt does not parse is hidden from a fork, as from every other read path (one TTL rule)', async () => {
    const t = await openRuntime();
    await withRun(t, 'r');
    await request(t.port, (plan) => {
      const raw = (entry: MemoryEntry) => plan.add('memory.put', { tenant: 'acme', memoryRef: M, entry, atMs: t.clock.now(), bounds: DEFAULT_MEMORY_BOUNDS });
      raw({ id: 'x', content: 'unreadable lifetime', tags: [], createdAt: toIso(t.clock.now()), expiresAt: 'not-an-instant' });
      raw({ id: 'y', content: 'no lifetime', tags: [], createdAt: toIso(t.clock.now()) });
    });
    const { view } = await forkAt(t, 'r', await mark(t, 'r'));
    expect(await view.get(M, 'x')).toBeNull();
    expect((await view.list(M)).map((e) => e.id)).toEqual(['y']);
  });

  it('refuses with retention_expired (+ oldestAvailableIdx) once the journal prefix is pruned', async () => {
    const t = await openRuntime();
    await withRun(t, 'r');
    const s0 = await mark(t, 'r');
    await put(t.rt, M, { id: 'a', content: '1' });
    const s1 = await mark(t, 'r');
    t.clock.advance(120_000);
    await put(t.rt, M, { id: 'a', content: '2' });
    await mark(t, 'r');
    expect(await prune(t, t.clock.now() - 60_000)).toBe(1);
    const err = await thrown(() => forkAt(t, 'r', s0));
    expect(err).toBeInstanceOf(ReplayMemorySnapshotUnavailableError);
    expect((err as ReplayMemorySnapshotUnavailableError).toWire()).toEqual({
      error: 'replay_memory_snapshot_unavailable',
      message: expect.any(String),
      details: { fromSeq: s0, sourceRunId: 'r', reason: 'retention_expired', oldestAvailableIdx: s1 },
    });
    expect((await (await forkAt(t, 'r', s1)).view.get(M, 'a'))?.content).toBe('1');
  });

  it('refuses with event_log_unavailable when the source run log is gone; out-of-range index is its own error; unknown source is a RangeError', async () => {
    const t = await openRuntime();
    await withRun(t, 'r');
    expect(await thrown(() => forkAt(t, 'r', 5))).toBeInstanceOf(ForkSeqOutOfRangeError);
    await request(t.port, (plan) => void plan.add('run.dropEvents', { runId: 'r' }));
    const err = await thrown(() => forkAt(t, 'r', 0));
    expect((err as ReplayMemorySnapshotUnavailableError).details).toEqual({ fromSeq: 0, sourceRunId: 'r', reason: 'event_log_unavailable' });
    expect(await thrown(() => forkAt(t, 'nobody', 0))).toBeInstanceOf(RangeError);
  });

  it('a live fork pins its anchor: pruning never removes what it still needs; once the fork is retired, pruning passes it', async () => {
    const t = await openRuntime();
    await withRun(t, 'r');
    await put(t.rt, M, { id: 'a', content: 'old' });
    const s0 = await mark(t, 'r');
    const { fork, view } = await forkAt(t, 'r', s0);
    expect((await view.get(M, 'a'))?.content).toBe('old');
    t.clock.advance(5_000);
    await put(t.rt, M, { id: 'a', content: 'new' });
    await prune(t, t.clock.now() + 1);
    expect((await view.get(M, 'a'))?.content).toBe('old');
    expect((await (await forkAt(t, 'r', s0)).view.get(M, 'a'))?.content).toBe('old');
    const forks = await t.port.reads.all("SELECT run_id FROM runs WHERE kind = 'fork'", [], 100);
    await request(t.port, (plan) => void plan.add('run.remove', { runIds: forks.map((f) => String(f.run_id)) }));
    expect(fork.runId).toBe(forks[0]!.run_id);
    expect(await prune(t, t.clock.now() + 1)).toBeGreaterThan(0);
    expect(await thrown(() => forkAt(t, 'r', s0))).toMatchObject({ details: { reason: 'retention_expired' } });
  });

  it('forks per tenant are bounded: one more is 429 forks, and a fork refused leaves no run behind', async () => {
    const t = await openRuntime({ runBounds: { forksPerTenant: 2 } });
    await withRun(t, 'r');
    await forkAt(t, 'r', 0);
    await forkAt(t, 'r', 0);
    expect(await thrown(() => forkAt(t, 'r', 0))).toMatchObject({ code: 'quota_exceeded', resource: 'forks', limit: 2 });
    expect((await t.port.reads.all("SELECT run_id FROM runs WHERE kind = 'fork'", [], 100)).length).toBe(2);
  });

  it('property: a fork at N always reads the state at N under random write histories, purges included (vs a naive full-copy model)', async () => {
    const op = fc.oneof(
      fc.record({ k: fc.constant('put' as const), ref: fc.constantFrom(M1, M2), id: fc.constantFrom('a', 'b', 'c'), v: fc.nat(99), ttl: fc.option(fc.integer({ min: 1, max: 30_000 }), { nil: undefined }) }),
      fc.record({ k: fc.constant('del' as const), ref: fc.constantFrom(M1, M2), id: fc.constantFrom('a', 'b', 'c') }),
      fc.record({ k: fc.constant('event' as const), run: fc.constantFrom('r1', 'r2') }),
      fc.record({ k: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 20_000 }) }),
      fc.record({ k: fc.constant('purge' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 60, size: 'medium' }), async (ops) => {
        await withRuntime({}, async (t) => {
          await withRun(t, 'r1');
          await withRun(t, 'r2');
          const live = new Map<string, Map<string, MemoryEntry>>([[M1, new Map()], [M2, new Map()]]);
          const snaps: { run: string; seq: number; at: number; copy: Map<string, Map<string, MemoryEntry>> }[] = [];
          for (const o of ops) {
            if (o.k === 'put') live.get(o.ref)!.set(o.id, await put(t.rt, o.ref, { id: o.id, content: `v${o.v}`, ...(o.ttl !== undefined ? { ttlSeconds: o.ttl / 1000 } : {}) }));
            else if (o.k === 'del') {
              await del(t, o.ref, o.id);
              live.get(o.ref)!.delete(o.id);
            } else if (o.k === 'tick') t.clock.advance(o.ms);
            else if (o.k === 'purge') {
              // physically removes expired rows; a fork anchored before their expiry still reads them
              await request(t.port, (plan) => plan.add('memory.purgeExpired', { atMs: t.clock.now(), limit: 100 }));
              for (const m of live.values()) for (const [id, e] of m) if (e.expiresAt !== undefined && Date.parse(e.expiresAt) <= t.clock.now()) m.delete(id);
            } else {
              const seq = await mark(t, o.run);
              snaps.push({ run: o.run, seq, at: t.clock.now(), copy: new Map([...live].map(([r, m]) => [r, new Map(m)])) });
            }
          }
          for (const snap of snaps) {
            const { view } = await forkAt(t, snap.run, snap.seq);
            for (const ref of [M1, M2]) {
              const expected = [...snap.copy.get(ref)!.values()]
                .filter((e) => e.expiresAt === undefined || Date.parse(e.expiresAt) > snap.at)
                .sort((a, b) => a.id.localeCompare(b.id));
              const got = [...(await view.list(ref))].sort((a, b) => a.id.localeCompare(b.id));
              expect(got).toEqual(expected);
              for (const e of expected) expect(await view.get(ref, e.id)).toEqual(e);
            }
          }
        });
      }),
      { numRuns: 200 },
    );
  });
});
