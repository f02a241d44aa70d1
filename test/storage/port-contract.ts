/**
 * The storage port contract, as one suite every back-end runs: `describePortContract(name, open, options)`.
 * `open` returns a store to test on (it may be shared between tests: every test uses keys of its own), and
 * `options.reopenable` — for a durable back-end — gives a location that can be opened, closed and opened again.
 *
 * Properties (fast-check): event sequences are gap-free under interleaved appends to many runs; a commitment
 * instance and a schedule slot are claimed by exactly one of N concurrent claimers; a reader of tenant B never
 * sees (or overwrites) tenant A's memory entries through any get or list; a store closed and opened again
 * returns every record byte-identical.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryEntry, RunEvent } from '../../generated/ts/index.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';

export interface PortContractOptions {
  /** A durable location: each call of the returned function opens it again (reopen-after-close test). */
  readonly reopenable?: () => Promise<() => Promise<StoragePort>>;
  /** fast-check runs per property (default 30). */
  readonly numRuns?: number;
}

/** Everything a port holds, as one JSON-able value (for byte-identity checks across a reopen or a restart). */
export async function dumpPort(port: StoragePort): Promise<Record<string, unknown>> {
  const runIds = await port.runs.eventRunIds();
  const schedules = await port.schedules.list();
  return {
    memory: (await port.memory.all()).map((r) => ({ ...r })),
    runs: (await port.runs.runs()).map((r) => ({ ...r })),
    events: await Promise.all(runIds.map(async (id) => ({ runId: id, events: await port.runs.readEvents(id) }))),
    armed: (await port.commitments.listArmed()).map((r) => ({ ...r })),
    fired: (await port.commitments.listFired()).map((r) => ({ ...r })),
    schedules: await Promise.all(schedules.map(async (s) => ({ ...s, runs: (await port.schedules.runs(s.scheduleId)).map((r) => ({ ...r })) }))),
    consolidation: (await port.consolidation.all()).map((r) => ({ ...r })),
    journal: (await port.replay.journal()).map((r) => ({ ...r })),
    watermarks: (await port.replay.watermarks()).map((r) => ({ ...r })),
    questions: (await port.questions.all()).map((r) => ({ ...r })),
    transcripts: await port.transcripts.all(),
    traces: await port.traces.all(),
    proposals: (await port.proposals.all()).map((r) => ({ ...r })),
    gates: (await port.proposals.gates()).map((r) => ({ ...r })),
    installed: (await port.proposals.installed()).map((r) => ({ ...r })),
  };
}

let unique = 0;
/** A key no other test of this process uses (tests may share one store). */
export const fresh = (prefix: string): string => `${prefix}${process.pid.toString(36)}x${(unique++).toString(36)}`;

export const entry = (id: string, content = `content of ${id}`, extra: Partial<MemoryEntry> = {}): MemoryEntry => ({ id, content, tags: ['t'], createdAt: '2026-01-01T00:00:00.000Z', ...extra });

export const eventFor = (runId: string, sequence: number, payload: Record<string, unknown> = {}): RunEvent => ({
  eventId: `evt-${runId}-${sequence}`, runId, type: 'vendor.test', payload: { ...payload, n: sequence }, timestamp: '2026-01-01T00:00:00.000Z', sequence,
});

