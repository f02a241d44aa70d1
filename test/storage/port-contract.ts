/**
 * The storage port contract, as one suite every back-end runs: `describePortContract(name, open, options)`.
 * `open` returns a store to test on (it may be shared between tests: every test uses keys of its own), and
 * `options.reopenable` — for a durable back-end — gives a location that can be opened, closed and opened again.
 *
 * What it holds every back-end to: a plan commits all of its operations or none (a refusal anywhere leaves nothing,
 * and concurrent plans stay independent); event sequences are gap-free under interleaved appends to many runs; a
 * claim (a commitment instance, a schedule slot, a once-only key) is won by exactly one of N concurrent claimers;
 * every count a bound is checked against moves with what it counts and refuses past its limit; a reader of tenant B
 * never sees tenant A's entries; a replay snapshot at any journal position equals the memory at that position; a
 * list walked page by page returns each entry once; a store closed and opened again returns every record
 * byte-identical.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MemoryEntry, RunEvent } from '../../generated/ts/index.ts';
import { QuotaExceededError } from '../../runtime/shared/quota.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { Plan } from '../../runtime/storage/plan.ts';
import { entryGet, entryPage, snapshotGet, snapshotPage, journalPrunedThrough } from '../../runtime/storage/reads/memory.ts';
import { eventAnchor, eventPage, runGet } from '../../runtime/storage/reads/runs.ts';
import { quotaCount } from '../../runtime/storage/reads/records.ts';

export interface PortContractOptions {
  /** A durable location: each call of the returned function opens it again (reopen-after-close test). */
  readonly reopenable?: () => Promise<() => Promise<StoragePort>>;
  /** fast-check runs per property (default 25). */
  readonly numRuns?: number;
}

let unique = 0;
/** A key no other test of this process uses (tests may share one store). */
export const fresh = (prefix: string): string => `${prefix}${process.pid.toString(36)}x${(unique++).toString(36)}`;

const BOUNDS = { entriesPerMemoryRef: 1_000_000, bytesPerTenant: 1 << 30 };

export const entry = (id: string, content = `content of ${id}`, extra: Partial<MemoryEntry> = {}): MemoryEntry => ({ id, content, tags: ['t'], createdAt: '2026-01-01T00:00:00.000Z', ...extra });

/** Commit one plan built by `f`; its pending results. */
export async function commit(port: StoragePort, f: (plan: Plan) => void): Promise<void> {
  const plan = new Plan();
  f(plan);
  await plan.commit(port);
}

export const put = (plan: Plan, tenant: string, memoryRef: string, e: MemoryEntry, atMs = 0, bounds = BOUNDS) => plan.add('memory.put', { tenant, memoryRef, entry: e, atMs, bounds });
const newRun = (plan: Plan, tenant: string, runId: string) => plan.add('run.create', { runId, tenant, kind: 'run', status: 'running', createdMs: 0, doc: { runId, tenant } });
const event = (runId: string, n: number): RunEvent => ({ eventId: `e-${runId}-${n}`, runId, type: 'vendor.test', payload: { n }, timestamp: '2026-11-27T00:00:00.000Z', sequence: 0 });

/** Commit one entry on its own. */
export const putEntry = (port: StoragePort, tenant: string, memoryRef: string, e: MemoryEntry): Promise<void> => commit(port, (p) => void put(p, tenant, memoryRef, e));

/** The ids of a memoryRef's entries, newest first (one page of up to 1000). */
export const entryIds = async (port: StoragePort, tenant: string, memoryRef: string): Promise<string[]> =>
  (await entryPage(port.reads, { tenant, memoryRef, atMs: 0, limit: 1000 })).entries.map((e) => e.id);

