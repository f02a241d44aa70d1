/**
 * Issue 12, items 2 and 4, over the store (issue 22): per-request cost and kept state must not grow with history.
 * - Item 2: secret registries have an end of life and a bound. A seed that names no run keeps its secrets for its
 *   own writes only (nothing of them is stored); the fixture routes end the runs they start; a registry nobody uses
 *   is dropped after its idle lifetime, after which its run refuses every memory write; live registries are bounded
 *   per tenant and secrets per run (429 `quota_exceeded`, nothing stored). A run whose registry is gone is over:
 *   retention retires it, so a tenant that keeps naming new runs does not grow the store without end.
 * - Item 4: a commitment evaluation reads the predicates that changed, not every armed commitment.
 * Timing lives in bench/security/, never here: these tests count rows and statements.
 */
import { describe, expect, it } from 'vitest';
import { COMMITMENTS_PER_TICK } from '../../runtime/commitments/engine.ts';
import { DEFAULT_LIMITS } from '../../runtime/host/limits.ts';
import { ROUTES, targetOf } from '../../runtime/host/seam-catalogue.ts';
import { createOpenwopRuntime } from '../../runtime/openwop/index.ts';
import { ManualClock } from '../../runtime/shared/clock.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import { commitDetached, detachedTx } from '../../runtime/storage/unit-of-work.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { testHost } from './amplification-host.ts';
import { tenantRowCounts } from './store-rows.ts';
import { unitOfWork } from '../../runtime/storage/index.ts';

const seedWithSecret = (i: number, extra: Record<string, unknown> = {}) => ({
  memoryRef: 'mem://acme/notes',
  secrets: [{ secretId: `byok-${i}`, value: `sk-live-seed-${i}-0123456789` }],
  entries: [{ content: `key sk-live-seed-${i}-0123456789 rotated` }],
  ...extra,
});

