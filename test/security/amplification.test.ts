/**
 * Issue 12, items 2 and 4: per-request cost must not grow with history.
 * - Item 2: the fixture routes end the runs they start, secret registries die (run ended or idle TTL) and are
 *   bounded per tenant (429 `quota_exceeded`, nothing stored), so N seeds with a secret leave no live registry.
 * - Item 4: a fire request evaluates only the predicates that changed, not every armed commitment three times.
 * Timing lives in bench/security/, never here: these tests count things.
 */
import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../runtime/shared/clock.ts';
import { SecretRegistries } from '../../runtime/redaction/secret-registry.ts';
import { createOpenwopRuntime } from '../../runtime/openwop/index.ts';
import { ROUTES, targetOf } from '../../runtime/host/seam-catalogue.ts';
import { testHost } from './amplification-host.ts';

const seedWithSecret = (i: number, extra: Record<string, unknown> = {}) => ({
  memoryRef: 'mem://acme/notes',
  secrets: [{ secretId: `byok-${i}`, value: `sk-live-seed-${i}-0123456789` }],
  entries: [{ content: `key sk-live-seed-${i}-0123456789 rotated` }],
  ...extra,
});

describe('item 2: secret registries have an end of life and a bound', () => {
  it('N seeds with a secret leave no live registry for the tenant (the seed route ends the run it starts)', async () => {
    const h = await testHost();
    for (let i = 0; i < 50; i++) expect((await h.post(ROUTES.memorySeed, seedWithSecret(i))).statusCode).toBe(200);
    expect(h.openwop.registries.liveForTenant('acme')).toHaveLength(0);
    // ...and what they wrote stayed redacted.
    const list = await h.get(targetOf(ROUTES.memoryEntries, { query: { tenant: 'acme', memoryRef: 'mem://acme/notes' } }));
    expect(list.body).not.toContain('sk-live-seed-');
    expect(list.body).toContain('[REDACTED:byok-49]');
    await h.app.close();
  });

  it('the consolidation fixture ends the run that plants its secret canary', async () => {
    const h = await testHost();
    for (let i = 0; i < 5; i++) {
      const r = await h.post(ROUTES.consolidate, { memoryRef: `mem://acme/c${i}`, includeSecretCanary: true });
      expect(r.statusCode).toBe(200);
      expect(r.json().secretLeaked).toBe(false);
    }
    expect(h.openwop.registries.liveForTenant('acme')).toHaveLength(0);
    await h.app.close();
  });

  it('a tenant past its bound of live registries gets a 429 quota_exceeded envelope, and nothing is stored', async () => {
    const h = await testHost({}, { secretRegistries: { maxLiveRunsPerTenant: 3 } });
    for (let i = 0; i < 3; i++) expect((await h.post(ROUTES.memorySeed, seedWithSecret(i, { runId: `client-run-${i}` }))).statusCode).toBe(200);
    const refused = await h.post(ROUTES.memorySeed, seedWithSecret(3, { runId: 'client-run-3', memoryRef: 'mem://acme/refused' }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'quota_exceeded', details: { resource: 'live-run-secret-registries', limit: 3, setting: 'maxLiveRunsPerTenant' } });
    expect(refused.body).not.toContain('sk-live');
    expect(h.openwop.store.listRawSync('mem://acme/refused')).toEqual([]);
    // Another tenant is not affected by acme's bound, and a run acme already holds keeps working.
    expect((await h.post(ROUTES.memorySeed, seedWithSecret(4, { runId: 'client-run-4', memoryRef: 'mem://other/notes' }))).statusCode).toBe(200);
    expect((await h.post(ROUTES.memorySeed, seedWithSecret(5, { runId: 'client-run-0' }))).statusCode).toBe(200);
    await h.app.close();
  });

  it('a registry past its bound of secrets refuses the next one with 429, and nothing is stored', async () => {
    const h = await testHost({}, { secretRegistries: { maxSecretsPerRun: 2 } });
    const secrets = [0, 1, 2].map((i) => ({ secretId: `k${i}`, value: `sk-live-many-${i}-0123456789` }));
    const r = await h.post(ROUTES.memorySeed, { memoryRef: 'mem://acme/many', secrets, entries: [{ content: 'x' }] });
    expect(r.statusCode).toBe(429);
    expect(r.json()).toMatchObject({ error: 'quota_exceeded', details: { resource: 'secrets-per-run', limit: 2, setting: 'maxSecretsPerRun' } });
    expect(h.openwop.store.listRawSync('mem://acme/many')).toEqual([]);
    expect(h.openwop.registries.liveForTenant('acme')).toHaveLength(0);
    await h.app.close();
  });

  it('a registry nobody uses expires after its idle TTL (injected clock); using it keeps it alive', () => {
    const clock = new ManualClock();
    const regs = new SecretRegistries({ clock, limits: { idleTtlMs: 60_000 } });
    regs.forRun('busy', 'acme').register('k1', 'sk-live-busy-0123456789', 'run');
    regs.forRun('idle', 'acme').register('k2', 'sk-live-idle-0123456789', 'run');
    for (let i = 0; i < 3; i++) {
      clock.advance(40_000);
      expect(regs.get('busy')).toBeDefined(); // a use is a touch
    }
    expect(regs.has('idle')).toBe(false);
    expect(regs.liveForTenant('acme').map((r) => r.tenant)).toEqual(['acme']);
    clock.advance(60_000);
    expect(regs.liveForTenant('acme')).toEqual([]);
  });

  it('library: 2,000 finished runs leave nothing behind', () => {
    const rt = createOpenwopRuntime();
    for (let i = 0; i < 2000; i++) {
      rt.byok.store(`k${i}`, `sk-live-lib-${i}-0123456789`, 'run');
      rt.byok.resolve(`run-${i}`, 'acme', `k${i}`);
      rt.writer.put('mem://acme/lib', { content: `uses sk-live-lib-${i}-0123456789` }, { runId: `run-${i}`, tenant: 'acme' });
      rt.registries.endRun(`run-${i}`);
    }
    expect(rt.registries.liveForTenant('acme')).toEqual([]);
    expect(rt.store.listRawSync('mem://acme/lib').some((e) => e.content.includes('sk-live-lib-'))).toBe(false);
  });
});

