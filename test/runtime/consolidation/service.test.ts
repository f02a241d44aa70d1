import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { MemoryEntry } from '../../../generated/ts/index.ts';
import { ConsolidationError } from '../../../runtime/consolidation/service.ts';
import type { ConsolidateRequest } from '../../../runtime/consolidation/service.ts';
import { DEFAULT_MEMORY_BOUNDS } from '../../../runtime/memory/writer.ts';
import { toIso } from '../../../runtime/shared/clock.ts';
import { allEvents, openRuntime, registerSecrets, request, storedEntries, withRuntime, type TestRuntime } from '../support.ts';
import { unitOfWork } from '../../../runtime/storage/index.ts';

const SECRETS = { s1: 'sk-live-CANARY-AAAA1111', s2: 'pw-CANARY-BBBB2222' };
const T0 = Date.UTC(2026, 0, 1);
const e = (id: string, content: string, t: number, tags: string[] = []): MemoryEntry => ({ id, content, tags, createdAt: toIso(T0 - 1e6 + t) });

/** Rows written straight into the store (as an older host or an import left them: not redacted). */
const plant = (t: TestRuntime, memoryRef: string, entries: readonly MemoryEntry[]) =>
  request(t.port, (plan) => {
    for (const entry of entries) plan.add('memory.put', { tenant: memoryRef.split('/')[2]!, memoryRef, entry, atMs: t.clock.now(), bounds: DEFAULT_MEMORY_BOUNDS });
  });
/** How many entry mutations the store journaled for a memoryRef (each put or delete is one). */
const mutations = async (t: TestRuntime, memoryRef: string) => Number((await t.port.reads.get('SELECT count(*) AS n FROM journal WHERE memory_ref = ?', [memoryRef]))!.n);
const consolidate = (t: TestRuntime, memoryRef: string, req: ConsolidateRequest = {}) => request(t.port, (plan) => t.rt.consolidation.consolidate(plan, memoryRef, req));

const setup = async () => {
  const t = await openRuntime();
  for (const tenant of ['support', 'acme', 'globex']) await registerSecrets(t.rt, tenant, `run-${tenant}`, SECRETS);
  return t;
};

