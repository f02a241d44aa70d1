/**
 * Issue 22 item 5 on memory: a tenant's entries per memoryRef and stored bytes are bounded by counts that live in
 * the store, moved in the transaction that changes what they count — so they never drift from the rows, whatever
 * mix of puts, replaces, deletes, purges, forgets and compactions ran, and a request refused at a bound leaves
 * nothing of itself (no entry, no event, no count moved).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { QuotaExceededError } from '../../../runtime/shared/quota.ts';
import type { StoragePort } from '../../../runtime/storage/port.ts';
import { allEvents, openRuntime, request, storedEntries, storeText, thrown, withRuntime } from '../support.ts';

const REFS = ['mem://acme/a', 'mem://acme/b', 'mem://globex/a'];

/** What the counts say and what the rows are, per (tenant, ref) and per tenant. */
async function countsAndRows(port: StoragePort) {
  const counts = (await port.reads.all("SELECT tenant, resource, scope, n FROM quotas WHERE resource IN ('memory-entries', 'memory-bytes') ORDER BY tenant, resource, scope", [], 1000))
    .map((r) => ({ tenant: String(r.tenant), resource: String(r.resource), scope: String(r.scope), n: Number(r.n) }));
  const rows = await port.reads.all('SELECT tenant, memory_ref, count(*) AS n, sum(bytes) AS bytes FROM entries GROUP BY tenant, memory_ref ORDER BY tenant, memory_ref', [], 1000);
  const expected: { tenant: string; resource: string; scope: string; n: number }[] = [];
  const bytes = new Map<string, number>();
  for (const r of rows) {
    const tenant = String(r.tenant);
    expected.push({ tenant, resource: 'memory-entries', scope: String(r.memory_ref), n: Number(r.n) });
    bytes.set(tenant, (bytes.get(tenant) ?? 0) + Number(r.bytes));
  }
  for (const [tenant, n] of bytes) expected.push({ tenant, resource: 'memory-bytes', scope: '', n });
  const order = (x: { tenant: string; resource: string; scope: string }) => `${x.tenant}\u0000${x.resource}\u0000${x.scope}`;
  return { counts: [...counts].sort((p, q) => order(p).localeCompare(order(q))), expected: expected.sort((p, q) => order(p).localeCompare(order(q))) };
}

describe('memory bounds', () => {
  it('the counts equal the rows after any mix of puts, replaces, deletes, purges, forgets and compactions (property)', async () => {
    const op = fc.oneof(
      { weight: 4, arbitrary: fc.record({ k: fc.constant('put' as const), ref: fc.constantFrom(...REFS), id: fc.constantFrom('x', 'y', 'z', 'w'), size: fc.integer({ min: 1, max: 300 }), ttl: fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }), tag: fc.boolean() }) },
      { weight: 2, arbitrary: fc.record({ k: fc.constant('delete' as const), ref: fc.constantFrom(...REFS), id: fc.constantFrom('x', 'y', 'z', 'w') }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('purge' as const), ms: fc.integer({ min: 0, max: 30_000 }) }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('forget' as const), tenant: fc.constantFrom('acme', 'globex') }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('compact' as const), ref: fc.constantFrom(...REFS) }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40, size: 'medium' }), async (ops) => {
        await withRuntime({ memoryBounds: { entriesPerMemoryRef: 3, bytesPerTenant: 1500 } }, async ({ rt, port, clock }) => {
          for (const o of ops) {
            try {
              if (o.k === 'put') await request(port, (plan) => rt.writer.put(plan, o.ref, { id: o.id, content: 'c'.repeat(o.size), tags: o.tag ? ['subject:s'] : [], ...(o.ttl !== undefined ? { ttlSeconds: o.ttl } : {}) }));
              else if (o.k === 'delete') await request(port, (plan) => rt.writer.delete(plan, o.ref, o.id));
              else if (o.k === 'purge') {
                clock.advance(o.ms);
                await request(port, (plan) => plan.add('memory.purgeExpired', { atMs: clock.now(), limit: 100 }));
              } else if (o.k === 'forget') await request(port, (plan) => rt.writer.forget(plan, o.tenant, 'subject:s'));
              else await request(port, (plan) => rt.compactor.compact(plan, o.ref));
            } catch (e) {
              // refusals: a bound reached, nothing to compact
              expect((e as { code?: string }).code).toMatch(/^(quota_exceeded|no_sources)$/);
            }
            const { counts, expected } = await countsAndRows(port);
            expect(counts).toEqual(expected);
            for (const c of counts) expect(c.n).toBeLessThanOrEqual(c.resource === 'memory-entries' ? 3 : 1500);
          }
        });
      }),
      { numRuns: 150 },
    );
  });

  it('a request whose second write passes a bound leaves nothing: no entry, no event, no count moved', async () => {
    const { rt, port } = await openRuntime({ memoryBounds: { entriesPerMemoryRef: 1 } });
    const run = await request(port, (plan) => rt.startRun(plan, { workflowId: 'wf', memoryRef: 'mem://acme/a' }));
    const before = await storeText(port);
    const err = await thrown(() => request(port, async (plan) => {
      await rt.writer.put(plan, 'mem://acme/a', { content: 'first' }, { runId: run.runId });
      await rt.writer.put(plan, 'mem://acme/a', { content: 'second' }, { runId: run.runId });
    }));
    expect(err).toBeInstanceOf(QuotaExceededError);
    expect((err as QuotaExceededError).toWire()).toMatchObject({ error: 'quota_exceeded', details: { resource: 'memory-entries', limit: 1 } });
    expect(await storeText(port)).toBe(before);
    expect(await storedEntries(port)).toEqual([]);
    expect((await allEvents(port)).map((e) => e.type)).toEqual(['run.started']);
  });

  it('stored bytes per tenant are bounded; replacing an entry with a smaller one, or deleting one, frees room', async () => {
    const { rt, port } = await openRuntime({ memoryBounds: { bytesPerTenant: 600 } });
    const put = (id: string, size: number) => request(port, (plan) => rt.writer.put(plan, 'mem://acme/a', { id, content: 'c'.repeat(size) }));
    await put('x', 400);
    expect(await thrown(() => put('y', 200))).toMatchObject({ resource: 'memory-bytes', limit: 600 });
    await put('x', 100);
    await put('y', 200);
    expect(await thrown(() => request(port, (plan) => rt.writer.put(plan, 'mem://globex/a', { content: 'c'.repeat(700) })))).toMatchObject({ resource: 'memory-bytes' });
    await request(port, (plan) => rt.writer.delete(plan, 'mem://acme/a', 'y'));
    await put('z', 300);
  });
});
