/**
 * RFC 0080 §C, rule by rule: the degraded-memory projection of an inventory entry, computed from the discovery
 * document's reconciled model (§A) and the agent's memoryShape.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { validateAgentInventoryEntry, validateAgentInventoryResponse } from '../../../generated/validators/validators.js';
import type { AgentInventoryEntry, MemoryShape } from '../../../generated/ts/agent-inventory-response.ts';
import { degradedProjection, MEMORY_DIMENSIONS, requestedDimensions, satisfiedDimensions, withDegradedProjection } from '../../../runtime/memory/degraded.ts';
import { agentInventory, BUILT_IN_AGENTS } from '../../../runtime/openwop/agent-inventory.ts';
import { openRuntime, put, request } from '../support.ts';
import { unitOfWork } from '../../../runtime/storage/index.ts';

/** The seed's full-memory host and its read-only host (RFC 0080 §Examples, restated). */
const FULL = { memory: { supported: true, search: { supported: true, modes: ['semantic'] }, compaction: { supported: true }, attribution: { supported: true }, retention: { ttl: true, forget: true } }, agents: { memoryBackends: ['long-term'] }, multiAgent: { executionModel: { version: 2 } } };
const READ_ONLY = { memory: { supported: true, writable: false } };
const entry = (memoryShape?: MemoryShape): AgentInventoryEntry => ({ agentId: 'a', persona: 'A', label: 'A', modelClass: 'general', packName: 'p', packVersion: '1', toolAllowlist: [], hasHandoffSchemas: false, ...(memoryShape ? { memoryShape } : {}) });

describe('§A: the reconciled model read from the discovery document', () => {
  it('a full-memory host satisfies all eight dimensions; an empty document none', () => {
    expect(satisfiedDimensions(FULL)).toEqual(MEMORY_DIMENSIONS);
    expect(satisfiedDimensions({})).toEqual([]);
  });
  it('read and write are gated by memory.supported; writable: false removes write only; absent writable means writable', () => {
    expect(satisfiedDimensions(READ_ONLY)).toEqual(['read']);
    expect(satisfiedDimensions({ memory: { supported: true } })).toEqual(['read', 'write']);
    expect(satisfiedDimensions({ memory: { supported: false, writable: true } })).toEqual([]);
  });
  it('long-term-durability comes from agents.memoryBackends only, never from a memoryBackends under memory', () => {
    expect(satisfiedDimensions({ memory: { supported: true, memoryBackends: ['long-term'] } })).not.toContain('long-term-durability');
    expect(satisfiedDimensions({ agents: { memoryBackends: ['long-term'] } })).toEqual(['long-term-durability']);
  });
  it('replay-snapshot is derived: long-term and executionModel version 2 or more', () => {
    expect(satisfiedDimensions({ agents: { memoryBackends: ['long-term'] }, multiAgent: { executionModel: { version: 1 } } })).not.toContain('replay-snapshot');
    expect(satisfiedDimensions({ multiAgent: { executionModel: { version: 3 } } })).not.toContain('replay-snapshot');
    expect(satisfiedDimensions({ agents: { memoryBackends: ['long-term'] }, multiAgent: { executionModel: { version: 2 } } })).toContain('replay-snapshot');
  });
  it('the reference runtime advertises read, write, long-term-durability, compaction, attribution, replay-snapshot and retention — not search', async () => {
    expect(satisfiedDimensions((await openRuntime()).rt.discovery())).toEqual(MEMORY_DIMENSIONS.filter((d) => d !== 'search'));
  });
});

