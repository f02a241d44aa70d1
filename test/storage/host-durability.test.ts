/**
 * The host acknowledges a request only after its writes are committed: a write the store fails is answered with
 * a 500 envelope rather than the success it would have reported, and so is every later request (fail-stop: the
 * store no longer matches the host's working state until a restart reloads it).
 */
import { describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';

const TOKEN = 'durability-test-token-0123456789abcdef';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

describe('host durability barrier', () => {
  it('answers 500 when the store fails a write, and keeps answering 500 (fail-stop)', async () => {
    const storage = await openMemoryStore();
    const { app } = await createHost({ token: TOKEN, storage, logger: false });
    const seed = () => app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: H, payload: JSON.stringify({ memoryRef: 'mem://acme/d', entries: [{ content: 'x' }] }) });
    expect((await seed()).statusCode).toBe(200);
    // The database goes away under the host: the next write cannot commit.
    const upsert = storage.memory.upsert;
    Object.assign(storage.memory, { upsert: async () => { throw new Error('disk full'); } });
    const failed = await seed();
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ error: 'internal_error', message: 'internal error' });
    Object.assign(storage.memory, { upsert });
    expect((await app.inject({ method: 'GET', url: ROUTES.discovery.path, headers: H })).statusCode).toBe(500);
    await app.close();
  });
});
