/**
 * SR-1 survives restarts (issue 22 item 4): a run's secret registry is sealed in the store (AES-256-GCM under the
 * host's configured key), so after a restart the same run — and the tenant's other writes — still redact its secret;
 * once the registry is dropped (idle past its lifetime, or unreadable because the host was not given its key) the
 * run refuses every memory write. Whatever happens, the secret's plaintext V is in no store file (the SQLite file and
 * its -wal/-shm), in no pg_dump of a PostgreSQL store, in no log line and in no response.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { SecretKeyRing } from '../../runtime/redaction/sealing.ts';
import { openStore } from '../../runtime/storage/open-store.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';
import { freshDatabase, type TestDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';

const TOKEN = 'sr1-restart-test-token-0123456789';
const V = 'sk-live-SR1-restart-7f3c9d2e4b1a8865';
const KEYS = SecretKeyRing.parse(`k1:${Buffer.alloc(32, 3).toString('base64')}`, 'test');
const CURSOR_KEY = Buffer.alloc(32, 4);
const IDLE_MS = 30 * 60_000;
const clock = { t: Date.parse('2026-05-01T10:00:00.000Z'), now() { return this.t; } };

/** Everything the host said (responses) and logged, for the "V is nowhere" check. */
const seen: string[] = [];
const logs = new Writable({ write(chunk, _enc, done) { seen.push(String(chunk)); done(); } });

async function host(open: () => Promise<StoragePort>, keys: SecretKeyRing | undefined) {
  const h = await createHost({ token: TOKEN, clock, storage: await open(), logger: { level: 'trace', stream: logs }, cursorKey: CURSOR_KEY, ...(keys !== undefined ? { secretKeys: keys } : {}) });
  const seed = async (body: object) => {
    const r = await h.app.inject({ method: 'POST', url: '/v1/host/sample/memory/seed', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
    seen.push(r.body);
    return r;
  };
  const list = async (ref: string) => {
    const r = await h.app.inject({ method: 'GET', url: `/v1/memory/${encodeURIComponent(ref)}`, headers: { authorization: `Bearer ${TOKEN}` } });
    seen.push(r.body);
    return (r.json() as { entries: { content: string }[] }).entries.map((e) => e.content);
  };
  return { ...h, seed, list };
}

/** The SR-1 story on one store: what each step must answer. */
async function story(open: () => Promise<StoragePort>, kind: 'sqlite' | 'postgres'): Promise<void> {
  const ref = 'mem://sr1/notes';
  let h = await host(open, KEYS);
  const first = await h.seed({ memoryRef: ref, runId: 'run-sr1', secrets: [{ secretId: 's1', value: V }], entries: [{ content: `the key is ${V}` }] });
  expect(first.statusCode).toBe(200);
  await h.app.close();

  // Restart with the same key: the run's registry opens again; the run and the tenant's other writes redact V.
  h = await host(open, KEYS);
  expect((await h.seed({ memoryRef: ref, runId: 'run-sr1', entries: [{ content: `again ${V}` }] })).statusCode).toBe(200);
  expect((await h.seed({ memoryRef: ref, entries: [{ content: `no run, still ${V}` }] })).statusCode).toBe(200);
  expect(await h.list(ref)).toEqual(expect.arrayContaining(['the key is [REDACTED:s1]', 'again [REDACTED:s1]', 'no run, still [REDACTED:s1]']));

  // Past the idle lifetime the registry is dropped: the run refuses every write (nothing is stored), specifically.
  clock.t += IDLE_MS + 1;
  const refused = await h.seed({ memoryRef: ref, runId: 'run-sr1', entries: [{ content: `after the drop ${V}` }] });
  expect(refused.statusCode).toBe(409);
  expect(refused.json()).toMatchObject({ error: 'secret_registry_unavailable', details: { reason: 'idle' } });
  await h.background.runOnce(); // the idle registry is dropped in the store: its secrets are erased
  expect((await h.seed({ memoryRef: ref, runId: 'run-sr1', entries: [{ content: `and again ${V}` }] })).json()).toMatchObject({ error: 'secret_registry_unavailable', details: { reason: 'dropped' } });
  expect((await h.list(ref)).some((c) => c.includes('drop') || c.includes('and again'))).toBe(false);
  await h.app.close();

  // A run registered under a key the restarted host was not given: its registry counts as dropped (SQLite: one host
  // at a time, so a restart with other keys is allowed; PostgreSQL refuses such a host).
  h = await host(open, KEYS);
  expect((await h.seed({ memoryRef: ref, runId: 'run-sr1-b', secrets: [{ secretId: 's2', value: `${V}-b` }], entries: [{ content: 'b' }] })).statusCode).toBe(200);
  await h.app.close();
  const other = SecretKeyRing.parse(`k9:${Buffer.alloc(32, 9).toString('base64')}`, 'test');
  if (kind === 'postgres') {
    // A database is a fleet's: a host with other keys is refused at start, before it could write anything.
    await expect(host(open, other)).rejects.toThrow(/differ from those of the hosts on this database/);
    return;
  }
  h = await host(open, other);
  expect((await h.seed({ memoryRef: ref, runId: 'run-sr1-b', entries: [{ content: `${V}-b` }] })).json()).toMatchObject({ error: 'secret_registry_unavailable', details: { reason: 'unreadable' } });
  await h.app.close();
}

const noV = (where: string, text: string | Buffer) => expect(Buffer.from(text).includes(V), `${where} holds the plaintext`).toBe(false);

describe('SR-1 across restarts', () => {
  it('SQLite: V is in no store file (-wal and -shm included), no log line and no response', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'wopkit-sr1-'));
    try {
      seen.length = 0;
      await story(() => openStore({ kind: 'sqlite', dataDir }), 'sqlite');
      for (const f of readdirSync(dataDir)) noV(f, readFileSync(join(dataDir, f)));
      for (const s of seen) noV('a log line or response', s);
      expect(seen.some((s) => s.includes('[REDACTED:s1]'))).toBe(true); // the check reads what the host really said
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const pg = toolchain('postgres');
  let db: TestDatabase | undefined;
  afterAll(() => db?.drop());
  it.skipIf(pg.skip)(`PostgreSQL: V is in no pg_dump, no log line and no response${pg.skip ? ` (${pg.reason})` : ''}`, async () => {
    pg.assert();
    db = await freshDatabase('sr1');
    seen.length = 0;
    await story(() => openStore({ kind: 'postgres', url: db!.url }), 'postgres');
    const dump = execFileSync('pg_dump', ['--data-only', db.url], { maxBuffer: 1 << 28 });
    expect(dump.includes('secret_registries')).toBe(true);
    noV('pg_dump', dump);
    for (const s of seen) noV('a log line or response', s);
  });
});