export function describePortContract(name: string, open: () => Promise<StoragePort>, options: PortContractOptions = {}): void {
  const numRuns = options.numRuns ?? 30;
  describe(`storage port contract: ${name}`, () => {
    let port: StoragePort;
    beforeAll(async () => {
      port = await open();
    });
    afterAll(async () => {
      await port.close();
    });

    describe('memory entries', () => {
      it('upsert, get, list (by id), replace and remove', async () => {
        const t = fresh('t');
        const ref = `mem://${t}/notes`;
        await port.memory.upsert(t, ref, entry('b'));
        await port.memory.upsert(t, ref, entry('a', 'first', { expiresAt: '2020-01-01T00:00:00.000Z' }));
        expect((await port.memory.list(t, ref)).map((e) => e.id)).toEqual(['a', 'b']);
        await port.memory.upsert(t, ref, entry('a', 'second'));
        expect(await port.memory.get(t, ref, 'a')).toEqual(entry('a', 'second'));
        expect(await port.memory.remove(t, ref, 'a')).toBe(true);
        expect(await port.memory.remove(t, ref, 'a')).toBe(false);
        expect(await port.memory.get(t, ref, 'a')).toBeUndefined();
      });

      it('keeps expired entries (TTL is the read views\' rule, not the store\'s)', async () => {
        const t = fresh('t');
        const ref = `mem://${t}/x`;
        await port.memory.upsert(t, ref, entry('old', 'c', { expiresAt: '2000-01-01T00:00:00.000Z' }));
        expect(await port.memory.list(t, ref)).toHaveLength(1);
      });

      it('CTI-1: tenant B never reads or overwrites tenant A\'s entries, whatever ref it names (property)', async () => {
        await fc.assert(fc.asyncProperty(
          fc.array(fc.record({ owner: fc.constantFrom(0, 1), scope: fc.constantFrom('s1', 's2'), id: fc.constantFrom('e1', 'e2', 'e3'), content: fc.string() }), { minLength: 1, maxLength: 12 }),
          async (writes) => {
            const tenants = [fresh('a'), fresh('b')] as const;
            const written = new Map<string, { owner: 0 | 1; entry: MemoryEntry }>();
            for (const w of writes) {
              const ref = `mem://${tenants[w.owner]}/${w.scope}`;
              await port.memory.upsert(tenants[w.owner]!, ref, entry(w.id, w.content));
              written.set(`${ref}#${w.id}`, { owner: w.owner as 0 | 1, entry: entry(w.id, w.content) });
              // The other tenant writes under the same key: it must not replace the owner's entry.
              await port.memory.upsert(tenants[1 - w.owner]!, ref, entry(w.id, 'intruder'));
            }
            for (const [key, { owner, entry: e }] of written) {
              const [ref, id] = key.split('#') as [string, string];
              const intruder = tenants[1 - owner]!;
              expect(await port.memory.get(intruder, ref, id)).toBeUndefined();
              expect(await port.memory.list(intruder, ref)).toEqual([]);
              expect(await port.memory.get(tenants[owner]!, ref, id)).toEqual(e);
            }
            expect(await port.memory.remove(tenants[1], `mem://${tenants[0]}/s1`, 'e1')).toBe(false);
          },
        ), { numRuns });
      });
    });

    describe('runs and event logs', () => {
      it('stores run records and forgets them', async () => {
        const runId = fresh('run');
        await port.runs.putRun({ runId, tenant: 'acme', record: { runId, tenant: 'acme', memoryRef: 'mem://acme/x', workflowId: 'w' } });
        expect((await port.runs.runs()).find((r) => r.runId === runId)?.record).toEqual({ runId, tenant: 'acme', memoryRef: 'mem://acme/x', workflowId: 'w' });
        expect(await port.runs.removeRun(runId)).toBe(true);
        expect((await port.runs.runs()).some((r) => r.runId === runId)).toBe(false);
      });

      it('appendEvent refuses an event that does not carry the allocated sequence, and stores nothing', async () => {
        const runId = fresh('run');
        await expect(port.runs.appendEvent(runId, (seq) => eventFor(runId, seq + 1))).rejects.toThrow();
        await expect(port.runs.appendEvent(runId, () => { throw new Error('build failed'); })).rejects.toThrow('build failed');
        expect(await port.runs.lastSequence(runId)).toBe(-1);
        expect((await port.runs.appendEvent(runId, (seq) => eventFor(runId, seq))).sequence).toBe(0);
      });

      it('reads from a sequence, drops a log, and restarts at 0 after a drop', async () => {
        const runId = fresh('run');
        for (let i = 0; i < 4; i++) await port.runs.appendEvent(runId, (seq) => eventFor(runId, seq));
        expect((await port.runs.readEvents(runId, 2)).map((e) => e.sequence)).toEqual([2, 3]);
        expect(await port.runs.eventRunIds()).toContain(runId);
        expect(await port.runs.dropEvents(runId)).toBe(true);
        expect(await port.runs.readEvents(runId)).toEqual([]);
        expect(await port.runs.lastSequence(runId)).toBe(-1);
        expect((await port.runs.appendEvent(runId, (seq) => eventFor(runId, seq))).sequence).toBe(0);
      });

      it('sequences stay gap-free per run under interleaved concurrent appends to many runs (property)', async () => {
        await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 40 }), async (order) => {
          const runIds = [0, 1, 2, 3, 4].map(() => fresh('run'));
          const stored = await Promise.all(order.map((i) => port.runs.appendEvent(runIds[i]!, (seq) => eventFor(runIds[i]!, seq))));
          for (const [i, runId] of runIds.entries()) {
            const n = order.filter((k) => k === i).length;
            const events = await port.runs.readEvents(runId);
            expect(events.map((e) => e.sequence)).toEqual([...Array(n).keys()]);
            expect(await port.runs.lastSequence(runId)).toBe(n - 1);
          }
          expect(new Set(stored.map((e) => e.eventId)).size).toBe(stored.length);
        }), { numRuns });
      });
    });

    describe('commitments', () => {
      it('arms once, lists in arming order with predicate state, disarms', async () => {
        const t = fresh('t');
        const [c1, c2] = [fresh('c'), fresh('c')];
        expect(await port.commitments.arm({ tenant: t, commitmentId: c1, commitment: { commitmentId: c1, condition: { kind: 'time', at: 5 } } })).toBe(true);
        expect(await port.commitments.arm({ tenant: t, commitmentId: c1, commitment: { other: true } })).toBe(false);
        expect(await port.commitments.arm({ tenant: t, commitmentId: c2, commitment: { commitmentId: c2 } })).toBe(true);
        await port.commitments.setPredicateState(t, c2, { last: true, transitions: 3 });
        const armed = (await port.commitments.listArmed()).filter((r) => r.tenant === t);
        expect(armed.map((r) => r.commitmentId)).toEqual([c1, c2]);
        expect(armed[0]!.commitment).toEqual({ commitmentId: c1, condition: { kind: 'time', at: 5 } });
        expect(armed[0]!.predicate).toBeUndefined();
        expect(armed[1]!.predicate).toEqual({ last: true, transitions: 3 });
        expect(armed[0]!.armSeq).toBeLessThan(armed[1]!.armSeq);
        expect(await port.commitments.disarm(t, c1)).toBe(true);
        expect(await port.commitments.disarm(t, c1)).toBe(false);
      });

      it('claimFire with disarm removes the commitment from the armed set in the same call', async () => {
        const t = fresh('t');
        const c = fresh('c');
        await port.commitments.arm({ tenant: t, commitmentId: c, commitment: {} });
        expect(await port.commitments.claimFire({ tenant: t, commitmentId: c, instance: 'time:1', firedAt: 7, disarm: true })).toBe(true);
        expect((await port.commitments.listArmed()).some((r) => r.commitmentId === c)).toBe(false);
        expect(await port.commitments.hasFired(t, c, 'time:1')).toBe(true);
        expect(await port.commitments.hasFired(t, c, 'time:2')).toBe(false);
        expect((await port.commitments.listFired()).filter((r) => r.commitmentId === c)).toEqual([{ tenant: t, commitmentId: c, instance: 'time:1', firedAt: 7 }]);
      });

      it('claimFire stores the claimed commitment with the claim, byte-identical; a losing claim changes nothing', async () => {
        const t = fresh('t');
        const c = fresh('c');
        const commitment = { commitmentId: c, memoryRef: `mem://${t}/x`, condition: { kind: 'time', at: 1 }, note: 'ünïcödé ✓' };
        expect(await port.commitments.claimFire({ tenant: t, commitmentId: c, instance: 'time:1', firedAt: 7, commitment })).toBe(true);
        expect(await port.commitments.claimFire({ tenant: t, commitmentId: c, instance: 'time:1', firedAt: 8, commitment: { other: true } })).toBe(false);
        const [row, ...more] = (await port.commitments.listFired()).filter((r) => r.commitmentId === c);
        expect(more).toEqual([]);
        expect(JSON.stringify(row)).toBe(JSON.stringify({ tenant: t, commitmentId: c, instance: 'time:1', firedAt: 7, commitment }));
      });

      it('exactly one of N concurrent claims of one instance wins, and none later (property)', async () => {
        await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 16 }), async (n) => {
          const t = fresh('t');
          const c = fresh('c');
          const results = await Promise.all(Array.from({ length: n }, (_, i) => port.commitments.claimFire({ tenant: t, commitmentId: c, instance: 'predicate:1', firedAt: i })));
          expect(results.filter(Boolean)).toHaveLength(1);
          expect(await port.commitments.claimFire({ tenant: t, commitmentId: c, instance: 'predicate:1', firedAt: 99 })).toBe(false);
          expect(await port.commitments.claimFire({ tenant: t, commitmentId: c, instance: 'predicate:2', firedAt: 99 })).toBe(true);
        }), { numRuns });
      });
    });

    describe('distillation schedules', () => {
      it('stores, lists with the latest claimed slot, records outcomes, removes with the ledger', async () => {
        const s = fresh('dsch');
        await port.schedules.put({ scheduleId: s, tenant: 'acme', schedule: { scheduleId: s, nextAt: 10 } });
        await port.schedules.put({ scheduleId: s, tenant: 'acme', schedule: { scheduleId: s, nextAt: 20 } });
        expect(await port.schedules.claimRun(s, 10)).toBe(true);
        expect(await port.schedules.claimRun(s, 20)).toBe(true);
        await port.schedules.recordOutcome(s, 20, { kind: 'distilled' });
        const row = (await port.schedules.list()).find((r) => r.scheduleId === s);
        expect(row).toEqual({ scheduleId: s, tenant: 'acme', schedule: { scheduleId: s, nextAt: 20 }, lastSlot: 20 });
        expect(await port.schedules.runs(s)).toEqual([{ scheduleId: s, slot: 10 }, { scheduleId: s, slot: 20, outcome: { kind: 'distilled' } }]);
        expect(await port.schedules.remove(s)).toBe(true);
        expect(await port.schedules.runs(s)).toEqual([]);
      });

      it('exactly one of N concurrent claims of one slot wins (property)', async () => {
        await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 0, max: 2 ** 40 }), async (n, slot) => {
          const s = fresh('dsch');
          const results = await Promise.all(Array.from({ length: n }, () => port.schedules.claimRun(s, slot)));
          expect(results.filter(Boolean)).toHaveLength(1);
          expect(await port.schedules.claimRun(s, slot)).toBe(false);
        }), { numRuns });
      });
    });

    describe('consolidation, replay journal, questions, document logs', () => {
      it('keeps the last consolidation pass per memoryRef, tenant-checked', async () => {
        const t = fresh('t');
        const ref = `mem://${t}/x`;
        await port.consolidation.recordPass({ tenant: t, memoryRef: ref, pass: { n: 1 } });
        await port.consolidation.recordPass({ tenant: t, memoryRef: ref, pass: { n: 2 } });
        await port.consolidation.recordPass({ tenant: 'intruder', memoryRef: ref, pass: { n: 3 } });
        expect(await port.consolidation.lastPass(t, ref)).toEqual({ n: 2 });
        expect(await port.consolidation.lastPass('intruder', ref)).toBeUndefined();
      });

      it('appends, prunes and lists the journal; stores and drops watermarks', async () => {
        const runId = fresh('run');
        const base = 1_000_000 + unique * 100;
        for (let j = 1; j <= 3; j++) await port.replay.appendJournal({ jseq: base + j, memoryRef: 'mem://t/x', record: { j } });
        await port.replay.putWatermark({ runId, seq: 0, jseq: base + 1, at: 5 });
        await port.replay.putWatermark({ runId, seq: 1, jseq: base + 3, at: 6 });
        expect(await port.replay.pruneJournal(base + 1)).toBeGreaterThanOrEqual(1);
        expect((await port.replay.journal()).filter((r) => r.jseq > base).map((r) => r.record)).toEqual([{ j: 2 }, { j: 3 }]);
        expect((await port.replay.watermarks()).filter((w) => w.runId === runId)).toEqual([{ runId, seq: 0, jseq: base + 1, at: 5 }, { runId, seq: 1, jseq: base + 3, at: 6 }]);
        expect(await port.replay.dropWatermarks(runId)).toBe(2);
      });

      it('records question transitions with their appended state history, per tenant', async () => {
        const t = fresh('t');
        await port.questions.transition(t, 'q1', { state: 'pending' }, { state: 'pending' });
        await port.questions.transition(t, 'q1', { state: 'answered' }, { state: 'answered' });
        expect(await port.questions.get(t, 'q1')).toEqual({ tenant: t, ref: 'q1', record: { state: 'answered' }, history: [{ state: 'pending' }, { state: 'answered' }] });
        expect(await port.questions.get('other', 'q1')).toBeUndefined();
        expect(await port.questions.remove(t, 'q1')).toBe(true);
        expect(await port.questions.get(t, 'q1')).toBeUndefined();
      });

      it('lists every question in first-transition order, each with exactly its own history, oldest first', async () => {
        const a = fresh('t');
        const b = fresh('t');
        const c = `${a}/x`; // tenant `a/x` with ref `y` next to tenant `a` with ref `x/y`: keys that must not be joined naively
        const steps: [string, string, number][] = [[a, 'z', 0], [b, 'a', 0], [a, 'a', 0], [a, 'z', 1], [a, 'x/y', 0], [c, 'y', 0], [a, 'gone', 0], [b, 'a', 1], [a, 'z', 2]];
        for (const [tenant, ref, n] of steps) await port.questions.transition(tenant, ref, { v: n }, { state: `${tenant}|${ref}|${n}` });
        expect(await port.questions.remove(a, 'gone')).toBe(true);
        await port.questions.transition(a, 'm', { v: 0 }, { state: 'm0' });
        const mine = (await port.questions.all()).filter((q) => [a, b, c].includes(q.tenant));
        const history = (tenant: string, ref: string, n: number) => Array.from({ length: n }, (_, i) => ({ state: `${tenant}|${ref}|${i}` }));
        expect(mine).toEqual([
          { tenant: a, ref: 'z', record: { v: 2 }, history: history(a, 'z', 3) },
          { tenant: b, ref: 'a', record: { v: 1 }, history: history(b, 'a', 2) },
          { tenant: a, ref: 'a', record: { v: 0 }, history: history(a, 'a', 1) },
          { tenant: a, ref: 'x/y', record: { v: 0 }, history: history(a, 'x/y', 1) },
          { tenant: c, ref: 'y', record: { v: 0 }, history: history(c, 'y', 1) },
          { tenant: a, ref: 'm', record: { v: 0 }, history: [{ state: 'm0' }] },
        ]);
        for (const q of mine) expect(await port.questions.get(q.tenant, q.ref)).toEqual(q);
      });

      it('appends transcript and trace documents in order, in separate logs', async () => {
        const mark = fresh('m');
        const p0 = await port.transcripts.append({ mark, i: 0 });
        const p1 = await port.transcripts.append({ mark, i: 1 });
        expect(p1).toBe(p0 + 1);
        await port.traces.append({ mark, trace: true });
        expect((await port.transcripts.all()).filter((d) => d.mark === mark)).toEqual([{ mark, i: 0 }, { mark, i: 1 }]);
        expect((await port.traces.all()).filter((d) => d.mark === mark)).toEqual([{ mark, trace: true }]);
      });
    });

    describe('proposals and installed artefacts', () => {
      it('replaces proposals and gates by id keeping their first-stored order, and appends installs in order', async () => {
        const t = fresh('t');
        const [p1, p2, a1] = [fresh('prp'), fresh('prp'), fresh('apr')];
        await port.proposals.put({ proposalId: p1, tenant: t, proposal: { id: p1, state: 'draft', text: 'ünïcödé ✓' } });
        await port.proposals.put({ proposalId: p2, tenant: t, proposal: { id: p2, state: 'draft' } });
        await port.proposals.put({ proposalId: p1, tenant: t, proposal: { id: p1, state: 'applied', revision: 2 } });
        expect((await port.proposals.all()).filter((r) => r.tenant === t)).toEqual([
          { proposalId: p1, tenant: t, proposal: { id: p1, state: 'applied', revision: 2 } },
          { proposalId: p2, tenant: t, proposal: { id: p2, state: 'draft' } },
        ]);
        await port.proposals.putGate({ approvalId: a1, proposalId: p1, gate: { state: 'pending' } });
        await port.proposals.putGate({ approvalId: a1, proposalId: p1, gate: { state: 'granted' } });
        expect((await port.proposals.gates()).filter((g) => g.approvalId === a1)).toEqual([{ approvalId: a1, proposalId: p1, gate: { state: 'granted' } }]);
        await port.proposals.install({ tenant: t, proposalId: p1, artifact: { ref: 'a', n: 1 } });
        await port.proposals.install({ tenant: t, proposalId: p2, artifact: { ref: 'b', n: 2 } });
        expect((await port.proposals.installed()).filter((r) => r.tenant === t).map((r) => r.artifact)).toEqual([{ ref: 'a', n: 1 }, { ref: 'b', n: 2 }]);
      });
    });

    it('batch (when offered): a resolved batch commits every call, a rejected one none', async () => {
      if (port.batch === undefined) return;
      const t = fresh('t');
      const ref = `mem://${t}/b`;
      await port.batch(async () => {
        await port.memory.upsert(t, ref, entry('kept'));
        await port.runs.appendEvent(t, (seq) => eventFor(t, seq));
      });
      await expect(port.batch(async () => {
        await port.memory.upsert(t, ref, entry('dropped'));
        await port.runs.appendEvent(t, (seq) => eventFor(t, seq));
        throw new Error('abort');
      })).rejects.toThrow('abort');
      expect((await port.memory.list(t, ref)).map((e) => e.id)).toEqual(['kept']);
      expect(await port.runs.lastSequence(t)).toBe(0);
    });

    if (options.reopenable !== undefined) {
      const reopenable = options.reopenable;
      it('a store closed and opened again returns every record byte-identical (property)', async () => {
        await fc.assert(fc.asyncProperty(
          fc.array(fc.record({ id: fc.string({ minLength: 1, maxLength: 8 }), content: fc.string({ unit: 'grapheme' }), tags: fc.array(fc.string(), { maxLength: 3 }) }), { maxLength: 8 }),
          fc.array(fc.jsonValue(), { maxLength: 5 }),
          async (entries, payloads) => {
            const openAgain = await reopenable();
            const first = await openAgain();
            const t = fresh('t');
            for (const e of entries) await first.memory.upsert(t, `mem://${t}/x`, { ...e, createdAt: '2026-01-01T00:00:00.000Z' });
            const runId = fresh('run');
            for (const p of payloads) await first.runs.appendEvent(runId, (seq) => eventFor(runId, seq, { p: p as never }));
            await first.commitments.arm({ tenant: t, commitmentId: 'c', commitment: { payloads: payloads as never } });
            await first.commitments.claimFire({ tenant: t, commitmentId: 'c', instance: 'time:1', firedAt: 1, commitment: { payloads: payloads as never } });
            await first.schedules.put({ scheduleId: runId, tenant: t, schedule: { every: 'PT1H' } });
            await first.schedules.claimRun(runId, 3);
            await first.questions.transition(t, 'q', { p: payloads as never }, { s: 'pending' });
            await first.transcripts.append({ payloads: payloads as never });
            await first.proposals.put({ proposalId: runId, tenant: t, proposal: { payloads: payloads as never } });
            await first.proposals.putGate({ approvalId: runId, proposalId: runId, gate: { payloads: payloads as never } });
            await first.proposals.install({ tenant: t, proposalId: runId, artifact: { payloads: payloads as never } });
            const before = JSON.stringify(await dumpPort(first));
            await first.close();
            await expect(first.memory.all()).rejects.toThrow();
            const second = await openAgain();
            try {
              expect(JSON.stringify(await dumpPort(second))).toBe(before);
            } finally {
              await second.close();
            }
          },
        ), { numRuns: Math.min(numRuns, 15) });
      });
    }
  });
}