describe('§C rule 1: memoryDegraded and degradedMemoryDimensions exactly when a requested dimension is unmet', () => {
  it('the seed examples: longTerm on a read-only host without memoryBackends → [write, long-term-durability]; on a full host → absent', () => {
    expect(degradedProjection({ longTerm: true }, READ_ONLY)).toEqual({ memoryDegraded: true, degradedMemoryDimensions: ['write', 'long-term-durability'] });
    expect(degradedProjection({ longTerm: true }, FULL)).toEqual({});
  });
  it('scratchpad and conversation need read and write; a shape that asks for nothing, or false keys, is never degraded', () => {
    expect(requestedDimensions({ scratchpad: true })).toEqual(['read', 'write']);
    expect(requestedDimensions({ conversation: true, longTerm: true })).toEqual(['read', 'write', 'long-term-durability']);
    expect(degradedProjection({ scratchpad: false, longTerm: false }, {})).toEqual({});
    expect(degradedProjection(undefined, {})).toEqual({});
  });
  it('property: degraded iff requested ⊄ satisfied; the list is requested ∖ satisfied, unique, in §A order, and never names a memoryShape key', () => {
    const doc = fc.record({
      memory: fc.record({ supported: fc.boolean(), writable: fc.boolean(), search: fc.record({ supported: fc.boolean() }) }, { requiredKeys: [] }),
      agents: fc.record({ memoryBackends: fc.subarray(['long-term']) }, { requiredKeys: [] }),
    }, { requiredKeys: [] });
    const shape = fc.record({ scratchpad: fc.boolean(), conversation: fc.boolean(), longTerm: fc.boolean() }, { requiredKeys: [] });
    fc.assert(fc.property(shape, doc, (s, d) => {
      const have = new Set(satisfiedDimensions(d));
      const missing = requestedDimensions(s).filter((x) => !have.has(x));
      const p = degradedProjection(s, d);
      const e = { ...entry(s), ...p };
      expect(validateAgentInventoryEntry(e)).toBe(true);
      if (missing.length === 0) expect(p).toEqual({});
      else {
        expect(p.memoryDegraded).toBe(true);
        expect(p.degradedMemoryDimensions).toEqual(MEMORY_DIMENSIONS.filter((x) => missing.includes(x)));
        for (const k of ['scratchpad', 'conversation', 'longTerm', 'long-term']) expect(p.degradedMemoryDimensions).not.toContain(k);
      }
    }), { numRuns: 300 });
  });
  it('a stale stamp is recomputed: a satisfied entry loses it, a degraded one gets the current list', () => {
    const stale = { ...entry({ longTerm: true }), memoryDegraded: true, degradedMemoryDimensions: ['search' as const] };
    expect(withDegradedProjection(stale, FULL)).toEqual(entry({ longTerm: true }));
    expect(withDegradedProjection(stale, READ_ONLY)).toMatchObject({ degradedMemoryDimensions: ['write', 'long-term-durability'] });
  });
});

describe('§C rule 2: a degraded agent stays listed (observable, never hidden)', () => {
  it('every built-in agent is listed on a host with no memory at all, each stamped with what it misses', () => {
    const inv = agentInventory([], {});
    expect(validateAgentInventoryResponse(inv)).toBe(true);
    expect(inv.agents.map((a) => a.agentId).sort()).toEqual(BUILT_IN_AGENTS.map((a) => a.agentId).sort());
    expect(inv.total).toBe(inv.agents.length);
    const keeper = inv.agents.find((a) => a.memoryShape?.longTerm === true)!;
    expect(keeper).toMatchObject({ memoryDegraded: true, degradedMemoryDimensions: ['read', 'write', 'long-term-durability'] });
  });
  it('on the reference runtime nothing is degraded: a longTerm agent is satisfied, not silently — by the model', async () => {
    const { rt } = await openRuntime();
    const inv = await unitOfWork(rt.port, (tx) => rt.agentInventory(tx, 'acme'));
    expect(inv.agents.some((a) => a.memoryShape?.longTerm === true)).toBe(true);
    expect(inv.agents.filter((a) => a.memoryDegraded !== undefined || a.degradedMemoryDimensions !== undefined)).toEqual([]);
    expect(rt.discovery().agents?.manifestRuntime).toEqual({ supported: true });
  });
});

describe('§C: forget is a host-managed mutation outside the replay envelope', () => {
  it('after a forget, live memory no longer has the entry, but a fork of the run that read it still reads it from the recorded snapshot', async () => {
    const { rt, port } = await openRuntime();
    const memoryRef = 'mem://acme/notes';
    const run = await request(port, (plan) => rt.startRun(plan, { workflowId: 'w', memoryRef }));
    await put(rt, memoryRef, { content: 'Alice prefers e-mail.', tags: ['subject:alice'] }, { tenant: 'acme', runId: run.runId });
    const at = (await unitOfWork(rt.port, (tx) => rt.runs.row(tx, run.runId)))!.nextSeq - 1;
    const erased = await request(port, (plan) => rt.writer.forget(plan, 'acme', 'subject:alice'));
    expect(erased.value).toHaveLength(1);
    expect(await unitOfWork(rt.port, (tx) => rt.adapterFor(tx, 'acme').list(memoryRef))).toEqual([]);
    const fork = await request(port, (plan) => rt.fork(plan, run.runId, at));
    const view = (await unitOfWork(rt.port, (tx) => rt.memoryOfRun(tx, fork.runId)))!;
    expect((await view.list(memoryRef)).map((e) => e.content)).toEqual(['Alice prefers e-mail.']);
  });
});
