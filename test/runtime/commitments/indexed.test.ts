/**
 * The indexed commitment engine (issue 12, item 4) fires exactly what a naive engine fires — one that evaluates
 * every armed commitment's predicate at every tick — over random arm / cancel / predicate-flip / clock / tick
 * sequences, with a predicate source that watches (dirty set) and with one that does not.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CommitmentEngine, type PredicateSource } from '../../../runtime/commitments/engine.ts';
import { tagRuleInference, type Commitment, type InferredCommitment } from '../../../runtime/commitments/inference.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';

const T0 = Date.UTC(2026, 0, 1);
const REFS = ['mem://acme/agent', 'mem://globex/agent'];
const tenantOf = (ref: string) => /^mem:\/\/([a-z]+)\//.exec(ref)?.[1];

/** The reference: the engine before indexing, reduced to what decides firing. */
class NaiveEngine {
  readonly #time = new Map<string, { c: InferredCommitment; at: number; seq: number }>();
  readonly #predicates = new Map<string, InferredCommitment & { tenantId: string }>();
  readonly #fired = new Set<string>();
  readonly #state = new Map<string, { last: boolean; transitions: number }>();
  #seq = 0;
  arm(c: InferredCommitment): void {
    if (c.condition.kind === 'time') {
      if (this.#time.has(c.commitmentId) || this.#fired.has(`${c.commitmentId}#time:${c.condition.at}`)) return;
      this.#time.set(c.commitmentId, { c, at: c.condition.at, seq: this.#seq++ });
    } else if (!this.#predicates.has(c.commitmentId)) this.#predicates.set(c.commitmentId, { ...c, tenantId: tenantOf(c.memoryRef)! });
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
    const fire = (id: string, instance: string) => {
      if (this.#fired.has(`${id}#${instance}`)) return;
      this.#fired.add(`${id}#${instance}`);
      out.push(`${id}#${instance}`);
    };
    for (const t of [...this.#time.values()].filter((t) => t.at <= now).sort((a, b) => a.at - b.at || a.seq - b.seq)) {
      this.#time.delete(t.c.commitmentId);
      fire(t.c.commitmentId, `time:${t.at}`);
    }
    for (const c of this.#predicates.values()) {
      if (c.condition.kind !== 'predicate') continue;
      const v = value(c.condition.predicateId, c.tenantId);
      const st = this.#state.get(c.commitmentId) ?? { last: false, transitions: 0 };
      if (v && !st.last) {
        this.#state.set(c.commitmentId, { last: true, transitions: st.transitions + 1 });
        fire(c.commitmentId, `predicate:${st.transitions + 1}`);
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

describe('indexed commitment engine = naive reference', () => {
  it.each([['a watching source (dirty set)', true], ['a plain source (each predicate once per tick)', false]])('fires the same commitments, instances and order with %s (property)', async (_, watching) => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 80 }), async (ops) => {
        const clock = new ManualClock(T0);
        const flags = new Map<string, boolean>();
        const watchers: ((p: string, t: string) => void)[] = [];
        const value = (p: string, t: string) => flags.get(`${t}/${p}`) === true;
        const source: PredicateSource = watching ? { evaluate: value, watch: (w) => void watchers.push(w) } : { evaluate: value };
        const indexed: string[] = [];
        const engine = new CommitmentEngine({ clock, tenantOf, predicates: source, emit: (_t, p) => void indexed.push(`${p.commitmentId}#${p.conditionInstance}`) });
        const naive = new NaiveEngine();
        const expected: string[] = [];
        for (const o of ops) {
          if (o.k === 'infer') {
            const entry = { id: `m${o.n}`, tags: ['intent:remind', `at:${new Date(T0 + o.n * 1_500).toISOString()}`, `when:p${o.n % 3}`] };
            engine.inferFrom(REFS[o.ref]!, entry);
            for (const c of tagRuleInference.infer(REFS[o.ref]!, entry)) naive.arm(c);
          } else if (o.k === 'cancel') {
            const armed = naive.armedIds();
            if (armed.length === 0) continue;
            const id = armed[o.i % armed.length]!;
            naive.cancel(id);
            engine.cancel(id);
          } else if (o.k === 'flip') {
            const before = flags.get(`${o.tenant}/${o.p}`) === true;
            flags.set(`${o.tenant}/${o.p}`, o.v);
            if (before !== o.v) for (const w of watchers) w(o.p, o.tenant);
          } else if (o.k === 'advance') clock.advance(o.ms);
          else {
            const fired = (await engine.tick()).map((f) => `${f.commitmentId}#${f.instance}`);
            const want = naive.tick(clock.now(), value);
            expect(fired).toEqual(want);
            expected.push(...want);
          }
        }
        expect(indexed).toEqual(expected);
        expect(engine.armedCount).toBe(naive.armedIds().length);
      }),
      { numRuns: 400 },
    );
  });

  it('fires in arming order across predicates, whatever order the predicates changed in', async () => {
    const flags = new Set<string>();
    const watchers: ((p: string, t: string) => void)[] = [];
    const engine = new CommitmentEngine({ clock: new ManualClock(T0), tenantOf, emit: () => {}, predicates: { evaluate: (p, t) => flags.has(`${t}/${p}`), watch: (w) => void watchers.push(w) } });
    const ids = ['p0', 'p1', 'p0'].map((p, n) => engine.inferFrom('mem://acme/agent', { id: `m${n}`, tags: ['intent:remind', `when:${p}`] })[0]!.commitmentId);
    await engine.tick();
    for (const p of ['p1', 'p0']) {
      flags.add(`acme/${p}`);
      for (const w of watchers) w(p, 'acme');
    }
    expect((await engine.tick()).map((f) => f.commitmentId)).toEqual(ids);
  });

  it('a commitment is looked at when armed: a predicate already true fires it at the next tick, once', async () => {
    const flags = new Set(['acme/p']);
    const engine = new CommitmentEngine({ clock: new ManualClock(T0), tenantOf, emit: () => {}, predicates: { evaluate: (p, t) => flags.has(`${t}/${p}`), watch: () => {} } });
    const [c] = engine.inferFrom('mem://acme/agent', { id: 'm', tags: ['intent:remind', 'when:p'] }) as Commitment[];
    expect((await engine.tick()).map((f) => f.commitmentId)).toEqual([c!.commitmentId]);
    expect(await engine.tick()).toEqual([]);
  });
});