describe('item 4: a fire request costs O(log n) in armed commitments', () => {
  it('after 300 armed predicate commitments, one flip and three ticks evaluate one predicate, once', async () => {
    const rt = createOpenwopRuntime();
    for (let i = 0; i < 300; i++) rt.commitments.inferFrom('mem://acme/agent', { id: `m${i}`, tags: ['intent:remind', `when:p${i}`] });
    await rt.commitments.tick(); // the newly armed are looked at once
    const evaluate = vi.spyOn(rt.predicates, 'evaluate');
    rt.predicates.set('acme', 'p7', true);
    const fired = [...(await rt.commitments.tick()), ...(await rt.commitments.tick()), ...(await rt.commitments.tick())];
    expect(fired.map((f) => f.instance)).toEqual(['predicate:1']);
    expect(evaluate).toHaveBeenCalledTimes(1);
    expect(rt.commitments.armedCount).toBe(300);
  });

  it('the commitment fire seam does not evaluate earlier commitments again', async () => {
    const h = await testHost();
    for (let i = 0; i < 20; i++) expect((await h.post(ROUTES.commitmentFire, { memoryRef: 'mem://acme/agent', condition: 'predicate' })).statusCode).toBe(200);
    const evaluate = vi.spyOn(h.openwop.predicates, 'evaluate');
    expect((await h.post(ROUTES.commitmentFire, { memoryRef: 'mem://acme/agent', condition: 'predicate' })).statusCode).toBe(200);
    expect(evaluate.mock.calls.length).toBeLessThanOrEqual(1);
    await h.app.close();
  });
});
