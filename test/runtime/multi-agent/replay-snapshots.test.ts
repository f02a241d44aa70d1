import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ManualClock, toIso } from '../../../runtime/shared/clock.ts';
import { InMemoryStorePort, type StoredEntry } from '../../../runtime/memory/memory-port.ts';
import {
  ForkSeqOutOfRangeError,
  JournaledStore,
  MemoryJournal,
  ReplayMemorySnapshotUnavailableError,
} from '../../../runtime/multi-agent/replay-snapshots.ts';

/** Fork views read as the fork run's tenant (CTI-1): every ref below is a ref of that tenant. */
const forkOf = (runId: string) => ({ runId, tenant: 'acme' });
const M = 'mem://acme/m';
const M1 = 'mem://acme/m1';
const M2 = 'mem://acme/m2';

const entry = (id: string, content: string, createdAt: number, expiresAt?: number): StoredEntry => ({
  id,
  content,
  tags: [],
  createdAt: toIso(createdAt),
  ...(expiresAt === undefined ? {} : { expiresAt: toIso(expiresAt) }),
});

describe('replay memory snapshots (RFC 0039 MAE-3)', () => {
  it('a fork at N reads memory as it was at N, not the current state', async () => {
    const clock = new ManualClock();
    const journal = new MemoryJournal({ clock });
    const store = new JournaledStore(new InMemoryStorePort(), journal);
    const ref = 'mem://acme/agent-1';
    await store.upsert(ref, entry('k', 'v1', clock.now()), { runId: 'r1', runSeq: 0 });
    journal.markEvent('r1', 0);
    await store.upsert(ref, entry('k', 'v2', clock.now()), { runId: 'r1', runSeq: 1 });
    await store.upsert(ref, entry('j', 'new', clock.now()));
    journal.markEvent('r1', 1);
    await store.remove(ref, 'k');
    journal.markEvent('r1', 2);
    const at0 = journal.openFork(forkOf('fork-a'), 'r1', 0);
    expect((await at0.get(ref, 'k'))?.content).toBe('v1');
    expect(await at0.get(ref, 'j')).toBeNull();
    const at1 = journal.openFork(forkOf('fork-b'), 'r1', 1);
    expect((await at1.list(ref)).map((e) => e.content).sort()).toEqual(['new', 'v2']);
    const at2 = journal.openFork(forkOf('fork-c'), 'r1', 2);
    expect(await at2.get(ref, 'k')).toBeNull();
  });

  it('TTL is evaluated at the snapshot anchor, not now', async () => {
    const clock = new ManualClock();
    const journal = new MemoryJournal({ clock });
    const store = new JournaledStore(new InMemoryStorePort(), journal);
    await store.upsert(M, entry('x', 'short-lived', clock.now(), clock.now() + 5_000));
    journal.markEvent('r', 0);
    clock.advance(10_000);
    journal.markEvent('r', 1);
    expect((await journal.openFork(forkOf('f0'), 'r', 0).get(M, 'x'))?.content).toBe('short-lived');
    expect(await journal.openFork(forkOf('f1'), 'r', 1).get(M, 'x')).toBeNull();
  });

  it('an entry whose expiresAt does not parse is hidden from a fork, as from every other read path (one TTL rule)', async () => {
    const clock = new ManualClock();
    const journal = new MemoryJournal({ clock });
    const store = new JournaledStore(new InMemoryStorePort(), journal);
    await store.upsert(M, { ...entry('x', 'unreadable lifetime', clock.now()), expiresAt: 'not-an-instant' });
    await store.upsert(M, entry('y', 'no lifetime', clock.now()));
    journal.markEvent('r', 0);
    const fork = journal.openFork(forkOf('f'), 'r', 0);
    expect(await fork.get(M, 'x')).toBeNull();
    expect((await fork.list(M)).map((e) => e.id)).toEqual(['y']);
  });

  it('refuses with retention_expired (+ oldestAvailableIdx) once the journal prefix is pruned', async () => {
    const clock = new ManualClock();
    const journal = new MemoryJournal({ clock, retentionMs: 60_000 });
    const store = new JournaledStore(new InMemoryStorePort(), journal);
    journal.markEvent('r', 0);
    await store.upsert(M, entry('a', '1', clock.now()));
    journal.markEvent('r', 1);
    clock.advance(120_000);
    await store.upsert(M, entry('a', '2', clock.now()));
    journal.markEvent('r', 2);
    expect(journal.prune()).toBe(1);
    let err: unknown;
    try {
      journal.openFork(forkOf('f'), 'r', 0);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ReplayMemorySnapshotUnavailableError);
    expect((err as ReplayMemorySnapshotUnavailableError).toWire()).toEqual({
      error: 'replay_memory_snapshot_unavailable',
      message: expect.any(String),
      details: { fromSeq: 0, sourceRunId: 'r', reason: 'retention_expired', oldestAvailableIdx: 1 },
    });
    expect((await journal.openFork(forkOf('f1'), 'r', 1).get(M, 'a'))?.content).toBe('1');
  });

  it('refuses with event_log_unavailable when the source run log is gone; out-of-range index is its own error', () => {
    const journal = new MemoryJournal({ clock: new ManualClock() });
    journal.markEvent('r', 0);
    expect(() => journal.openFork(forkOf('f'), 'r', 5)).toThrow(ForkSeqOutOfRangeError);
    journal.dropRun('r');
    try {
      journal.openFork(forkOf('f'), 'r', 0);
      expect.unreachable();
    } catch (e) {
      expect((e as ReplayMemorySnapshotUnavailableError).details).toEqual({ fromSeq: 0, sourceRunId: 'r', reason: 'event_log_unavailable' });
    }
  });

  it('an open fork pins its watermark: pruning never removes what it still needs', async () => {
    const clock = new ManualClock();
    const journal = new MemoryJournal({ clock, retentionMs: 1_000 });
    const store = new JournaledStore(new InMemoryStorePort(), journal);
    await store.upsert(M, entry('a', 'old', clock.now()));
    journal.markEvent('r', 0);
    const view = journal.openFork(forkOf('f'), 'r', 0);
    expect((await view.get(M, 'a'))?.content).toBe('old');
    clock.advance(5_000);
    await store.upsert(M, entry('a', 'new', clock.now()));
    journal.prune();
    expect((await journal.openFork(forkOf('g'), 'r', 0).get(M, 'a'))?.content).toBe('old');
    view.close();
  });

  it('property: a fork at N always reads the state at N under random write histories (vs a naive full-copy model)', async () => {
    const op = fc.oneof(
      fc.record({ k: fc.constant('put' as const), ref: fc.constantFrom(M1, M2), id: fc.constantFrom('a', 'b', 'c'), v: fc.nat(99), ttl: fc.option(fc.integer({ min: 1, max: 30_000 }), { nil: undefined }) }),
      fc.record({ k: fc.constant('del' as const), ref: fc.constantFrom(M1, M2), id: fc.constantFrom('a', 'b', 'c') }),
      fc.record({ k: fc.constant('event' as const), run: fc.constantFrom('r1', 'r2') }),
      fc.record({ k: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 20_000 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 80 }), async (ops) => {
        const clock = new ManualClock();
        const journal = new MemoryJournal({ clock });
        const inner = new InMemoryStorePort();
        const store = new JournaledStore(inner, journal);
        const naive: { run: string; seq: number; at: number; copy: Map<string, Map<string, StoredEntry>> }[] = [];
        const seqs = new Map<string, number>();
        for (const o of ops) {
          if (o.k === 'put') await store.upsert(o.ref, entry(o.id, `v${o.v}`, clock.now(), o.ttl === undefined ? undefined : clock.now() + o.ttl));
          else if (o.k === 'del') await store.remove(o.ref, o.id);
          else if (o.k === 'tick') clock.advance(o.ms);
          else {
            const seq = seqs.get(o.run) ?? 0;
            seqs.set(o.run, seq + 1);
            journal.markEvent(o.run, seq);
            naive.push({ run: o.run, seq, at: clock.now(), copy: new Map([...inner.refs].map(([r, m]) => [r, new Map(m)])) });
          }
        }
        for (const snap of naive) {
          const view = journal.openFork(forkOf(`f-${snap.run}-${snap.seq}`), snap.run, snap.seq);
          for (const ref of [M1, M2]) {
            const expected = [...(snap.copy.get(ref)?.values() ?? [])]
              .filter((e) => e.expiresAt === undefined || Date.parse(e.expiresAt) > snap.at)
              .sort((a, b) => a.id.localeCompare(b.id));
            const got = (await view.list(ref)).sort((a, b) => a.id.localeCompare(b.id));
            expect(got).toEqual(expected);
          }
          view.close();
        }
      }),
      { numRuns: 300 },
    );
  });
});