describe('ConsolidationService (RFC 0068 §D)', () => {
  it('considers long-term entries only: transactional duplicates are neither counted nor touched', async () => {
    const t = await setup();
    const ref = 'mem://support/agent-9';
    await plant(t, ref, [e('l1', 'Customer prefers email.', 1), e('t1', 'Customer prefers email.', 2, ['tier:transactional']), e('t2', 'Customer prefers email.', 3, ['tier:transactional'])]);
    const before = await mutations(t, ref);
    const r = await consolidate(t, ref);
    expect(r.payload).toMatchObject({ inputCount: 1, outputCount: 1 });
    expect(await mutations(t, ref)).toBe(before);
    expect((await storedEntries(t.port, ref)).map((x) => x.id).sort()).toEqual(['l1', 't1', 't2']);
  });

  it('4 entries → 3 (dedup), second pass {3,3} with no writes; secret stays redacted; event content-free and logged with the pass', async () => {
    const t = await setup();
    const ref = 'mem://support/agent-7';
    await plant(t, ref, [
      e('m1', `Refund policy is 30 days; key ${SECRETS.s1}`, 1),
      e('m2', `refund policy is 30 days, key ${SECRETS.s1}`, 2),
      e('m3', 'Customer prefers email.', 3),
      e('m4', 'Office is in Lisbon.', 4),
    ]);
    const first = await consolidate(t, ref, { trigger: 'on-demand' });
    expect(first.payload).toEqual({ memoryRef: ref, inputCount: 4, outputCount: 3, mergedIds: ['m1'], trigger: 'on-demand' });
    const stored = await storedEntries(t.port, ref);
    expect(JSON.stringify(stored)).not.toContain('CANARY');
    expect(stored.find((s) => s.id === 'm2')!.content).toContain('[REDACTED:s1]');
    const before = await mutations(t, ref);
    const second = await consolidate(t, ref, { trigger: 'on-demand' });
    expect(second.payload).toMatchObject({ inputCount: 3, outputCount: 3 });
    expect(await mutations(t, ref)).toBe(before);
    const events = await allEvents(t.port);
    const passes = events.filter((x) => x.type === 'agent.memory.consolidated');
    expect(passes.map((x) => [x.eventId, x.runId])).toEqual([[first.eventId, first.runId], [second.eventId, second.runId]]);
    expect(JSON.stringify(events)).not.toContain('CANARY');
    expect(JSON.stringify(events)).not.toContain('Refund');
  });

  it('refuses malformed refs, another tenant, and a run reading a replay snapshot (a fork); nothing is written', async () => {
    const t = await setup();
    await expect(consolidate(t, '../etc/passwd')).rejects.toMatchObject({ code: 'consolidation_invalid_memory_ref' });
    await expect(consolidate(t, 'mem://acme/a', { tenantId: 'globex' })).rejects.toMatchObject({ code: 'consolidation_cross_tenant' });
    const run = await request(t.port, (plan) => t.rt.startRun(plan, { runId: 'run-1', workflowId: 'wf', memoryRef: 'mem://acme/a' }));
    const fork = await request(t.port, (plan) => t.rt.fork(plan, run.runId, 0));
    const before = (await allEvents(t.port)).length;
    await expect(consolidate(t, 'mem://acme/a', { requestedByRunId: fork.runId })).rejects.toBeInstanceOf(ConsolidationError);
    await expect(consolidate(t, 'mem://acme/b', { requestedByRunId: fork.runId })).rejects.toMatchObject({ code: 'consolidation_own_snapshot' });
    expect((await allEvents(t.port)).length).toBe(before);
    await expect(consolidate(t, 'mem://acme/a', { requestedByRunId: run.runId })).resolves.toBeDefined();
  });

  it('expired entries are neither counted nor touched', async () => {
    const t = await setup();
    const ref = 'mem://acme/a';
    await plant(t, ref, [{ ...e('old', 'dup text here', 1), expiresAt: toIso(t.clock.now() - 1) }, e('new', 'dup text here', 2)]);
    const r = await consolidate(t, ref);
    expect(r.payload).toMatchObject({ inputCount: 1, outputCount: 1 });
    expect((await storedEntries(t.port, ref)).map((x) => x.id).sort()).toEqual(['new', 'old']);
  });

  const word = fc.constantFrom('refund', 'policy', 'email', 'customer', 'lisbon', 'invoice', SECRETS.s1, SECRETS.s2);
  const corpus = fc.array(
    fc.record({ tenant: fc.constantFrom('acme', 'globex'), words: fc.array(word, { minLength: 1, maxLength: 6 }), fact: fc.option(fc.constantFrom('fact:x', 'fact:y'), { nil: undefined }), t: fc.nat(100) }),
    { maxLength: 40 },
  );

  it('property: second pass is a no-op, other tenant untouched, no registered secret survives, events content-free', async () => {
    await fc.assert(
      fc.asyncProperty(corpus, async (rows) => {
        await withRuntime({}, async (t) => {
          for (const tenant of ['acme', 'globex']) await registerSecrets(t.rt, tenant, `run-${tenant}`, SECRETS);
          for (const [i, r] of rows.entries()) await plant(t, `mem://${r.tenant}/agent`, [e(`m${i}`, r.words.join(' '), r.t, r.fact ? [r.fact] : [])]);
          const otherBefore = JSON.stringify(await storedEntries(t.port, 'mem://globex/agent'));
          const otherMutations = await mutations(t, 'mem://globex/agent');
          const first = await consolidate(t, 'mem://acme/agent', { trigger: 'host-managed', tenantId: 'acme' });
          expect(first.payload.outputCount).toBeLessThanOrEqual(first.payload.inputCount);
          expect(await mutations(t, 'mem://globex/agent')).toBe(otherMutations);
          expect(JSON.stringify(await storedEntries(t.port, 'mem://globex/agent'))).toBe(otherBefore);
          const after = JSON.stringify(await storedEntries(t.port, 'mem://acme/agent'));
          for (const v of Object.values(SECRETS)) expect(after).not.toContain(v);
          expect(await unitOfWork(t.rt.port, (tx) => t.rt.adapterFor(tx, 'acme').list('mem://acme/agent'))).toHaveLength(first.payload.outputCount);
          const before = await mutations(t, 'mem://acme/agent');
          const second = await consolidate(t, 'mem://acme/agent', { trigger: 'host-managed' });
          expect(second.payload.inputCount).toBe(second.payload.outputCount);
          expect(second.payload.inputCount).toBe(first.payload.outputCount);
          expect(await mutations(t, 'mem://acme/agent')).toBe(before);
          const serial = JSON.stringify(await allEvents(t.port));
          expect(serial).not.toContain('CANARY');
          for (const w of ['refund', 'policy', 'email', 'lisbon', 'invoice']) expect(serial).not.toContain(w);
        });
      }),
      { numRuns: 150 },
    );
  });
});