describe('item 2: secret registries have an end of life and a bound', () => {
  it('N seeds with a secret and no run leave no registry for the tenant, and what they wrote stays redacted', async () => {
    const h = await testHost();
    for (let i = 0; i < 50; i++) expect((await h.post(ROUTES.memorySeed, seedWithSecret(i))).statusCode).toBe(200);
    expect((await tenantRowCounts(h.store, 'acme')).secret_registries).toBe(0);
    const list = await h.get(targetOf(ROUTES.memoryEntries, { query: { tenant: 'acme', memoryRef: 'mem://acme/notes' } }));
    expect(list.body).not.toContain('sk-live-seed-');
    expect(list.body).toContain('[REDACTED:byok-49]');
    expect(JSON.stringify(await h.stored('mem://acme/notes'))).not.toContain('sk-live-seed-');
    await h.app.close();
  });

  it('the consolidation fixture ends the run that plants its secret canary', async () => {
    const h = await testHost();
    for (let i = 0; i < 5; i++) {
      const r = await h.post(ROUTES.consolidate, { memoryRef: `mem://acme/c${i}`, includeSecretCanary: true });
      expect(r.statusCode).toBe(200);
      expect(r.json().secretLeaked).toBe(false);
    }
    expect(await h.liveRegistries('acme')).toBe(0);
    await h.app.close();
  });

  it('a tenant past its bound of live registries gets a 429 quota_exceeded envelope, and nothing is stored', async () => {
    const h = await testHost({ limits: { liveRunsPerTenant: 3 } });
    for (let i = 0; i < 3; i++) expect((await h.post(ROUTES.memorySeed, seedWithSecret(i, { runId: `client-run-${i}` }))).statusCode).toBe(200);
    const before = await tenantRowCounts(h.store, 'acme');
    const refused = await h.post(ROUTES.memorySeed, seedWithSecret(3, { runId: 'client-run-3', memoryRef: 'mem://acme/refused' }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'quota_exceeded', details: { resource: 'live-run-secret-registries', limit: 3, setting: 'maxLiveRunsPerTenant' } });
    expect(refused.body).not.toContain('sk-live');
    expect(await tenantRowCounts(h.store, 'acme')).toEqual(before);
    // Another tenant is not affected by acme's bound, and a run acme already holds keeps working.
    expect((await h.post(ROUTES.memorySeed, seedWithSecret(4, { runId: 'client-run-4', memoryRef: 'mem://other/notes' }))).statusCode).toBe(200);
    expect((await h.post(ROUTES.memorySeed, seedWithSecret(5, { runId: 'client-run-0' }))).statusCode).toBe(200);
    await h.app.close();
  });

  it('a registry past its bound of secrets refuses the next one with 429, and nothing is stored', async () => {
    const h = await testHost({ limits: { secretsPerRun: 2 } });
    const secrets = [0, 1, 2].map((i) => ({ secretId: `k${i}`, value: `sk-live-many-${i}-0123456789` }));
    const r = await h.post(ROUTES.memorySeed, { memoryRef: 'mem://acme/many', runId: 'many', secrets, entries: [{ content: 'x' }] });
    expect(r.statusCode).toBe(429);
    expect(r.json()).toMatchObject({ error: 'quota_exceeded', details: { resource: 'secrets-per-run', limit: 2, setting: 'maxSecretsPerRun' } });
    expect(await tenantRowCounts(h.store, 'acme')).toEqual(await tenantRowCounts(h.store, 'nobody'));
    await h.app.close();
  });

  it('a registry nobody uses is dropped after its idle lifetime (using it keeps it alive); its run then refuses every memory write, nothing stored', async () => {
    const clock = new ManualClock(Date.now());
    const idle = 60_000;
    const h = await testHost({ clock, limits: { secretRegistryIdleMs: idle } });
    const V = 'sk-live-idle-0123456789';
    for (const runId of ['busy', 'idle']) expect((await h.post(ROUTES.memorySeed, { memoryRef: 'mem://acme/idle', runId, secrets: [{ secretId: `k-${runId}`, value: `${V}-${runId}` }], entries: [{ content: 'start' }] })).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) {
      clock.advance(40_000);
      expect((await h.post(ROUTES.memorySeed, { memoryRef: 'mem://acme/idle', runId: 'busy', entries: [{ content: `busy ${i}` }] })).statusCode).toBe(200); // a use is a touch
      await h.background.runOnce();
    }
    expect(await h.liveRegistries('acme')).toBe(1);
    const before = await tenantRowCounts(h.store, 'acme');
    const refused = await h.post(ROUTES.memorySeed, { memoryRef: 'mem://acme/idle', runId: 'idle', entries: [{ content: `the secret ${V}-idle again` }] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'secret_registry_unavailable' });
    expect(refused.body).not.toContain(V);
    expect(await tenantRowCounts(h.store, 'acme')).toEqual(before);
    expect(JSON.stringify(await h.stored('mem://acme/idle'))).not.toContain(V);
    // Registering the value again in the dropped run is refused too: the run is over.
    expect((await h.post(ROUTES.memorySeed, { memoryRef: 'mem://acme/idle', runId: 'idle', secrets: [{ secretId: 'k-again', value: `${V}-idle` }], entries: [{ content: 'x' }] })).statusCode).toBe(409);
    clock.advance(idle);
    await h.background.runOnce();
    expect(await h.liveRegistries('acme')).toBe(0);
    await h.app.close();
  });

  it('naming a new run in every seed does not grow the store without end: a run whose registry was dropped ends, and retention retires it', async () => {
    const clock = new ManualClock(Date.now());
    const idle = 60_000;
    const h = await testHost({ clock, limits: { secretRegistryIdleMs: idle, liveRunsPerTenant: 4 } });
    const rowsAfter: number[] = [];
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 4; i++) {
        const r = await h.post(ROUTES.memorySeed, { memoryRef: `mem://acme/r${round}`, runId: `run-${round}-${i}`, secrets: [{ secretId: 'k', value: `sk-live-round-${round}-${i}-0123` }], entries: [{ content: 'x' }] });
        expect(r.statusCode, r.body).toBe(200);
      }
      // The round's registries go idle; whatever is past its retention window is retired.
      clock.advance(DEFAULT_LIMITS.runRetentionMs / 10);
      for (let i = 0; i < 20 && Object.keys((await h.background.runOnce()).report).length > 0; i++);
      const rows = await tenantRowCounts(h.store, 'acme');
      rowsAfter.push(rows.runs! + rows.secret_registries! + rows.events!);
    }
    // runRetentionMs keeps about ten rounds of ended runs: the count levels off instead of growing with every round.
    expect(rowsAfter[12]).toBeGreaterThan(0);
    expect(Math.max(...rowsAfter.slice(12))).toBeLessThanOrEqual(rowsAfter[12]!);
    expect(await h.liveRegistries('acme')).toBe(0);
    await h.app.close();
  });

  it('library: 2,000 runs that ended leave no live registry and no plaintext', async () => {
    const port = await openMemoryStore();
    const rt = createOpenwopRuntime({ port });
    for (let i = 0; i < 2000; i++) {
      const plan = detachedTx(port);
      const scope = await rt.secretsOf(plan, 'acme');
      scope.claimRun(`run-${i}`);
      rt.byok.store(`k${i}`, `sk-live-lib-${i}-0123456789`, 'run');
      await rt.byok.resolve(scope, `run-${i}`, `k${i}`);
      await rt.writer.put(plan, 'mem://acme/lib', { content: `uses sk-live-lib-${i}-0123456789` }, { runId: `run-${i}`, tenant: 'acme' });
      scope.endRun(`run-${i}`);
      await commitDetached(plan, port);
    }
    expect(Number((await port.reads.get("SELECT count(*) AS n FROM secret_registries WHERE state = 'live'"))!.n)).toBe(0);
    const stored = await port.reads.all("SELECT doc FROM entries WHERE memory_ref = 'mem://acme/lib'", [], 5000);
    expect(stored).toHaveLength(2000);
    expect(stored.some((r) => String(r.doc).includes('sk-live-lib-'))).toBe(false);
    await port.close();
  });
});

