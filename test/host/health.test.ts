/**
 * GET /livez and GET /readyz (issue 22 §6): what a supervisor or a load balancer asks, without a key and without
 * content. /livez says the process serves; /readyz says whether it may take requests — 503 with `Retry-After` while
 * its store cannot take writes (a full disk) or while it drains before a stop — and the host is ready again as soon
 * as a write succeeds, without a restart. Meanwhile every other route keeps answering: reads and discovery as usual,
 * writes 503 `runner_unavailable` with `Retry-After`, nothing of them stored. /readyz itself asks again with one probe
 * write at a time, so the host turns ready by itself once space returns (a load balancer that stopped sending it
 * requests would otherwise never see it recover).
 *
 * The store here is the in-memory back-end behind a switch that makes its writes fail the way a full disk makes the
 * SQLite back-end fail (StoreUnavailableError, health not writable until a write succeeds); the back-ends' own
 * reaction to a full disk is the storage tests' business.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { validateErrorEnvelope, validateHostHealth } from '../../generated/validators/validators.js';
import { createHost, type Host } from '../../runtime/host/server.ts';
import { ROUTES, targetOf } from '../../runtime/host/seam-catalogue.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import { StoreUnavailableError, type StoragePort, type StoreHealth } from '../../runtime/storage/port.ts';

const TOKEN = 'health-test-token-0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const REF = 'mem://acme/health';

/** A store whose disk can be made full and freed again. */
async function fillableStore(): Promise<{ port: StoragePort; fill(): void; free(): void; writes(): number }> {
  const inner = await openMemoryStore();
  let full = false;
  let health: StoreHealth = { writable: true };
  let writes = 0;
  const port: StoragePort = {
    kind: inner.kind,
    location: inner.location,
    reads: inner.reads,
    async commit(plan) {
      if (full) {
        health = { writable: false, reason: 'the store cannot write: database or disk is full' };
        throw new StoreUnavailableError('database or disk is full');
      }
      const results = await inner.commit(plan);
      writes++;
      health = { writable: true };
      return results;
    },
    health: () => health,
    onFatal: (l) => inner.onFatal(l),
    onWake: (l) => inner.onWake(l),
    durability: () => inner.durability(),
    close: () => inner.close(),
  };
  return { port, fill: () => void (full = true), free: () => void (full = false), writes: () => writes };
}

let host: Host | undefined;
afterEach(async () => {
  await host?.app.close();
  host = undefined;
});

const get = (url: string, headers: Record<string, string> = {}) => host!.app.inject({ method: 'GET', url, headers });
const seed = (content: string) => host!.app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: { ...AUTH, 'content-type': 'application/json' }, payload: JSON.stringify({ memoryRef: REF, entries: [{ content }] }) });
const list = async () => (await get(targetOf(ROUTES.memoryEntries, { query: { tenant: 'acme', memoryRef: REF } }), AUTH)).json<{ entries: { content: string }[] }>().entries.map((e) => e.content);

describe('GET /livez and GET /readyz', () => {
  it('answer without a key (and with a wrong one), content-free: {status: ok} and nothing else', async () => {
    host = await createHost({ token: TOKEN, logger: false });
    for (const route of [ROUTES.liveness, ROUTES.readiness]) {
      for (const headers of [{}, { authorization: 'Bearer not-a-key-of-this-host-at-all' }, AUTH]) {
        const r = await get(route.path, headers);
        expect([r.statusCode, r.json()], `${route.path} ${JSON.stringify(headers)}`).toEqual([200, { status: 'ok' }]);
        expect(validateHostHealth(r.json())).toBe(true);
        expect(r.headers['set-cookie']).toBeUndefined();
      }
    }
  });

  it('a store that cannot write: /readyz 503 + Retry-After, writes 503 + Retry-After with nothing stored, reads, discovery and /livez still 200; ready again by itself once space returns', async () => {
    const store = await fillableStore();
    host = await createHost({ token: TOKEN, logger: false, storage: store.port });
    expect((await seed('before the disk filled')).statusCode).toBe(200);

    store.fill();
    const refused = await seed('while the disk is full');
    expect([refused.statusCode, refused.json().error, refused.headers['retry-after']]).toEqual([503, 'runner_unavailable', '1']);
    expect(validateErrorEnvelope(refused.json())).toBe(true);
    expect(JSON.stringify(refused.json())).not.toMatch(/disk|sqlite|database/i); // the envelope names no internals

    const ready = await get(ROUTES.readiness.path);
    expect([ready.statusCode, ready.json(), ready.headers['retry-after']]).toEqual([503, { status: 'unavailable', reason: 'store-unwritable' }, '1']);
    expect(validateHostHealth(ready.json())).toBe(true);
    expect((await get(ROUTES.liveness.path)).statusCode).toBe(200);
    expect((await get(ROUTES.discovery.path)).statusCode).toBe(200);
    expect(await list()).toEqual(['before the disk filled']);

    // Still full: asking again probes again, and the host stays not ready.
    expect((await get(ROUTES.readiness.path)).statusCode).toBe(503);
    // Space returns: /readyz's own probe write succeeds, and the host is ready without any client write.
    store.free();
    const writes = store.writes();
    const again = await get(ROUTES.readiness.path);
    expect([again.statusCode, again.json()]).toEqual([200, { status: 'ok' }]);
    expect(store.writes(), 'the probe was one write').toBe(writes + 1);
    expect((await seed('after space returned')).statusCode).toBe(200);
    expect(await list()).toEqual(['after space returned', 'before the disk filled']);
  });

  it('draining before a stop: /readyz 503 draining with Retry-After, /livez still 200', async () => {
    host = await createHost({ token: TOKEN, logger: false });
    await host.drain();
    const ready = await get(ROUTES.readiness.path);
    expect([ready.statusCode, ready.json(), ready.headers['retry-after']]).toEqual([503, { status: 'unavailable', reason: 'draining' }, '1']);
    expect((await get(ROUTES.liveness.path)).json()).toEqual({ status: 'ok' });
  });
});
