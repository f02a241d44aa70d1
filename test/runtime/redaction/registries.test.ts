/**
 * SR-1 registries in the store (issue 22 item 4): sealed at rest under a configured key, so a restart (or another
 * runtime on the same store) redacts exactly as the one that registered; a run whose registry is gone — ended, idle
 * past its lifetime, or sealed under a key this runtime does not hold — refuses every memory write, and nothing is
 * ever stored unredacted; a write redacted against a set that changed before it committed is refused, not stored;
 * every bound is a 429 with its resource.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SECRET_REGISTRY_LIMITS, SecretBoundError } from '../../../runtime/redaction/secret-registry.ts';
import { registryAad, SecretKeyRing } from '../../../runtime/redaction/sealing.ts';
import { QuotaExceededError } from '../../../runtime/shared/quota.ts';
import { commitDetached, detachedTx, unitOfWork } from '../../../runtime/storage/unit-of-work.ts';
import { registryRow } from '../../../runtime/storage/reads/secrets.ts';
import { endRun, openRuntime, put, registerSecrets, request, requestSecrets, storeText, storedEntries, thrown } from '../support.ts';

const V = 'sk-live-RESTART-0123456789';
const REF = 'mem://acme/notes';
const ring = (id: string) => new SecretKeyRing([{ id, key: randomBytes(32) }]);

describe('SR-1 registries survive restarts, sealed at rest', () => {
  it('register V, write V, restart with the same keys, write V again (in the run and outside it): redacted every time; V is nowhere in the store', async () => {
    const keys = ring('k1');
    const first = await openRuntime({ secretKeys: keys });
    await registerSecrets(first.rt, 'acme', 'run-sr1', { s1: V });
    expect((await put(first.rt, REF, { content: `a ${V}` }, { runId: 'run-sr1' })).content).toBe('a [REDACTED:s1]');
    const again = await openRuntime({ port: first.port, secretKeys: keys, clock: first.clock });
    expect((await put(again.rt, REF, { content: `b ${V}` }, { runId: 'run-sr1' })).content).toBe('b [REDACTED:s1]');
    expect((await put(again.rt, REF, { content: `c ${V}` })).content).toBe('c [REDACTED:s1]');
    expect(await storeText(first.port)).not.toContain(V);
    expect(await storeText(first.port)).not.toContain(Buffer.from(V).toString('base64').slice(0, 12));
  });

  it('a runtime whose keys cannot open a live registry of the tenant refuses every write of that tenant (unreadable); other tenants write on', async () => {
    const first = await openRuntime({ secretKeys: ring('k1') });
    await registerSecrets(first.rt, 'acme', 'run-sr1', { s1: V });
    for (const other of [await openRuntime({ port: first.port, secretKeys: ring('k2') }), await openRuntime({ port: first.port })]) {
      for (const ctx of [{ runId: 'run-sr1' }, {}]) {
        expect(await thrown(() => put(other.rt, REF, { content: `x ${V}` }, ctx))).toMatchObject({ code: 'secret_registry_unavailable', reason: 'unreadable' });
      }
      expect((await put(other.rt, 'mem://globex/notes', { content: 'fine' })).content).toBe('fine');
    }
    expect(await storedEntries(first.port, REF)).toEqual([]);
    expect(await storeText(first.port)).not.toContain(V);
  });

  it('rotation: a ring with a new key first and the old one after opens what the old one sealed, and seals new registries with the new key', async () => {
    const old = { id: 'old', key: randomBytes(32) };
    const first = await openRuntime({ secretKeys: new SecretKeyRing([old]) });
    await registerSecrets(first.rt, 'acme', 'run-old', { s1: V });
    const rotated = await openRuntime({ port: first.port, secretKeys: new SecretKeyRing([{ id: 'new', key: randomBytes(32) }, old]) });
    expect((await put(rotated.rt, REF, { content: V }, { runId: 'run-old' })).content).toBe('[REDACTED:s1]');
    await registerSecrets(rotated.rt, 'acme', 'run-new', { s2: 'sk-live-ROTATED-987654321' });
    const keyOf = async (runId: string) => (await first.port.reads.get('SELECT key_id FROM secret_registries WHERE run_id = ?', [runId]))?.key_id;
    expect([await keyOf('run-old'), await keyOf('run-new')]).toEqual(['old', 'new']);
  });

  it('a sealed registry opens only for the run and tenant it was sealed for (the AAD), and only with its key', () => {
    const keys = ring('k1');
    const { keyId, sealed } = keys.seal('[{"secretId":"s","value":"v"}]', registryAad('run-1', 'acme'));
    expect(keys.open(keyId, sealed, registryAad('run-1', 'acme'))).toBe('[{"secretId":"s","value":"v"}]');
    expect(keys.open(keyId, sealed, registryAad('run-2', 'acme'))).toBeUndefined();
    expect(keys.open(keyId, sealed, registryAad('run-1', 'globex'))).toBeUndefined();
    expect(ring('k1').open(keyId, sealed, registryAad('run-1', 'acme'))).toBeUndefined();
    const tampered = Buffer.from(sealed, 'base64');
    tampered[tampered.length - 1]! ^= 1;
    expect(keys.open(keyId, tampered.toString('base64'), registryAad('run-1', 'acme'))).toBeUndefined();
  });
});

describe('a run whose registry is gone writes nothing', () => {
  it('idle past its lifetime: refused at once (before any sweep), then dropped by the sweep; a use within the lifetime keeps it alive', async () => {
    const idleTtlMs = 60_000;
    const { rt, port, clock } = await openRuntime({ secretRegistries: { idleTtlMs } });
    await registerSecrets(rt, 'acme', 'run-sr1', { s1: V });
    clock.advance(idleTtlMs - 1);
    expect((await put(rt, REF, { content: V }, { runId: 'run-sr1' })).content).toBe('[REDACTED:s1]'); // a use: the lifetime starts again
    clock.advance(idleTtlMs - 1);
    expect((await put(rt, REF, { content: V }, { runId: 'run-sr1' })).content).toBe('[REDACTED:s1]');
    clock.advance(idleTtlMs);
    expect(await thrown(() => put(rt, REF, { content: `late ${V}` }, { runId: 'run-sr1' }))).toMatchObject({ code: 'secret_registry_unavailable', reason: 'idle' });
    const dropped = await request(port, (plan) => plan.add('secrets.dropIdle', { cutoffMs: clock.now() - idleTtlMs, limit: 100 }));
    expect(dropped.value).toBe(1);
    expect((await registryRow(port.reads, 'run-sr1'))?.state).toBe('dropped');
    expect(await thrown(() => put(rt, REF, { content: `later ${V}` }, { runId: 'run-sr1' }))).toMatchObject({ code: 'secret_registry_unavailable', reason: 'dropped' });
    expect(await storeText(port)).not.toContain(V);
  });

  it('ended: refused, and claiming the run again does not revive it', async () => {
    const { rt, port } = await openRuntime();
    await registerSecrets(rt, 'acme', 'run-sr1', { s1: V });
    await endRun(rt, 'acme', 'run-sr1');
    expect(await thrown(() => put(rt, REF, { content: V }, { runId: 'run-sr1' }))).toMatchObject({ code: 'secret_registry_unavailable' });
    expect(await thrown(() => registerSecrets(rt, 'acme', 'run-sr1', { s1: V }))).toMatchObject({ code: 'secret_registry_unavailable' });
    expect(await storeText(port)).not.toContain(V);
  });
});

describe('each write checks, in its transaction, that the set it was redacted against is still current', () => {
  it('a secret registered after a write read the registries but before it committed: the write is refused (stale_read), nothing stored', async () => {
    const { rt, port } = await openRuntime();
    await registerSecrets(rt, 'acme', 'run-1', { s1: V });
    const late = 'sk-live-REGISTERED-LATE-42';
    const plan = detachedTx(port);
    await rt.writer.put(plan, REF, { content: `${V} ${late}` });
    await registerSecrets(rt, 'acme', 'run-2', { s2: late });
    expect(await thrown(() => commitDetached(plan, port))).toMatchObject({ code: 'stale_read' });
    expect(await storedEntries(port, REF)).toEqual([]);
    // the same write again, from its reads: both redacted
    expect((await put(rt, REF, { content: `${V} ${late}` })).content).toBe('[REDACTED:s1] [REDACTED:s2]');
    expect(await storeText(port)).not.toContain(late);
  });

  it('no process-local copy answers for the store: a runtime that opened the registries redacts, on its first attempt, a secret another runtime registered since', async () => {
    const { rt: a, port, clock } = await openRuntime();
    const b = (await openRuntime({ port, clock, secretKeys: a.keys })).rt;
    await registerSecrets(a, 'acme', 'run-1', { s1: V });
    expect((await put(b, REF, { content: V })).content).toBe('[REDACTED:s1]'); // b has opened acme's registries
    const late = 'sk-live-REGISTERED-ELSEWHERE-7';
    await registerSecrets(a, 'acme', 'run-2', { s2: late });
    // One attempt only: a copy opened before the registration would be refused at commit (stale_read), not retried.
    const stored = await unitOfWork(port, async (tx) => (await b.writer.put(tx, REF, { content: `${V} ${late}` })).stored, { retries: 1 });
    expect(stored.value.content).toBe('[REDACTED:s1] [REDACTED:s2]');
    expect(await storeText(port)).not.toContain(late);
  });

  it('a request that registers and writes in one transaction redacts its own writes with what it registered', async () => {
    const { rt, port } = await openRuntime();
    const stored = await request(port, async (plan) => {
      const s = await rt.secretsOf(plan, 'acme');
      s.claimRun('run-1');
      await s.register('run-1', 's1', V, 'run');
      return (await rt.writer.put(plan, REF, { content: V }, { runId: 'run-1' })).stored;
    });
    expect(stored.value.content).toBe('[REDACTED:s1]');
  });

  it('secrets registered for one request only redact that request and are stored nowhere', async () => {
    const { rt, port } = await openRuntime();
    await request(port, async (plan) => {
      await (await rt.secretsOf(plan, 'acme')).registerForRequest('s1', V, 'run');
      await rt.writer.put(plan, REF, { id: 'm1', content: V });
    });
    expect((await storedEntries(port, REF)).map((e) => e.content)).toEqual(['[REDACTED:s1]']);
    expect((await requestSecrets(rt, 'acme')).secrets.size).toBe(0);
    expect(await storeText(port)).not.toContain(V);
  });
});

describe('bounds: 429 with the resource, nothing registered', () => {
  it('live registries per tenant, secrets per run, secret characters per tenant', async () => {
    const { rt } = await openRuntime({ secretRegistries: { maxLiveRunsPerTenant: 2, maxSecretsPerRun: 2, maxSecretCharsPerTenant: 40 } });
    await registerSecrets(rt, 'acme', 'r1', {});
    await registerSecrets(rt, 'acme', 'r2', {});
    const runs = await thrown(() => registerSecrets(rt, 'acme', 'r3', {}));
    expect(runs).toMatchObject({ code: 'secret_bound_reached' });
    expect((runs as QuotaExceededError).toWire()).toMatchObject({ error: 'quota_exceeded', details: { resource: 'live-run-secret-registries', limit: 2, setting: 'maxLiveRunsPerTenant' } });
    await registerSecrets(rt, 'globex', 'g1', {}); // another tenant is not affected
    const perRun = await thrown(() => registerSecrets(rt, 'acme', 'r1', { a: 'secret-one-1', b: 'secret-two-2', c: 'secret-three' }));
    expect(perRun).toBeInstanceOf(SecretBoundError);
    expect((perRun as SecretBoundError).toWire()).toMatchObject({ error: 'quota_exceeded', details: { resource: 'secrets-per-run', limit: 2 } });
    expect((await requestSecrets(rt, 'acme')).secrets.size).toBe(0); // the refused request registered nothing
    await registerSecrets(rt, 'acme', 'r1', { a: 'x'.repeat(30) });
    const chars = await thrown(() => registerSecrets(rt, 'acme', 'r2', { b: 'y'.repeat(11) }));
    expect((chars as SecretBoundError).toWire()).toMatchObject({ details: { resource: 'secret-characters', limit: 40 } });
    await endRun(rt, 'acme', 'r2');
    await registerSecrets(rt, 'acme', 'r3', {}); // an ended registry frees its place
    expect(DEFAULT_SECRET_REGISTRY_LIMITS.idleTtlMs).toBe(30 * 60_000);
  });
});
