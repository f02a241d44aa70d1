/**
 * Every event the RFC 0068 / RFC 0039 parts emit validates as a run event (envelope, then the payload validator its
 * type dispatches to), through the generated validators of schemas/openwop/v1 — the same ones hosts use — as the
 * store holds it.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validateRunEvent } from '../../../generated/run-events/index.ts';
import { validateMemoryConsolidationCapability, validateCommitmentsCapability, validateExecutionModelCapability } from '../../../generated/validators/validators.js';
import { DEFAULT_MEMORY_BOUNDS } from '../../../runtime/memory/writer.ts';
import { ESCALATION_EVENT_TYPES } from '../../../runtime/multi-agent/escalation.ts';
import { ownedCapabilityFragment } from '../../../runtime/openwop/capabilities.ts';
import { toIso } from '../../../runtime/shared/clock.ts';
import { commitDetached, detachedTx } from '../../../runtime/storage/unit-of-work.ts';
import { allEvents, request, withRuntime } from '../support.ts';
import { unitOfWork } from '../../../runtime/storage/index.ts';

let seq = 0;
/** Wrap a payload in an envelope and validate it as a run event of a known type; throw with the pointers otherwise. */
const validate = (type: string, payload: unknown) => {
  const r = validateRunEvent({ eventId: `ev-${++seq}`, runId: 'run-1', type, payload, timestamp: '2026-11-22T00:00:00.000Z', sequence: seq });
  if (!r.known) throw new Error(`${type} is not a known run-event type`);
  if (!r.valid) throw new Error(`${type} invalid: ${r.failures.map((f) => `${f.instancePath} ${f.message}`).join('; ')}`);
};

describe('emitted events validate against the generated run-event validators', () => {
  it('the validators reject the RFC negative example (commitment.fired without memoryRef)', () => {
    expect(() => validate('commitment.fired', { commitmentId: 'c', condition: 'time' })).toThrow();
  });

  it('capability fragment validates; a floor below 0.5 cannot be advertised', () => {
    const f = ownedCapabilityFragment({ floor: 0.7, crossChildMemoryConcurrency: 'advisory' });
    expect(validateMemoryConsolidationCapability(f.agents.memoryConsolidation)).toBe(true);
    expect(validateCommitmentsCapability(f.agents.commitments)).toBe(true);
    expect(validateExecutionModelCapability(f.multiAgent.executionModel)).toBe(true);
    expect(validateExecutionModelCapability({ ...f.multiAgent.executionModel, confidenceEscalationFloor: 0.4 })).toBe(false);
    expect(() => ownedCapabilityFragment({ floor: 0.4 })).toThrow();
  });

  it('property: consolidation, commitment and escalation events, as stored, all validate as known run events', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 15 }),
        fc.constantFrom('host-managed', 'scheduled', 'on-demand') as fc.Arbitrary<'host-managed' | 'scheduled' | 'on-demand'>,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        async (texts, trigger, confidence, enqueue) => {
          await withRuntime({}, async ({ rt, port, clock }) => {
            await request(port, (plan) => texts.forEach((t, i) => plan.add('memory.put', { tenant: 'acme', memoryRef: 'mem://acme/a', entry: { id: `m${i}`, content: t, tags: [], createdAt: toIso(clock.now() + i) }, atMs: clock.now(), bounds: DEFAULT_MEMORY_BOUNDS })));
            for (let i = 0; i < 2; i++) await request(port, (plan) => rt.consolidation.consolidate(plan, 'mem://acme/a', { trigger }));
            await request(port, (plan) => rt.commitments.inferFrom(plan, 'mem://acme/a', { id: 'm1', tags: ['intent:remind', 'at:2025-01-01T00:00:00Z', 'when:p', ...(enqueue ? ['action:run'] : [])] }));
            await unitOfWork(rt.port, (tx) => rt.commitments.setPredicate(tx, 'acme', 'p', true));
            expect((await rt.commitments.tick()).length).toBe(2);
            const run = await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: 'mem://acme/a' }));
            const plan = detachedTx(port);
            await rt.orchestratorStep(plan, run.runId, { kind: 'next-worker', worker: 'refund-agent', confidence }, async () => ({ outcome: 'approved' }));
            await commitDetached(plan, port);
            const events = await allEvents(port);
            const types = new Set(events.map((e) => e.type));
            for (const t of ['agent.memory.consolidated', 'commitment.fired', ESCALATION_EVENT_TYPES.decided, ESCALATION_EVENT_TYPES.dispatched]) expect(types).toContain(t);
            if (confidence < 0.5) expect(types).toContain(ESCALATION_EVENT_TYPES.escalated);
            for (const e of events) {
              const r = validateRunEvent(e);
              expect(r.known, e.type).toBe(true);
              expect(r.valid, `${e.type}: ${JSON.stringify(r.failures)}`).toBe(true);
            }
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});
