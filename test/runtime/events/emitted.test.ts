import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validateRunEvent as generatedValidate } from '../../../generated/run-events/index.ts';
import { validateCapabilities } from '../../../generated/validators/validators.js';
import { CapabilityRegistry, ConflictingCapabilityError, DISCOVERY_ROOT, InvalidCapabilitiesError } from '../../../runtime/capabilities/registry.ts';
import { CompactionError } from '../../../runtime/compaction/compactor.ts';
import { DistillationError } from '../../../runtime/distillation/distiller.ts';
import { createOpenwopRuntime } from '../../../runtime/openwop/index.ts';
import { ManualClock, SequentialIds } from '../../../runtime/shared/clock.ts';

const make = (o: Parameters<typeof createOpenwopRuntime>[0] = {}) => createOpenwopRuntime({ clock: new ManualClock(), ids: new SequentialIds(), ...o });
const CANARY = 'CANARY-7f3e9a';

describe('events emitted by memory, compaction and distillation', () => {
  it('every event validates and no canary reaches any event, under random operation sequences (property)', () => {
    const op = fc.oneof(
      fc.record({ k: fc.constant('put' as const), scope: fc.constantFrom('a', 'b'), tier: fc.boolean(), ttl: fc.option(fc.integer({ min: 1, max: 50 })), text: fc.string({ maxLength: 20 }) }),
      fc.record({ k: fc.constant('compact' as const), scope: fc.constantFrom('a', 'b') }),
      fc.record({ k: fc.constant('distill' as const), scope: fc.constantFrom('a', 'b'), budget: fc.option(fc.integer({ min: 1, max: 400 })), level: fc.constantFrom(0, 0, 1) }),
      fc.record({ k: fc.constant('forget' as const) }),
      fc.record({ k: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 60_000 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const clock = new ManualClock();
        const rt = make({ clock, maxTokenBudget: 300 });
        const run = rt.startRun({ workflowId: 'wf', memoryRef: 'mem://tenant-a/a' });
        rt.byok.store('byok-1', `${CANARY}-secret`, 'run');
        rt.byok.resolve(run.runId, 'tenant-a', 'byok-1');
        for (const o of ops) {
          const ref = o.k === 'forget' || o.k === 'tick' ? '' : `mem://tenant-a/${o.scope}`;
          try {
            if (o.k === 'put') rt.asRun(run.runId, () => rt.writer.put(ref, { content: `${o.text} ${CANARY} ${CANARY}-secret.`, tags: ['subject:x'], ...(o.tier ? { tier: 'transactional' as const } : {}), ...(o.ttl !== null ? { ttlSeconds: o.ttl } : {}) }, { runId: run.runId }));
            else if (o.k === 'compact') rt.compactor.compact(ref);
            else if (o.k === 'distill') rt.distiller.distill(ref, { ...(o.budget !== null ? { tokenBudget: o.budget } : {}), fromLevel: o.level });
            else if (o.k === 'forget') rt.writer.forget('tenant-a', 'subject:x');
            else clock.advance(o.ms);
          } catch (e) {
            // refusals are fine (nothing to compact, budget exceeded), never an invalid event
            expect(e).toSatisfy((x: unknown) => x instanceof CompactionError || x instanceof DistillationError || (x as Error).name === 'TokenBudgetExceededError');
          }
        }
        const events = rt.log.runIds().flatMap((r) => rt.log.read(r));
        expect(events.length).toBeGreaterThan(0);
        for (const e of events) {
          expect(generatedValidate(e).valid).toBe(true);
          expect(JSON.stringify(e)).not.toContain(CANARY);
        }
        // and the stored content never holds the resolved secret
        for (const r of rt.store.refs()) for (const e of rt.store.listRawSync(r)) expect(e.content).not.toContain(`${CANARY}-secret`);
      }),
      { numRuns: 150 },
    );
  });
});

describe('capability advertisement', () => {
  it('the full runtime claims memory, compaction and distillation from their live configuration, and no search', () => {
    const doc = make({ maxTokenBudget: 777 }).discovery() as Record<string, any>;
    expect(validateCapabilities(doc)).toBe(true);
    expect(doc.memory).toMatchObject({ supported: true, writable: true, ttlSupported: true, retention: { ttl: true, forget: true }, attribution: { emitsWriteEvents: true } });
    expect(doc.memory.search).toBeUndefined();
    expect(doc.memory.compaction).toEqual({ supported: true, trigger: 'both', maxInputEntries: 1000, maxOutputBytes: 65536 });
    expect(doc.memory.distillation).toMatchObject({ supported: true, maxTokenBudget: 777, tokenizerName: 'wopkit-words-v1', indexEmitted: true });
    expect(doc.agents.memoryBackends).toEqual(['long-term']);
  });
  it('without a compactor wired, neither compaction nor distillation is claimed and both refuse to run', () => {
    const rt = make({ compaction: false });
    const doc = rt.discovery() as Record<string, any>;
    expect(doc.memory.compaction).toBeUndefined();
    expect(doc.memory.distillation).toBeUndefined();
    rt.writer.put('mem://tenant-a/x', { content: 'a.', tier: 'transactional' });
    expect(() => rt.compactor.compact('mem://tenant-a/x')).toThrow(CompactionError);
    expect(() => rt.distiller.distill('mem://tenant-a/x')).toThrow(DistillationError);
    expect(rt.log.runIds().flatMap((r) => rt.log.read(r)).some((e) => e.type === 'memory.compacted')).toBe(false);
  });
  it('distillation can be left out on its own', () => {
    const doc = make({ distillation: false }).discovery() as Record<string, any>;
    expect(doc.memory.compaction.supported).toBe(true);
    expect(doc.memory.distillation).toBeUndefined();
  });
  it('the registry merges module fragments, refuses conflicting claims and invalid documents', () => {
    const reg = new CapabilityRegistry().contribute('m1', { memory: { supported: true } }).contribute('m2', { memory: { ttlSupported: true } });
    expect(reg.document()).toEqual({ ...DISCOVERY_ROOT, memory: { supported: true, ttlSupported: true } });
    expect(reg.sources()).toEqual(['m1', 'm2']);
    expect(() => new CapabilityRegistry().contribute('a', { memory: { supported: true } }).contribute('b', { memory: { supported: false } }).document()).toThrow(ConflictingCapabilityError);
    // compaction supported without its required trigger is not a valid claim
    expect(() => new CapabilityRegistry().contribute('bad', { memory: { compaction: { supported: true } } }).document()).toThrow(InvalidCapabilitiesError);
  });
});
