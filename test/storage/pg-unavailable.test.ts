/**
 * A PostgreSQL server that cannot take the host's connections now (here: the database refusing connections
 * and its sessions ended) is a 503 with Retry-After for reads and writes alike — never a 500 — and /readyz says the
 * store cannot write; when the server takes connections again the host serves again by itself.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createHost } from '../../runtime/host/server.ts';
import { openStore } from '../../runtime/storage/open-store.ts';
import { TEST_FLEET_KEYS } from '../support/fleet-keys.ts';
import { freshDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';

const pgToolchain = toolchain('postgres');
const TOKEN = 'pg-unavailable-token-0123456789';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

describe('PostgreSQL out of reach', () => {
  it.skipIf(pgToolchain.skip)('reads and writes answer 503 + Retry-After (no 500), /readyz 503; served again once the server takes connections', async () => {
    pgToolchain.assert();
    const db = await freshDatabase('unavailable');
    const name = new URL(db.url).pathname.slice(1);
    const { app } = await createHost({ token: TOKEN, ...TEST_FLEET_KEYS, storage: await openStore({ kind: 'postgres', url: db.url }), logger: false });
    const admin = new pg.Client({ connectionString: db.url.replace(`/${name}`, '/postgres') });
    await admin.connect();
    try {
      const list = () => app.inject({ method: 'GET', url: `/v1/memory/${encodeURIComponent('mem://acme/x')}`, headers: H });
      const seed = () => app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: H, payload: JSON.stringify({ memoryRef: 'mem://acme/x', entries: [{ content: 'x' }] }) });
      expect((await seed()).statusCode).toBe(200);

      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      for (const r of [await list(), await seed()]) {
        expect(r.statusCode, r.body).toBe(503);
        expect(r.headers['retry-after']).toMatch(/^\d+$/);
        expect(r.json()).toMatchObject({ error: 'runner_unavailable' });
      }
      expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'unavailable', reason: 'store-unwritable' });

      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
      expect((await list()).statusCode).toBe(200);
      expect((await seed()).statusCode).toBe(200);
    } finally {
      await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`).catch(() => undefined);
      await admin.end();
      await app.close();
      await db.drop();
    }
  }, 60_000);
});
