import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ManualClock } from '../../../runtime/shared/clock.ts';
import {
  CommitmentEngine,
  CommitmentError,
  InMemoryFiredLedger,
  type FiredCommitmentPayload as CommitmentFiredPayload,
} from '../../../runtime/commitments/engine.ts';
import { commitmentIdFor, tagRuleInference } from '../../../runtime/commitments/inference.ts';

const INTENT = 'CANARY-INTENT remind me to call Alice about the SOC2 report';
const tenantOf = (ref: string) => /^mem:\/\/([a-z0-9-]+)\/[a-z0-9-]+$/.exec(ref)?.[1];

function setup(extra: Partial<ConstructorParameters<typeof CommitmentEngine>[0]> = {}) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const emitted: { payload: CommitmentFiredPayload; ctx: { tenantId: string; runId?: string } }[] = [];
  const flags = new Map<string, boolean>();
  const ledger = new InMemoryFiredLedger();
  const engine = new CommitmentEngine({
    clock,
    tenantOf,
    ledger,
    emit: (_t, payload, ctx) => void emitted.push({ payload, ctx }),
    predicates: { evaluate: (id) => flags.get(id) === true },
    ...extra,
  });
  return { clock, emitted, flags, engine, ledger };
}

describe('commitment inference (tag rule)', () => {
  it('infers time and predicate commitments from intent:remind entries, never reading content', () => {
    const got = tagRuleInference.infer('mem://acme/agent-1', {
      id: 'mem-88',
      content: INTENT,
      tags: ['intent:remind', 'at:2026-01-02T09:00:00Z', 'when:soc2-filed', 'action:run'],
    });
    expect(got.map((c) => c.condition)).toEqual([
      { kind: 'time', at: Date.UTC(2026, 0, 2, 9) },
      { kind: 'predicate', predicateId: 'soc2-filed' },
    ]);
    expect(got.every((c) => c.enqueueRun)).toBe(true);
    expect(JSON.stringify(got)).not.toContain('CANARY');
    expect(tagRuleInference.infer('mem://acme/a', { id: 'x', tags: ['at:2026-01-02T09:00:00Z'] })).toEqual([]);
    expect(tagRuleInference.infer('mem://acme/a', { id: 'x', tags: ['intent:remind', 'at:tomorrow'] })).toEqual([]);
  });

  it('commitment ids are stable and distinct per provenance + condition', () => {
    const c = { kind: 'time', at: 5 } as const;
    expect(commitmentIdFor('mem://a/b', 'm1', c)).toBe(commitmentIdFor('mem://a/b', 'm1', c));
    expect(commitmentIdFor('mem://a/b', 'm1', c)).not.toBe(commitmentIdFor('mem://a/b', 'm2', c));
  });
});

