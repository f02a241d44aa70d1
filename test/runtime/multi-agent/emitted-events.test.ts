/**
 * Every event the RFC 0068 / RFC 0039 parts emit validates as a run event (envelope, then the payload validator its
 * type dispatches to), through the generated validators of schemas/openwop/v1 — the same ones hosts use.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validateRunEvent } from '../../../generated/run-events/index.ts';
import { validateMemoryConsolidationCapability, validateCommitmentsCapability, validateExecutionModelCapability } from '../../../generated/validators/validators.js';
import { ManualClock, toIso } from '../../../runtime/shared/clock.ts';
import { InMemoryStorePort } from '../../../runtime/memory/memory-port.ts';
import { ConsolidationService } from '../../../runtime/consolidation/service.ts';
import { CommitmentEngine } from '../../../runtime/commitments/engine.ts';
import { SPEC_STEP_PAYLOADS, makeEscalationPolicy, orchestratorStep } from '../../../runtime/multi-agent/escalation.ts';
import { ownedCapabilityFragment } from '../../../runtime/openwop/capabilities.ts';

let seq = 0;
/** Wrap a payload in an envelope and validate it as a run event of a known type; throw with the pointers otherwise. */
const validate = (type: string, payload: unknown) => {
  const r = validateRunEvent({ eventId: `ev-${++seq}`, runId: 'run-1', type, payload, timestamp: '2026-11-22T00:00:00.000Z', sequence: seq });
  if (!r.known) throw new Error(`${type} is not a known run-event type`);
  if (!r.valid) throw new Error(`${type} invalid: ${r.failures.map((f) => `${f.instancePath} ${f.message}`).join('; ')}`);
};
const tenantOf = (ref: string) => /^mem:\/\/([a-z0-9-]+)\/[a-z0-9-]+$/.exec(ref)?.[1];

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

  it('property: consolidation, commitment and escalation events all validate', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 15 }),
        fc.constantFrom('host-managed', 'scheduled', 'on-demand') as fc.Arbitrary<'host-managed' | 'scheduled' | 'on-demand'>,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        async (texts, trigger, confidence, enqueue) => {
          const clock = new ManualClock();
          const store = new InMemoryStorePort();
          texts.forEach((t, i) => void store.upsert('mem://acme/a', { id: `m${i}`, content: t, tags: [], createdAt: toIso(clock.now() + i) }));
          const svc = new ConsolidationService({ clock, store, tenantOf, redact: (s) => s, emit: validate });
          await svc.consolidate('mem://acme/a', { trigger });
          await svc.consolidate('mem://acme/a', { trigger });
          const engine = new CommitmentEngine({
            clock,
            tenantOf,
            emit: validate,
            predicates: { evaluate: () => true },
            enqueueRun: (r) => ({ runId: 'run_1', tenantId: r.tenantId }),
          });
          engine.inferFrom('mem://acme/a', { id: 'm1', tags: ['intent:remind', 'at:2025-01-01T00:00:00Z', 'when:p', ...(enqueue ? ['action:run'] : [])] });
          expect((await engine.tick()).length).toBe(2);
          await orchestratorStep({ kind: 'next-worker', worker: 'refund-agent', confidence }, makeEscalationPolicy(), {
            record: validate,
            interrupt: async () => ({ outcome: 'approved' }),
            execute: () => undefined,
            payloads: SPEC_STEP_PAYLOADS,
            newInterruptId: () => 'i1',
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});
