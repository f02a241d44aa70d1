/**
 * The conformance fixtures stay seeded however long a host runs: retention retires ended runs and old claims, never
 * the store's record that the fixtures are seeded (they once vanished from discovery and POST /v1/runs after
 * runRetentionMs). And seeding is idempotent: a second host on the same store seeds nothing twice.
 */
import { describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { ManualClock } from '../../runtime/shared/clock.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';

const TOKEN = 'fixture-seeding-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

describe('conformance fixture seeding', () => {
  it('survives every retention pass, long past runRetentionMs; a second host on the store seeds nothing twice', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const storage = await openMemoryStore();
    const { app, background } = await createHost({ token: TOKEN, storage, clock, seedConformanceFixtures: true, logger: false });
    const fixtures = async () => (await app.inject({ method: 'GET', url: '/.well-known/openwop', headers: H })).json<{ fixtures?: unknown[] }>().fixtures ?? [];
    const listed = await fixtures();
    expect(listed.length).toBeGreaterThan(0);
    const started = await app.inject({ method: 'POST', url: '/v1/runs', headers: H, payload: JSON.stringify({ workflowId: 'conformance-agent-memory-roundtrip' }) });
    expect(started.statusCode).toBe(201);
    for (let day = 0; day < 30; day++) {
      clock.advance(86_400_000);
      await background.runOnce();
    }
    expect(await fixtures()).toEqual(listed);
    expect((await app.inject({ method: 'POST', url: '/v1/runs', headers: H, payload: JSON.stringify({ workflowId: 'conformance-agent-memory-roundtrip' }) })).statusCode).toBe(201);
    const second = await createHost({ token: TOKEN, storage, clock, seedConformanceFixtures: true, logger: false });
    expect((await storage.reads.all("SELECT key FROM meta WHERE key LIKE 'fixtures.%'", [], 10)).length).toBe(1);
    await second.app.close().catch(() => undefined);
  });
});