describe('CommitmentEngine (RFC 0068 §C)', () => {
  it('fires a time commitment once at its instant, content-free, with tenant-bound enqueued run', async () => {
    const runs: { tenantId: string }[] = [];
    const { clock, emitted, engine } = setup({
      enqueueRun: (req) => {
        runs.push(req);
        return { runId: `run_${req.tenantId}_1`, tenantId: req.tenantId };
      },
    });
    engine.inferFrom('mem://acme/agent-1', { id: 'mem-1', content: INTENT, tags: ['intent:remind', 'at:2026-01-01T01:00:00Z', 'action:run'] });
    expect(await engine.tick()).toEqual([]);
    clock.advance(3_600_000);
    const fired = await engine.tick();
    expect(fired).toHaveLength(1);
    expect(await engine.tick()).toEqual([]);
    clock.advance(10_000_000);
    expect(await engine.tick()).toEqual([]);
    expect(emitted).toHaveLength(1);
    const { payload, ctx } = emitted[0]!;
    expect(payload).toMatchObject({ memoryRef: 'mem://acme/agent-1', memoryId: 'mem-1', condition: 'time', enqueuedRunId: 'run_acme_1' });
    expect(ctx).toEqual({ tenantId: 'acme', runId: 'run_acme_1' });
    expect(runs).toEqual([{ tenantId: 'acme', commitmentId: payload.commitmentId, memoryRef: 'mem://acme/agent-1', memoryId: 'mem-1' }]);
    expect(JSON.stringify(emitted)).not.toContain('CANARY');
  });

  it('fires a predicate commitment once per false→true transition', async () => {
    const { flags, emitted, engine } = setup();
    engine.inferFrom('mem://acme/agent-2', { id: 'mem-88', tags: ['intent:remind', 'when:soc2-filed'] });
    await engine.tick();
    flags.set('soc2-filed', true);
    await engine.tick();
    await engine.tick();
    expect(emitted).toHaveLength(1);
    flags.set('soc2-filed', false);
    await engine.tick();
    flags.set('soc2-filed', true);
    await engine.tick();
    expect(emitted.map((e) => e.payload.conditionInstance)).toEqual(['predicate:1', 'predicate:2']);
    expect(emitted.every((e) => e.payload.condition === 'predicate')).toBe(true);
  });

  it('cancel disarms (lazy heap deletion)', async () => {
    const { clock, emitted, engine } = setup();
    const [c] = engine.inferFrom('mem://acme/a', { id: 'm', tags: ['intent:remind', 'at:2026-01-01T00:00:01Z'] });
    expect(engine.cancel(c!.commitmentId)).toBe(true);
    clock.advance(5000);
    await engine.tick();
    expect(emitted).toEqual([]);
  });

  it('refuses a memoryRef without a tenant and an enqueued run in another tenant (CTI-1)', async () => {
    const { engine } = setup();
    expect(() => engine.inferFrom('../../etc', { id: 'm', tags: ['intent:remind', 'when:p'] })).toThrow(CommitmentError);
    const bad = setup({ enqueueRun: () => ({ runId: 'run_other', tenantId: 'other' }) });
    bad.engine.inferFrom('mem://acme/a', { id: 'm', tags: ['intent:remind', 'at:2026-01-01T00:00:00Z', 'action:run'] });
    await expect(bad.engine.tick()).rejects.toMatchObject({ code: 'commitment_cross_tenant_run' });
    expect(bad.emitted).toEqual([]);
  });

  it('replay never infers, arms or fires; it re-reads the log and teaches the ledger', async () => {
    const live = setup();
    live.engine.inferFrom('mem://acme/a', { id: 'm', tags: ['intent:remind', 'at:2026-01-01T00:00:00Z'] });
    await live.engine.tick();
    const log = live.emitted.map((e) => ({ type: 'commitment.fired', payload: e.payload }));
    const ledger = new InMemoryFiredLedger();
    const replay = setup({ mode: 'replay', ledger });
    expect(replay.engine.inferFrom('mem://acme/a', { id: 'm', tags: ['intent:remind', 'at:2026-01-01T00:00:00Z'] })).toEqual([]);
    expect(await replay.engine.tick()).toEqual([]);
    expect(replay.engine.replayFromLog(log)).toEqual(log.map((l) => l.payload));
    expect(replay.emitted).toEqual([]);
    // A live engine sharing the rebuilt ledger does not fire the recorded instance again.
    const after = setup({ ledger });
    expect(after.engine.inferFrom('mem://acme/a', { id: 'm', tags: ['intent:remind', 'at:2026-01-01T00:00:00Z'] })).toEqual([]);
    await after.engine.tick();
    expect(after.emitted).toEqual([]);
  });

  it('property: any sequence of clock advances, duplicate triggers, predicate flips, re-inference and replays fires each condition instance at most once', async () => {
    const op = fc.oneof(
      fc.record({ k: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 4_000 }) }),
      fc.record({ k: fc.constant('tick' as const), times: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ k: fc.constant('flip' as const), p: fc.constantFrom('p1', 'p2'), v: fc.boolean() }),
      fc.record({ k: fc.constant('infer' as const), n: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ k: fc.constant('replay' as const) }),
      fc.record({ k: fc.constant('restart' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
        const clock = new ManualClock(Date.UTC(2026, 0, 1));
        const ledger = new InMemoryFiredLedger();
        const flags = new Map<string, boolean>();
        const log: { type: string; payload: CommitmentFiredPayload }[] = [];
        const transitions = new Map<string, number>();
        const make = (mode: 'live' | 'replay') =>
          new CommitmentEngine({
            clock,
            tenantOf,
            ledger,
            mode,
            emit: (type, payload) => void log.push({ type, payload }),
            predicates: { evaluate: (id) => flags.get(id) === true },
          });
        let engine = make('live');
        const entry = (n: number) => ({
          id: `m${n}`,
          content: INTENT,
          tags: ['intent:remind', `at:${new Date(Date.UTC(2026, 0, 1) + n * 1500).toISOString()}`, `when:p${(n % 2) + 1}`],
        });
        for (const o of ops) {
          if (o.k === 'advance') clock.advance(o.ms);
          else if (o.k === 'tick') for (let i = 0; i < o.times; i++) await engine.tick();
          else if (o.k === 'flip') {
            if (flags.get(o.p) !== true && o.v) transitions.set(o.p, (transitions.get(o.p) ?? 0) + 1);
            flags.set(o.p, o.v);
          } else if (o.k === 'infer') engine.inferFrom('mem://acme/agent', entry(o.n));
          else if (o.k === 'replay') {
            const r = make('replay');
            const before = log.length;
            r.replayFromLog([...log]);
            r.inferFrom('mem://acme/agent', entry(0));
            await r.tick();
            expect(log.length).toBe(before);
          } else engine = make('live'); // restart: armed set lost, ledger kept
        }
        const keys = log.map((l) => `${l.payload.commitmentId}#${l.payload.conditionInstance}`);
        expect(new Set(keys).size).toBe(keys.length);
        // Predicate fires per commitment never exceed the number of false→true flips of its own predicate.
        const perCommitment = new Map<string, { n: number; p: string }>();
        for (const l of log) {
          if (l.payload.condition !== 'predicate') continue;
          const p = `p${(Number(l.payload.memoryId!.slice(1)) % 2) + 1}`;
          const cur = perCommitment.get(l.payload.commitmentId) ?? { n: 0, p };
          perCommitment.set(l.payload.commitmentId, { n: cur.n + 1, p });
        }
        for (const [, { n, p }] of perCommitment) expect(n).toBeLessThanOrEqual(transitions.get(p) ?? 0);
        expect(JSON.stringify(log)).not.toContain('CANARY');
      }),
      { numRuns: 300 },
    );
  });
});

describe('predicate edge state reaches a durable store', () => {
  it('every change of a predicate commitment’s edge state is handed to persistence, so a restart numbers the next rising edge after the last', async () => {
    const states: { id: string; last: boolean; transitions: number }[] = [];
    const { engine, flags } = setup({
      persistence: {
        armed: () => undefined,
        disarmed: () => undefined,
        claimFire: async () => true,
        predicateChanged: (c, s) => void states.push({ id: c.commitmentId, last: s.last, transitions: s.transitions }),
      },
    });
    const [c] = engine.inferFrom('mem://acme/agent-2', { id: 'mem-88', tags: ['intent:remind', 'when:soc2-filed'] });
    flags.set('soc2-filed', true);
    await engine.tick();
    flags.set('soc2-filed', false);
    await engine.tick();
    flags.set('soc2-filed', true);
    await engine.tick();
    expect(states).toEqual([
      { id: c!.commitmentId, last: true, transitions: 1 },
      { id: c!.commitmentId, last: false, transitions: 1 },
      { id: c!.commitmentId, last: true, transitions: 2 },
    ]);
  });
});