export function describePortContract(name: string, open: () => Promise<StoragePort>, options: PortContractOptions = {}): void {
  const numRuns = options.numRuns ?? 25;
  let shared: Promise<StoragePort> | undefined;
  const store = () => (shared ??= open());

  describe(`storage port contract: ${name}`, () => {
    it('a put stores the entry byte-identically, a replace keeps createdAt, a delete removes it and its tags', async () => {
      const port = await store();
      const [t, ref] = [fresh('t'), `mem://${fresh('t')}/x`];
      const first = entry('a', 'one', { tags: ['x', 'y'], createdAt: '2026-01-01T00:00:00.000Z' });
      await commit(port, (p) => void put(p, t, ref, first));
      expect(JSON.stringify(await entryGet(port.reads, { tenant: t, memoryRef: ref, id: 'a' }))).toBe(JSON.stringify(first));
      const plan = new Plan();
      const replaced = put(plan, t, ref, entry('a', 'two', { tags: ['z'], createdAt: '2026-06-01T00:00:00.000Z' }));
      await plan.commit(port);
      expect(replaced.value).toEqual({ id: 'a', content: 'two', tags: ['z'], createdAt: '2026-01-01T00:00:00.000Z' });
      expect((await entryPage(port.reads, { tenant: t, memoryRef: ref, atMs: 0, limit: 10, tag: 'x' })).entries).toEqual([]);
      expect((await entryPage(port.reads, { tenant: t, memoryRef: ref, atMs: 0, limit: 10, tag: 'z' })).entries.map((e) => e.id)).toEqual(['a']);
      const del = new Plan();
      const existed = del.add('memory.delete', { tenant: t, memoryRef: ref, id: 'a', atMs: 0 });
      await del.commit(port);
      expect(existed.value).toBe(true);
      expect(await entryGet(port.reads, { tenant: t, memoryRef: ref, id: 'a' })).toBeUndefined();
      expect((await entryPage(port.reads, { tenant: t, memoryRef: ref, atMs: 0, limit: 10, tag: 'z' })).entries).toEqual([]);
      expect(await quotaCount(port.reads, { tenant: t, resource: 'memory-entries', scope: ref })).toBe(0);
    });

    it('a plan commits all of its operations or none: a refusal in its last operation leaves nothing of the first ones', async () => {
      const port = await store();
      const [t, ref, runId] = [fresh('t'), `mem://${fresh('t')}/x`, fresh('run')];
      const plan = new Plan();
      newRun(plan, t, runId);
      put(plan, t, ref, entry('a'));
      plan.add('event.append', { runId, event: event(runId, 0), atMs: 0 });
      put(plan, t, ref, entry('b'), 0, { entriesPerMemoryRef: 1, bytesPerTenant: 1 << 30 });
      await expect(plan.commit(port)).rejects.toBeInstanceOf(QuotaExceededError);
      expect(await entryGet(port.reads, { tenant: t, memoryRef: ref, id: 'a' })).toBeUndefined();
      expect(await runGet(port.reads, runId)).toBeUndefined();
      expect((await eventPage(port.reads, { runId, fromSeq: 0, limit: 10 })).events).toEqual([]);
      expect(await quotaCount(port.reads, { tenant: t, resource: 'memory-entries', scope: ref })).toBe(0);
      expect(await quotaCount(port.reads, { tenant: t, resource: 'memory-bytes' })).toBe(0);
    });

    it('concurrent plans are independent: the refused one leaves nothing, the others commit', async () => {
      const port = await store();
      const t = fresh('t');
      const refs = [0, 1, 2, 3].map((i) => `mem://${t}/r${i}`);
      const outcomes = await Promise.allSettled(refs.map((ref, i) => commit(port, (p) => {
        put(p, t, ref, entry('a'));
        if (i === 2) put(p, t, ref, entry('b'), 0, { entriesPerMemoryRef: 1, bytesPerTenant: 1 << 30 });
      })));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      for (const [i, ref] of refs.entries()) expect((await entryGet(port.reads, { tenant: t, memoryRef: ref, id: 'a' })) !== undefined).toBe(i !== 2);
    });

    it('CTI-1: the same memoryRef and id written by another tenant are another entry; no read of one tenant sees the other', async () => {
      const port = await store();
      await fc.assert(fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom('a', 'b'), fc.constantFrom('x', 'y'), fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 12 }), async (writes) => {
        const [ta, tb] = [fresh('ta'), fresh('tb')];
        const ref = `mem://${ta}/shared`;
        const model = new Map<string, string>();
        for (const [who, id, content] of writes) {
          const tenant = who === 'a' ? ta : tb;
          await commit(port, (p) => void put(p, tenant, ref, entry(id, content)));
          model.set(`${tenant}/${id}`, content);
        }
        for (const tenant of [ta, tb]) {
          const page = await entryPage(port.reads, { tenant, memoryRef: ref, atMs: 0, limit: 100 });
          for (const e of page.entries) expect(model.get(`${tenant}/${e.id}`)).toBe(e.content);
          expect(page.entries.length).toBe([...model.keys()].filter((k) => k.startsWith(`${tenant}/`)).length);
        }
      }), { numRuns });
    });

    it('event sequences are gap-free, whatever interleaving of appends to several runs (and a refused append gives its number back)', async () => {
      const port = await store();
      await fc.assert(fc.asyncProperty(fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 30 }), fc.nat({ max: 29 }), async (order, refusedAt) => {
        const t = fresh('t');
        const runs = [0, 1, 2, 3].map((i) => `${t}-run${i}`);
        await commit(port, (p) => runs.forEach((r) => newRun(p, t, r)));
        await Promise.allSettled(order.map((r, i) => commit(port, (p) => {
          p.add('event.append', { runId: runs[r]!, event: event(runs[r]!, i), atMs: i });
          if (i === refusedAt) p.add('memory.put', { tenant: t, memoryRef: `mem://${t}/q`, entry: entry('a'), atMs: 0, bounds: { entriesPerMemoryRef: 0, bytesPerTenant: 1 } });
        })));
        for (const r of runs) {
          const seqs = (await eventPage(port.reads, { runId: r, fromSeq: 0, limit: 100 })).events.map((e) => e.sequence);
          expect(seqs).toEqual(seqs.map((_, i) => i));
        }
      }), { numRuns });
    });

    it('an event page ends with the sequence to read next, and not after the last event', async () => {
      const port = await store();
      const [t, runId] = [fresh('t'), fresh('run')];
      await commit(port, (p) => {
        newRun(p, t, runId);
        for (let i = 0; i < 5; i++) p.add('event.append', { runId, event: event(runId, i), atMs: i });
      });
      expect(await eventPage(port.reads, { runId, fromSeq: 1, limit: 2 })).toMatchObject({ nextSeq: 3 });
      const last = await eventPage(port.reads, { runId, fromSeq: 3, limit: 2 });
      expect(last.events.map((e) => e.sequence)).toEqual([3, 4]);
      expect(last.nextSeq).toBeUndefined();
    });

    it('a commitment instance and a schedule slot are each won by exactly one of N concurrent claimers', async () => {
      const port = await store();
      await fc.assert(fc.asyncProperty(fc.integer({ min: 2, max: 8 }), async (n) => {
        const [t, cid, sid] = [fresh('t'), fresh('c'), fresh('s')];
        await commit(port, (p) => {
          p.add('commitment.arm', { tenant: t, commitmentId: cid, kind: 'time', dueMs: 1, doc: { commitmentId: cid }, limit: 10 });
          p.add('schedule.put', { scheduleId: sid, tenant: t, memoryRef: `mem://${t}/x`, nextAt: 100, createdMs: 0, doc: { scheduleId: sid }, limit: 10 });
        });
        const fires = await Promise.allSettled(Array.from({ length: n }, () => commit(port, (p) => void p.add('commitment.fire', { tenant: t, commitmentId: cid, instance: 'time:1', firedMs: 1, disarm: true }))));
        const slots = await Promise.allSettled(Array.from({ length: n }, () => commit(port, (p) => void p.add('schedule.take', { scheduleId: sid, nextAtRead: 100, slot: 100, nextAt: 200, doc: { scheduleId: sid } }))));
        const claims = await Promise.allSettled(Array.from({ length: n }, () => commit(port, (p) => void p.add('claim.take', { key: `${t}:once`, atMs: 0 }))));
        for (const outcomes of [fires, slots, claims]) {
          expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBe(1);
          for (const o of outcomes) if (o.status === 'rejected') expect((o.reason as { code?: string }).code).toBe('claim_taken');
        }
      }), { numRuns: Math.min(numRuns, 10) });
    });

    it('a replay snapshot at any journal position equals memory at that position (undo of the later mutations, TTL at the anchor)', async () => {
      const port = await store();
      await fc.assert(fc.asyncProperty(
        fc.array(fc.record({ id: fc.constantFrom('a', 'b', 'c'), op: fc.constantFrom('put', 'put', 'delete'), content: fc.string({ maxLength: 6 }), ttl: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }) }), { minLength: 1, maxLength: 15 }),
        async (steps) => {
          const [t, runId] = [fresh('t'), fresh('run')];
          const ref = `mem://${t}/snap`;
          await commit(port, (p) => newRun(p, t, runId));
          const model = new Map<string, MemoryEntry>();
          const positions: { seq: number; state: Map<string, MemoryEntry>; atMs: number }[] = [];
          for (const [i, s] of steps.entries()) {
            const at = 10 + i;
            await commit(port, (p) => {
              if (s.op === 'put') p.add('memory.put', { tenant: t, memoryRef: ref, entry: entry(s.id, s.content, { createdAt: new Date(at).toISOString(), ...(s.ttl !== undefined ? { expiresAt: new Date(at + s.ttl).toISOString() } : {}) }), atMs: at, runId, bounds: BOUNDS });
              else p.add('memory.delete', { tenant: t, memoryRef: ref, id: s.id, atMs: at, runId });
              p.add('event.append', { runId, event: event(runId, i), atMs: at });
            });
            if (s.op === 'put') {
              const prev = model.get(s.id);
              model.set(s.id, entry(s.id, s.content, { createdAt: prev?.createdAt ?? new Date(at).toISOString(), ...(s.ttl !== undefined ? { expiresAt: new Date(at + s.ttl).toISOString() } : {}) }));
            } else model.delete(s.id);
            positions.push({ seq: i, state: new Map(model), atMs: at });
          }
          for (const pos of positions) {
            const anchor = (await eventAnchor(port.reads, { runId, seq: pos.seq }))!;
            expect(anchor.jseq).toBeGreaterThanOrEqual(await journalPrunedThrough(port.reads));
            const live = [...pos.state.values()].filter((e) => e.expiresAt === undefined || Date.parse(e.expiresAt) > anchor.atMs);
            const page = await snapshotPage(port.reads, { tenant: t, memoryRef: ref, atMs: anchor.atMs, limit: 100, jseq: anchor.jseq });
            expect(page.entries.map((e) => e.id).sort()).toEqual(live.map((e) => e.id).sort());
            for (const e of pos.state.values()) expect(await snapshotGet(port.reads, { tenant: t, memoryRef: ref, id: e.id, jseq: anchor.jseq })).toEqual(e);
          }
        },
      ), { numRuns });
    });

    it('a list walked page by page returns every entry present for the whole walk exactly once, while others come and go', async () => {
      const port = await store();
      await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(fc.constantFrom('add', 'delete', 'replace'), { maxLength: 20 }), async (pageSize, churn) => {
        const t = fresh('t');
        const ref = `mem://${t}/walk`;
        const stable = Array.from({ length: 9 }, (_, i) => entry(`s${i}`, `stable ${i}`, { createdAt: new Date(1000 + i * 7).toISOString() }));
        await commit(port, (p) => stable.forEach((e) => put(p, t, ref, e)));
        const seen: string[] = [];
        let after: { negCreated: number; id: string } | undefined;
        let k = 0;
        for (;;) {
          const page = await entryPage(port.reads, { tenant: t, memoryRef: ref, atMs: 0, limit: pageSize, ...(after !== undefined ? { after } : {}) });
          seen.push(...page.entries.map((e) => e.id));
          const c = churn[k++];
          if (c === 'add') await commit(port, (p) => void put(p, t, ref, entry(`n${k}`, 'new', { createdAt: new Date(500 + k * 3).toISOString() })));
          if (c === 'replace') await commit(port, (p) => void put(p, t, ref, entry(`s${k % 9}`, 'rewritten', { createdAt: new Date(9_000).toISOString() })));
          if (c === 'delete') await commit(port, (p) => void p.add('memory.delete', { tenant: t, memoryRef: ref, id: `n${k - 1}`, atMs: 0 }));
          if (page.next === undefined) break;
          after = page.next;
        }
        for (const e of stable) expect(seen.filter((id) => id === e.id)).toHaveLength(1);
        expect(new Set(seen).size).toBe(seen.length);
      }), { numRuns });
    });

    it('a count moves with what it counts and refuses an increase past its limit', async () => {
      const port = await store();
      const [t, ref] = [fresh('t'), `mem://${fresh('t')}/q`];
      const tight = { entriesPerMemoryRef: 2, bytesPerTenant: 1 << 30 };
      await commit(port, (p) => { put(p, t, ref, entry('a'), 0, tight); put(p, t, ref, entry('b'), 0, tight); });
      await commit(port, (p) => void put(p, t, ref, entry('a', 'replaced'), 0, tight)); // a replace adds no entry
      await expect(commit(port, (p) => void put(p, t, ref, entry('c'), 0, tight))).rejects.toMatchObject({ code: 'quota_exceeded', details: { resource: 'memory-entries', limit: 2 } });
      await commit(port, (p) => void p.add('memory.delete', { tenant: t, memoryRef: ref, id: 'a', atMs: 0 }));
      await commit(port, (p) => void put(p, t, ref, entry('c'), 0, tight));
      expect(await quotaCount(port.reads, { tenant: t, resource: 'memory-entries', scope: ref })).toBe(2);
    });

    it('reports the durability its writing connections run with', async () => {
      const port = await store();
      const d = await port.durability();
      if (port.kind === 'postgres') expect(d.synchronous_commit).toBe('on');
      else if (port.kind === 'sqlite') expect(d).toMatchObject({ journal_mode: 'wal', synchronous: '2' });
      else expect(d.synchronous).toBe('2');
    });

    it('after close, every read and commit is refused with StoreClosedError (store_closed), and close is idempotent', async () => {
      const port = await open();
      await port.close();
      await port.close();
      await expect(entryGet(port.reads, { tenant: 't', memoryRef: 'mem://t/x', id: 'a' })).rejects.toMatchObject({ code: 'store_closed' });
      await expect(entryPage(port.reads, { tenant: 't', memoryRef: 'mem://t/x', atMs: 0, limit: 5 })).rejects.toMatchObject({ code: 'store_closed' });
      await expect(commit(port, (p) => void put(p, 't', 'mem://t/x', entry('a')))).rejects.toMatchObject({ code: 'store_closed' });
    });

    if (options.reopenable !== undefined) {
      it('a store closed and opened again returns every record byte-identical', async () => {
        const reopen = await options.reopenable!();
        const [t, runId] = [fresh('t'), fresh('run')];
        const ref = `mem://${t}/x`;
        const first = await reopen();
        await commit(first, (p) => {
          put(p, t, ref, entry('a', 'ünïcödé ✓', { tags: ['k', 'l'], expiresAt: '2030-01-01T00:00:00.000Z' }));
          newRun(p, t, runId);
          p.add('event.append', { runId, event: event(runId, 0), atMs: 5 });
        });
        const before = JSON.stringify([await entryPage(first.reads, { tenant: t, memoryRef: ref, atMs: 0, limit: 10 }), await eventPage(first.reads, { runId, fromSeq: 0, limit: 10 })]);
        await first.close();
        const second = await reopen();
        try {
          expect(JSON.stringify([await entryPage(second.reads, { tenant: t, memoryRef: ref, atMs: 0, limit: 10 }), await eventPage(second.reads, { runId, fromSeq: 0, limit: 10 })])).toBe(before);
        } finally {
          await second.close();
        }
      });
    }
  });
}
