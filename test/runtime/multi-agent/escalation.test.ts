import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ESCALATION_EVENT_TYPES as T,
  EscalationConfigError,
  InvalidDecisionError,
  evaluateDecision,
  makeEscalationPolicy,
  orchestratorStep,
  resolveConfidenceFloor,
  type InterruptResolution,
  type OrchestratorDecisionLike,
} from '../../../runtime/multi-agent/escalation.ts';

function harness(resolution: InterruptResolution = { outcome: 'approved' }) {
  const log: { type: string; payload: Record<string, unknown> }[] = [];
  const executed: OrchestratorDecisionLike[] = [];
  const interrupts: string[] = [];
  let n = 0;
  const ports = {
    record: (type: string, payload: Record<string, unknown>) => void log.push({ type, payload }),
    interrupt: async (req: { interruptId: string; kind: 'clarify' | 'escalate' }) => {
      interrupts.push(req.kind);
      // The escalation event must already be in the log when the interrupt is raised.
      expect(log.map((l) => l.type)).toContain(T.escalated);
      return resolution;
    },
    execute: (d: OrchestratorDecisionLike) => {
      // Nothing below the floor executes unless the escalation was recorded first.
      executed.push(d);
    },
    payloads: {
      decided: (d: OrchestratorDecisionLike) => ({ decision: d }),
      interruptRequested: (id: string, kind: string) => ({ interruptId: id, kind }),
      interruptResolved: (id: string, r: InterruptResolution) => ({ interruptId: id, outcome: r.outcome }),
      dispatched: (d: OrchestratorDecisionLike) => ({ kind: d.kind }),
    },
    newInterruptId: () => `int_${++n}`,
  };
  return { log, executed, interrupts, ports };
}

describe('confidence escalation (RFC 0039 §A)', () => {
  it('floor: absent → 0.5; stricter floors accepted; below 0.5, above 1 or NaN refused', () => {
    expect(resolveConfidenceFloor()).toBe(0.5);
    expect(resolveConfidenceFloor(0.7)).toBe(0.7);
    expect(resolveConfidenceFloor(0.5)).toBe(0.5);
    for (const bad of [0.49, 0, -1, 1.01, Number.NaN]) expect(() => resolveConfidenceFloor(bad)).toThrow(EscalationConfigError);
  });

  it('below-floor next-worker: decision → escalated → interrupt requested → resolved → dispatch, in that order', async () => {
    const h = harness();
    const d = { kind: 'next-worker', confidence: 0.3, workerId: 'w2' };
    const r = await orchestratorStep(d, makeEscalationPolicy(), h.ports);
    expect(r).toEqual({ escalated: true, executed: d });
    expect(h.log.map((l) => l.type)).toEqual([T.decided, T.escalated, T.interruptRequested, T.interruptResolved, T.dispatched]);
    expect(h.log[1]!.payload).toEqual({ confidence: 0.3, floor: 0.5, escalationKind: 'clarify', originalDecision: d });
    expect(h.interrupts).toEqual(['clarify']);
  });

  it('uses an escalate (approval) interrupt when clarification is not offered; a rejection executes nothing', async () => {
    const h = harness({ outcome: 'rejected' });
    const r = await orchestratorStep({ kind: 'terminate', confidence: 0.1 }, makeEscalationPolicy({ clarifySupported: false }), h.ports);
    expect(r.executed).toBeUndefined();
    expect(h.interrupts).toEqual(['escalate']);
    expect(h.executed).toEqual([]);
    expect(h.log.map((l) => l.type)).not.toContain(T.dispatched);
  });

  it('an amended decision is what executes', async () => {
    const amended = { kind: 'next-worker', confidence: 1, workerId: 'w9' };
    const h = harness({ outcome: 'amended', decision: amended });
    await orchestratorStep({ kind: 'next-worker', confidence: 0.2, workerId: 'w1' }, makeEscalationPolicy(), h.ports);
    expect(h.executed).toEqual([amended]);
  });

  it('at or above the floor dispatches directly; a stricter advertised floor escalates 0.6', async () => {
    const h = harness();
    await orchestratorStep({ kind: 'next-worker', confidence: 0.5 }, makeEscalationPolicy(), h.ports);
    expect(h.log.map((l) => l.type)).toEqual([T.decided, T.dispatched]);
    expect(evaluateDecision({ kind: 'next-worker', confidence: 0.6 }, makeEscalationPolicy({ floor: 0.7 })).action).toBe('escalate');
  });

  it('missing confidence, or a kind other than next-worker/terminate, does not escalate; out-of-range confidence is refused', () => {
    const p = makeEscalationPolicy();
    expect(evaluateDecision({ kind: 'next-worker' }, p)).toEqual({ action: 'dispatch', reason: 'no-confidence' });
    expect(evaluateDecision({ kind: 'handoff', confidence: 0.1 }, p)).toEqual({ action: 'dispatch', reason: 'kind-not-gated' });
    expect(() => evaluateDecision({ kind: 'terminate', confidence: 1.5 }, p)).toThrow(InvalidDecisionError);
  });

  it('property: escalation always precedes any dispatch of a below-floor decision; nothing executes silently', async () => {
    const decision = fc.record({
      kind: fc.constantFrom('next-worker', 'terminate', 'handoff'),
      confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    });
    const outcome = fc.constantFrom<InterruptResolution>({ outcome: 'approved' }, { outcome: 'rejected' });
    await fc.assert(
      fc.asyncProperty(
        decision,
        fc.option(fc.double({ min: 0.5, max: 1, noNaN: true }), { nil: undefined }),
        outcome,
        fc.boolean(),
        async (d0, floor, res, clarify) => {
          const d: OrchestratorDecisionLike = d0.confidence === undefined ? { kind: d0.kind } : { kind: d0.kind, confidence: d0.confidence };
          const policy = makeEscalationPolicy({ ...(floor === undefined ? {} : { floor }), clarifySupported: clarify });
          const h = harness(res);
          await orchestratorStep(d, policy, h.ports);
          const types = h.log.map((l) => l.type);
          const below = (d.kind === 'next-worker' || d.kind === 'terminate') && d.confidence !== undefined && d.confidence < policy.floor;
          if (below) {
            const e = types.indexOf(T.escalated);
            const i = types.indexOf(T.interruptRequested);
            expect(e).toBe(1);
            expect(i).toBe(e + 1);
            const disp = types.indexOf(T.dispatched);
            if (disp >= 0) expect(disp).toBeGreaterThan(types.indexOf(T.interruptResolved));
            expect(h.executed.length).toBe(res.outcome === 'approved' ? 1 : 0);
          } else {
            expect(types).toEqual([T.decided, T.dispatched]);
            expect(h.executed).toEqual([d]);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
