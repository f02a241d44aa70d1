/**
 * A tenant key cannot grow the store without bound (issue 22 item 5 and its acceptance), over HTTP with a tenant key
 * on a store with the real schema (the in-memory SQLite back-end, for speed):
 * - a tenant that forks 20,000 times gets 429 `quota_exceeded {resource: forks, limit}` at its bound, and from then on
 *   none of its row counts grows (runs, events, journal, quotas, claims, everything);
 * - a seed whose second entry is refused leaves no entry, no event and no count behind: the request is one
 *   transaction.
 */
import { describe, expect, it } from 'vitest';
import { Credentials, devTokenEntry, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createHost } from '../../runtime/host/server.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { SCHEMA_TABLES } from '../../runtime/storage/sql/schema.ts';

const TENANT_KEY = 'acme-tenant-key-0123456789abcdef';
const OPERATOR = 'bounds-operator-token-0123456789';
const FORKS = 20_000;
const credentials = new Credentials([...parseApiKeysEnv(`${TENANT_KEY}=acme:tenant`), devTokenEntry(OPERATOR)]);
const as = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

/** Rows of every table of the store. */
async function rowCounts(port: StoragePort): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of SCHEMA_TABLES) out[t] = Number(Number((await port.reads.get(`SELECT count(*) AS n FROM ${t}`, []))!.n));
  return out;
}

describe('per-tenant bounds a tenant key cannot lift', () => {
  it(`a tenant forking ${FORKS} times is refused 429 at its fork bound, and from then on none of the store's row counts grows`, async () => {
    const storage = await openMemoryStore();
    const limit = 1000;
    const { app } = await createHost({ credentials, storage, limits: { forksPerTenant: limit }, seedConformanceFixtures: true, logger: false });
    // A run of the tenant's own, with events (a fixture workflow that writes memory).
    const started = await app.inject({ method: 'POST', url: ROUTES.runStart.path, headers: as(TENANT_KEY), payload: JSON.stringify({ workflowId: 'conformance-agent-memory-roundtrip' }) });
    expect(started.statusCode, started.body).toBe(201);
    const source = started.json<{ runId: string }>().runId;
    const fork = () => app.inject({ method: 'POST', url: `/v1/runs/${source}:fork`, headers: as(TENANT_KEY), payload: JSON.stringify({ fromSeq: 0 }) });
    const statuses = new Map<number, number>();
    let atBound: Record<string, number> | undefined;
    let first429: unknown;
    for (let i = 0; i < FORKS; i++) {
      const r = await fork();
      statuses.set(r.statusCode, (statuses.get(r.statusCode) ?? 0) + 1);
      if (r.statusCode === 429 && first429 === undefined) {
        first429 = r.json();
        atBound = await rowCounts(storage);
      }
    }
    expect(Object.fromEntries(statuses)).toEqual({ 201: limit, 429: FORKS - limit });
    expect(first429).toMatchObject({ error: 'quota_exceeded', details: { resource: 'forks', limit } });
    expect(await rowCounts(storage)).toEqual(atBound);
    await app.close();
  }, 300_000);

  it('a seed whose second entry is refused leaves no entry, no event and no count behind', async () => {
    const storage = await openMemoryStore();
    const { app } = await createHost({ credentials, storage, logger: false });
    const before = await rowCounts(storage);
    const r = await app.inject({
      method: 'POST', url: ROUTES.memorySeed.path, headers: as(OPERATOR),
      payload: JSON.stringify({ memoryRef: 'mem://acme/notes', runId: 'run-x', entries: [{ content: 'first, fine' }, { content: 'x'.repeat(70_000) }] }),
    });
    expect(r.statusCode).toBeGreaterThanOrEqual(400);
    expect(r.statusCode).toBeLessThan(500);
    expect(await rowCounts(storage)).toEqual(before);
    await app.close();
  });
});
