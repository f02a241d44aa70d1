/**
 * Every event these parts emit validates against the payload shapes of RFC 0068 §B/§C and RFC 0039 §D.
 * INTERIM: the corpus schemas (schemas/openwop/v1/run-event-payloads.schema.json) and generated validators have not
 * landed yet, so this test compiles the RFC's payload shapes directly with Ajv 2020 (strict). Swap to the
 * generated validators when `generated/ts` exists.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ManualClock, toIso } from '../../../runtime/shared/clock.ts';
import { InMemoryStorePort } from '../../../runtime/multi-agent/memory-port.ts';
import { ConsolidationService } from '../../../runtime/consolidation/service.ts';
import { CommitmentEngine } from '../../../runtime/commitments/engine.ts';
import { ESCALATION_EVENT_TYPES, makeEscalationPolicy, orchestratorStep } from '../../../runtime/multi-agent/escalation.ts';
import { ownedCapabilityFragment } from '../../../runtime/multi-agent/capabilities.ts';

const ajv = new Ajv2020({ strict: true, allErrors: true });
const validators = {
  'agent.memory.consolidated': ajv.compile({
    type: 'object',
    required: ['memoryRef', 'inputCount', 'outputCount'],
    properties: {
      memoryRef: { type: 'string', minLength: 1 },
      inputCount: { type: 'integer', minimum: 0 },
      outputCount: { type: 'integer', minimum: 0 },
      mergedIds: { type: 'array', items: { type: 'string', minLength: 1 } },
      trigger: { type: 'string', enum: ['host-managed', 'scheduled', 'on-demand'] },
    },
    additionalProperties: true,
  }),
  'commitment.fired': ajv.compile({
    type: 'object',
    required: ['commitmentId', 'memoryRef', 'condition'],
    properties: {
      commitmentId: { type: 'string', minLength: 1 },
      memoryRef: { type: 'string', minLength: 1 },
      memoryId: { type: 'string', minLength: 1 },
      condition: { type: 'string', enum: ['time', 'predicate'] },
      enqueuedRunId: { type: 'string', minLength: 1 },
    },
    additionalProperties: true,
  }),
  'core.workflowChain.confidence-escalated': ajv.compile({
    type: 'object',
    additionalProperties: false,
    required: ['confidence', 'floor', 'escalationKind'],
    properties: {
      confidence: { type: 'number', minimum: 0, maximum: 1 },
      floor: { type: 'number', minimum: 0.5, maximum: 1 },
      escalationKind: { type: 'string', enum: ['clarify', 'escalate'] },
      originalDecision: { type: 'object' },
    },
  }),
} as const;
const capabilityBlocks = ajv.compile({
  type: 'object',
  properties: {
    agents: {
      type: 'object',
      properties: {
        memoryConsolidation: { type: 'object', additionalProperties: false, required: ['supported'], properties: { supported: { type: 'boolean' }, schedule: { enum: ['host-managed', 'scheduled', 'on-demand'] } } },
        commitments: { type: 'object', additionalProperties: false, required: ['supported'], properties: { supported: { type: 'boolean' }, fireConditions: { type: 'array', uniqueItems: true, items: { enum: ['time', 'predicate'] } } } },
      },
    },
    multiAgent: {
      type: 'object',
      properties: {
        executionModel: {
          type: 'object',
          required: ['supported', 'version'],
          properties: {
            supported: { type: 'boolean' },
            version: { type: 'integer', minimum: 1, maximum: 4 },
            confidenceEscalationFloor: { type: 'number', minimum: 0.5, maximum: 1 },
            crossChildMemoryConcurrency: { enum: ['strict', 'advisory'] },
          },
        },
      },
    },
  },
});

const validate = (type: string, payload: unknown) => {
  const v = validators[type as keyof typeof validators];
  if (v === undefined) return;
  if (!v(payload)) throw new Error(`${type} invalid: ${ajv.errorsText(v.errors)}`);
};
const tenantOf = (ref: string) => /^mem:\/\/([a-z0-9-]+)\/[a-z0-9-]+$/.exec(ref)?.[1];

describe('emitted events validate (interim RFC payload shapes)', () => {
  it('the validators reject the RFC negative example (commitment.fired without memoryRef)', () => {
    expect(() => validate('commitment.fired', { commitmentId: 'c', condition: 'time' })).toThrow();
  });

  it('capability fragment validates; a floor below 0.5 cannot be advertised', () => {
    expect(capabilityBlocks(ownedCapabilityFragment({ floor: 0.7, crossChildMemoryConcurrency: 'advisory' }))).toBe(true);
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
          await orchestratorStep({ kind: 'next-worker', confidence }, makeEscalationPolicy(), {
            record: validate,
            interrupt: async () => ({ outcome: 'approved' }),
            execute: () => undefined,
            payloads: { decided: () => ({}), interruptRequested: () => ({}), interruptResolved: () => ({}), dispatched: () => ({}) },
            newInterruptId: () => 'i1',
          });
          void ESCALATION_EVENT_TYPES;
        },
      ),
      { numRuns: 150 },
    );
  });
});