/** A port that counts the rows its reads return. */
function counting(inner: StoragePort): { port: StoragePort; rows(): number } {
  let rows = 0;
  const reads = {
    dialect: inner.reads.dialect,
    run: (sql: string, params?: readonly (string | number | null)[]) => inner.reads.run(sql, params),
    get: async (sql: string, params?: readonly (string | number | null)[]) => {
      const r = await inner.reads.get(sql, params);
      if (r !== undefined) rows++;
      return r;
    },
    all: async (sql: string, params: readonly (string | number | null)[], limit: number) => {
      const r = await inner.reads.all(sql, params, limit);
      rows += r.length;
      return r;
    },
  } as StoragePort['reads'];
  return { port: { ...inner, kind: inner.kind, location: inner.location, reads, commit: (p) => inner.commit(p), health: () => inner.health(), onFatal: (l) => inner.onFatal(l), onWake: (l) => inner.onWake(l), durability: () => inner.durability(), close: () => inner.close() }, rows: () => rows };
}

describe('item 4: a commitment evaluation does not read every armed commitment', () => {
  /** Rows read by one flip of one predicate and three ticks, with `n` predicate commitments armed. */
  async function rowsReadForOneFlip(n: number): Promise<{ rows: number; fired: readonly string[] }> {
    const c = counting(await openMemoryStore());
    const rt = createOpenwopRuntime({ port: c.port });
    const plan = detachedTx(c.port);
    for (let i = 0; i < n; i++) rt.commitments.inferFrom(plan, 'mem://acme/agent', { id: `m${i}`, tags: ['intent:remind', `when:p${i}`] });
    await commitDetached(plan, c.port);
    // The newly armed are looked at once (COMMITMENTS_PER_TICK dirty predicates a tick).
    for (let i = 0; i <= Math.ceil(n / COMMITMENTS_PER_TICK); i++) await rt.commitments.tick();
    await unitOfWork(rt.port, (tx) => rt.commitments.setPredicate(tx, 'acme', 'p7', true));
    const before = c.rows();
    const fired = [...(await rt.commitments.tick()), ...(await rt.commitments.tick()), ...(await rt.commitments.tick())].map((f) => f.instance);
    const rows = c.rows() - before;
    await c.port.close();
    return { rows, fired };
  }

  it('with 30 or 300 armed predicate commitments, one flip and three ticks fire once and read the same few rows', async () => {
    const small = await rowsReadForOneFlip(30);
    const large = await rowsReadForOneFlip(300);
    expect(small.fired).toEqual(['predicate:1']);
    expect(large.fired).toEqual(['predicate:1']);
    expect(large.rows).toBe(small.rows);
    expect(large.rows).toBeLessThan(30);
  });

  it('the commitment fire seam does not evaluate earlier commitments again', async () => {
    const c = { rows: 0 };
    const inner = await openMemoryStore();
    const counted = counting(inner);
    const h = await testHost({ storage: counted.port });
    const fire = () => h.post(ROUTES.commitmentFire, { memoryRef: 'mem://acme/agent', condition: 'predicate' });
    expect((await fire()).statusCode).toBe(200);
    c.rows = counted.rows();
    expect((await fire()).statusCode).toBe(200);
    const first = counted.rows() - c.rows;
    for (let i = 0; i < 20; i++) expect((await fire()).statusCode).toBe(200);
    c.rows = counted.rows();
    expect((await fire()).statusCode).toBe(200);
    expect(counted.rows() - c.rows, 'the 23rd fire reads as many rows as the 2nd').toBe(first);
    await h.app.close();
  });
});
