/**
 * The store-backed commitment engine fires exactly what a naive engine fires — one that evaluates every armed
 * commitment's predicate at every tick, reading each predicate's value as it is then — over random arm / cancel /
 * predicate-flip / clock / tick sequences. The store evaluates only the predicates that changed (or got a commitment
 * armed) since their last evaluation; the reference shows that skipping the others loses nothing.
 *
 * The order both fire in: time commitments by due instant, then arming order; then predicate commitments grouped
 * by (tenant, predicate id), each predicate's commitments in arming order.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CommitmentEngine } from '../../../runtime/commitments/engine.ts';
import { tagRuleInference, type InferredCommitment } from '../../../runtime/commitments/inference.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';
import { openMemoryStore } from '../../../runtime/storage/memory/index.ts';
import type { StoragePort } from '../../../runtime/storage/port.ts';
import { request, withRuntime } from '../support.ts';
import { unitOfWork, unitsOf } from '../../../runtime/storage/index.ts';

const T0 = Date.UTC(2026, 0, 1);
const REFS = ['mem://acme/agent', 'mem://globex/agent'];
const tenantOf = (ref: string) => /^mem:\/\/([a-z]+)\//.exec(ref)?.[1];

/** The reference: what decides firing, with every armed predicate commitment looked at on every tick. */
class NaiveEngine {
  /** Every id ever armed: arming a known id again (armed, fired or cancelled) changes nothing. */
  readonly #known = new Set<string>();
  readonly #time = new Map<string, { c: InferredCommitment; at: number; seq: number }>();
  readonly #predicates = new Map<string, InferredCommitment & { tenantId: string; predicateId: string; seq: number }>();
  readonly #state = new Map<string, { last: boolean; transitions: number }>();
  #seq = 0;
  arm(c: InferredCommitment): void {
    if (this.#known.has(c.commitmentId)) return;
    this.#known.add(c.commitmentId);
    if (c.condition.kind === 'time') this.#time.set(c.commitmentId, { c, at: c.condition.at, seq: this.#seq++ });
    else this.#predicates.set(c.commitmentId, { ...c, tenantId: tenantOf(c.memoryRef)!, predicateId: c.condition.predicateId, seq: this.#seq++ });
  }
  cancel(id: string): void {
    this.#time.delete(id);
    this.#predicates.delete(id);
  }
  armedIds(): string[] {
    return [...this.#time.keys(), ...this.#predicates.keys()];
  }
  tick(now: number, value: (predicateId: string, tenant: string) => boolean): string[] {
    const out: string[] = [];
    for (const t of [...this.#time.values()].filter((t) => t.at <= now).sort((a, b) => a.at - b.at || a.seq - b.seq)) {
      this.#time.delete(t.c.commitmentId);
      out.push(`${t.c.commitmentId}#time:${t.at}`);
    }
    const byPredicate = [...this.#predicates.values()].sort((a, b) => (a.tenantId < b.tenantId ? -1 : a.tenantId > b.tenantId ? 1 : a.predicateId < b.predicateId ? -1 : a.predicateId > b.predicateId ? 1 : a.seq - b.seq));
    for (const c of byPredicate) {
      const v = value(c.predicateId, c.tenantId);
      const st = this.#state.get(c.commitmentId) ?? { last: false, transitions: 0 };
      if (v && !st.last) {
        this.#state.set(c.commitmentId, { last: true, transitions: st.transitions + 1 });
        out.push(`${c.commitmentId}#predicate:${st.transitions + 1}`);
      } else if (v !== st.last) this.#state.set(c.commitmentId, { last: v, transitions: st.transitions });
    }
    return out;
  }
}

const op = fc.oneof(
  fc.record({ k: fc.constant('infer' as const), n: fc.integer({ min: 0, max: 7 }), ref: fc.integer({ min: 0, max: 1 }) }),
  fc.record({ k: fc.constant('cancel' as const), i: fc.nat() }),
  fc.record({ k: fc.constant('flip' as const), p: fc.constantFrom('p0', 'p1', 'p2'), tenant: fc.constantFrom('acme', 'globex'), v: fc.boolean() }),
  fc.record({ k: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 5_000 }) }),
  fc.record({ k: fc.constant('tick' as const) }),
);

const armedCount = async (port: StoragePort) => Number((await port.reads.get("SELECT count(*) AS n FROM commitments WHERE state = 'armed'"))!.n);

describe('store-backed commitment engine = naive reference', () => {
  it('fires the same commitments, instances and order, and keeps the same armed set (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 80, size: 'medium' }), async (ops) => {
        await withRuntime({ clock: new ManualClock(T0) }, async ({ port, clock }) => {
          const flags = new Map<string, boolean>();
          const value = (p: string, t: string) => flags.get(`${t}/${p}`) === true;
          const emitted: string[] = [];
          const engine = new CommitmentEngine({ units: unitsOf(port), storeKind: port.kind, clock, tenantOf, emit: (plan, p) => plan.afterCommit(() => void emitted.push(`${p.commitmentId}#${p.conditionInstance}`)) });
          const naive = new NaiveEngine();
          const expected: string[] = [];
          for (const o of ops) {
            if (o.k === 'infer') {
              const entry = { id: `m${o.n}`, tags: ['intent:remind', `at:${new Date(T0 + o.n * 1_500).toISOString()}`, `when:p${o.n % 3}`] };
              await request(port, (plan) => engine.inferFrom(plan, REFS[o.ref]!, entry));
              for (const c of tagRuleInference.infer(REFS[o.ref]!, entry)) naive.arm(c);
            } else if (o.k === 'cancel') {
              const armed = naive.armedIds();
              if (armed.length === 0) continue;
              const id = armed[o.i % armed.length]!;
              naive.cancel(id);
              const tenant = String((await port.reads.get('SELECT tenant FROM commitments WHERE commitment_id = ?', [id]))!.tenant);
              expect(await request(port, (plan) => engine.cancel(plan, tenant, id))).toBe(true);
            } else if (o.k === 'flip') {
              flags.set(`${o.tenant}/${o.p}`, o.v);
              await unitOfWork(port, (tx) => engine.setPredicate(tx, o.tenant, o.p, o.v));
            } else if (o.k === 'advance') clock.advance(o.ms);
            else {
              const fired = (await engine.tick()).map((f) => `${f.commitmentId}#${f.instance}`);
              const want = naive.tick(clock.now(), value);
              expect(fired).toEqual(want);
              expected.push(...want);
            }
          }
          expect(emitted).toEqual(expected);
          expect(await armedCount(port)).toBe(naive.armedIds().length);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('fires in a fixed order whatever order the predicates changed in: by predicate (tenant, id), each predicate\'s commitments in arming order', async () => {
    const port = await openMemoryStore();
    const engine = new CommitmentEngine({ units: unitsOf(port), storeKind: port.kind, clock: new ManualClock(T0), tenantOf, emit: () => {} });
    const ids = await request(port, (plan) => ['p1', 'p0', 'p1'].map((p, n) => engine.inferFrom(plan, 'mem://acme/agent', { id: `m${n}`, tags: ['intent:remind', `when:${p}`] })[0]!.commitmentId));
    await engine.tick();
    for (const p of ['p1', 'p0']) await unitOfWork(port, (tx) => engine.setPredicate(tx, 'acme', p, true));
    expect((await engine.tick()).map((f) => f.commitmentId)).toEqual([ids[1], ids[0], ids[2]]);
  });

  it('a commitment is looked at when armed: a predicate already true fires it at the next tick, once', async () => {
    const port = await openMemoryStore();
    const engine = new CommitmentEngine({ units: unitsOf(port), storeKind: port.kind, clock: new ManualClock(T0), tenantOf, emit: () => {} });
    await unitOfWork(port, (tx) => engine.setPredicate(tx, 'acme', 'p', true));
    await engine.tick();
    const [c] = await request(port, (plan) => engine.inferFrom(plan, 'mem://acme/agent', { id: 'm', tags: ['intent:remind', 'when:p'] }));
    expect((await engine.tick()).map((f) => f.commitmentId)).toEqual([c!.commitmentId]);
    expect(await engine.tick()).toEqual([]);
  });
});
