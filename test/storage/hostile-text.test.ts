/**
 * Text a store cannot hold as written is refused alike on every back-end: a U+0000 or a lone surrogate in a value
 * that lands in a column of its own (a tag, a run id, a list filter) is 400 `bad_request`, nothing written — where
 * PostgreSQL answered 500 for U+0000 and SQLite stored it, and both drivers turned a lone surrogate into U+FFFD (so a
 * tag `x\uD800` matched a filter for `x\uFFFD`). Inside content (kept as JSON, escaped) both are ordinary text and
 * read back byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { openStore } from '../../runtime/storage/open-store.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { SCHEMA_TABLES } from '../../runtime/storage/sql/schema.ts';
import { TEST_FLEET_KEYS } from '../support/fleet-keys.ts';
import { freshDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const pg = toolchain('postgres');
const TOKEN = 'hostile-text-token-0123456789ab';
const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

const rows = async (port: StoragePort) => Promise.all(SCHEMA_TABLES.map(async (t) => Number(Number((await port.reads.get(`SELECT count(*) AS n FROM ${t}`, []))!.n))));

const BACKENDS: [string, boolean, () => Promise<{ open: () => Promise<StoragePort>; done: () => Promise<void> }>][] = [
  ['in-memory', false, async () => ({ open: () => openStore({ kind: 'memory' }), done: async () => {} })],
  ['SQLite', false, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-nul-'));
    return { open: () => openStore({ kind: 'sqlite', dataDir }), done: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }],
  ['PostgreSQL', pg.skip, async () => {
    const db = await freshDatabase('nul');
    return { open: () => openStore({ kind: 'postgres', url: db.url }), done: () => db.drop() };
  }],
];

/**
 * The characters, each with what its refusal says and how a list filter carries it in a URL (a lone surrogate cannot
 * be: a URL is UTF-8, and its bytes decode to U+FFFD before any store sees them).
 */
const HOSTILE: readonly [string, string, RegExp, string | undefined][] = [
  ['U+0000', '\u0000', /NUL character/, '%00'],
  ['a lone surrogate', '\uD800', /lone surrogate/, undefined],
];

describe.each(HOSTILE)('%s in text', (_label, bad, says, inUrl) => {
  for (const [name, skip, backend] of BACKENDS) {
    it.skipIf(skip)(`${name}: refused 400 with nothing written in a tag, a run id or a list filter; kept as is inside content`, async () => {
      if (name === 'PostgreSQL') pg.assert();
      const b = await backend();
      const store = await b.open();
      const { app } = await createHost({ token: TOKEN, ...TEST_FLEET_KEYS, storage: store, logger: false });
      try {
        const seed = (body: object) => app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: H, payload: JSON.stringify(body) });
        const before = await rows(store);
        for (const body of [
          { memoryRef: 'mem://acme/x', entries: [{ content: 'ok', tags: [`t${bad}g`] }] },
          { memoryRef: 'mem://acme/x', runId: `run${bad}x`, entries: [{ content: 'ok' }] },
        ]) {
          const r = await seed(body);
          expect(r.statusCode, r.body).toBe(400);
          expect(r.json()).toMatchObject({ error: 'bad_request', message: expect.stringMatching(says) });
        }
        if (inUrl !== undefined) {
          const list = await app.inject({ method: 'GET', url: `/v1/memory/${encodeURIComponent('mem://acme/x')}?tag=a${inUrl}`, headers: H });
          expect(list.statusCode).toBe(400);
        }
        expect(await rows(store)).toEqual(before);
        const kept = await seed({ memoryRef: 'mem://acme/x', entries: [{ content: `a${bad}b` }] });
        expect(kept.statusCode).toBe(200);
        const back = await app.inject({ method: 'GET', url: `/v1/memory/${encodeURIComponent('mem://acme/x')}`, headers: H });
        expect(back.json<{ entries: { content: string }[] }>().entries.map((e) => e.content)).toEqual([`a${bad}b`]);
      } finally {
        await app.close();
        await b.done();
      }
    }, 60_000);
  }
});
