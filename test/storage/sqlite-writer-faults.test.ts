/**
 * What a SQLite store says when its writer cannot go on (issues 32 and 33):
 * - a writer thread that cannot start is refused in one line that says why, and "corrupt" only about a file that
 *   fails `PRAGMA quick_check`;
 * - files replaced or removed under a running store (its `-wal` deleted, its database file renamed and copied back)
 *   stop every acknowledgement at once: 503, /readyz 503, one line on stderr;
 * - the first write refused for want of space turns the store unwritable, and a later small success does not make
 *   it ready while its filesystem still has no room (StoreFaults' `recovered` check).
 */
import { copyFileSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { StoreFaults } from '../../runtime/storage/faults.ts';
import { StoreCorruptError, StoreUnavailableError, type StoragePort } from '../../runtime/storage/port.ts';
import { openSqliteStore } from '../../runtime/storage/sqlite/index.ts';
import { startFailureReason, StoreWriterStartError } from '../../runtime/storage/sqlite/start-failure.ts';

const root = mkdtempSync(join(tmpdir(), 'wopkit-writer-faults-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `s${n++}`, 'wopkit.sqlite');
const probe = (v: string) => [{ op: 'meta.set' as const, args: { key: 'probe', value: v } }];
const WITHOUT_SQLITE = new URL('./faults/writer-without-sqlite.ts', import.meta.url);
const CANNOT_OPEN = new URL('./faults/writer-cannot-open.ts', import.meta.url);

async function made(file: string): Promise<void> {
  const { mkdirSync } = await import('node:fs');
  mkdirSync(join(file, '..'), { recursive: true });
  const s = await openSqliteStore(file);
  await s.commit(probe('1'));
  await s.close();
}

describe('a SQLite writer thread that cannot start', () => {
  it('on a sound store: one line saying why (node:sqlite unavailable), not "corrupt"', async () => {
    const file = fresh();
    await made(file);
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    let err: unknown;
    try {
      err = await openSqliteStore(file, { writerModule: WITHOUT_SQLITE }).then(() => undefined, (e: unknown) => e);
      await new Promise((r) => setTimeout(r, 100)); // the thread's end, after its failure, adds nothing
    } finally {
      spy.mockRestore();
    }
    expect(lines, 'the refusal is the one line; the store prints nothing of its own').toEqual([]);
    expect(err).toBeInstanceOf(StoreWriterStartError);
    const message = (err as Error).message;
    expect(message).toContain('node:sqlite is unavailable');
    expect(message).toContain(file);
    expect(message).not.toMatch(/corrupt|backup/i);
    expect(message).not.toContain('\n');
    // The store is released: it opens again with its own writer, and serves.
    const s = await openSqliteStore(file);
    await s.commit(probe('2'));
    await s.close();
  });

  it('that cannot open its file: one line naming the file and why, nothing else printed, not "corrupt"', async () => {
    const file = fresh();
    await made(file);
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    let err: unknown;
    try {
      err = await openSqliteStore(file, { writerModule: CANNOT_OPEN }).then(() => undefined, (e: unknown) => e);
      await new Promise((r) => setTimeout(r, 200)); // the thread ends after it said why: that adds nothing
    } finally {
      spy.mockRestore();
    }
    expect(lines).toEqual([]);
    expect(err).toBeInstanceOf(StoreWriterStartError);
    expect((err as Error).message).toContain(`cannot open ${file}`);
    expect((err as Error).message).not.toMatch(/corrupt|backup/i);
  });

  it('on a file that fails quick_check: StoreCorruptError, naming the check', async () => {
    const file = fresh();
    await made(file);
    const raw = new DatabaseSync(file);
    raw.exec('CREATE TABLE filler (x TEXT); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000) INSERT INTO filler SELECT printf(\'%0500d\', i) FROM c; PRAGMA wal_checkpoint(TRUNCATE)');
    raw.close();
    const size = statSync(file).size;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(600, 0xa5), 0, 600, size - 4096 * 3 + 8); // a page of the filler table, well past the schema
    closeSync(fd);
    const st = statSync(file);
    writeFileSync(`${file}.clean`, `${st.size}:${st.mtimeMs}:${st.ino}`); // as if closed cleanly: no full check at open
    const err = await openSqliteStore(file, { writerModule: WITHOUT_SQLITE }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as Error).message).toContain('quick_check');
  });

  it('each cause of a failed open in one line: a file that cannot be opened, a locked database', () => {
    let cantOpen: unknown;
    try {
      new DatabaseSync(join(root, 'no-such-dir', 'x.sqlite'));
    } catch (e) {
      cantOpen = e;
    }
    expect(startFailureReason(join(root, 'no-such-dir', 'x.sqlite'), cantOpen as Error)).toBe(`cannot open ${join(root, 'no-such-dir', 'x.sqlite')}: no such file`);
    expect(startFailureReason('/x', { message: 'database is locked', errcode: 5 })).toBe('the database is locked by another connection: database is locked');
    expect(startFailureReason('/x', { message: 'No such built-in module: node:sqlite', code: 'ERR_UNKNOWN_BUILTIN_MODULE' })).toMatch(/^node:sqlite is unavailable/);
  });
});

describe('store files replaced or removed under a running store', () => {
  const cases: readonly { name: string; act: (file: string) => void; says: RegExp }[] = [
    { name: 'its -wal deleted', act: (f) => rmSync(`${f}-wal`), says: /write-ahead log .*-wal was removed/ },
    { name: 'its database file deleted', act: (f) => rmSync(f), says: /database file .* was removed/ },
    { name: 'its database file renamed and a copy put in its place', act: (f) => { renameSync(f, `${f}.moved`); copyFileSync(`${f}.moved`, f); }, says: /database file .* was replaced/ },
  ];
  for (const c of cases) {
    it(`${c.name}: the next write and every later one 503, never acknowledged; health unwritable; one line on stderr`, async () => {
      const file = fresh();
      await made(file);
      const s: StoragePort = await openSqliteStore(file);
      const lines: string[] = [];
      const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
      try {
        await s.commit(probe('before'));
        c.act(file);
        for (const v of ['after', 'later']) {
          const err = await s.commit(probe(v)).then(() => undefined, (e: unknown) => e);
          expect(err).toBeInstanceOf(StoreUnavailableError);
          expect((err as Error).message).toMatch(c.says);
        }
        expect(s.health().writable).toBe(false);
        expect(s.health().reason).toMatch(c.says);
        expect(lines.filter((l) => l.includes('not acknowledging writes'))).toHaveLength(1);
        expect(lines.join('')).toMatch(c.says);
        expect(lines.join('').trim().split('\n')).toHaveLength(1);
      } finally {
        spy.mockRestore();
        await s.close();
      }
    });
  }

  it('over HTTP: the seed after the -wal is deleted is 503 + Retry-After, and /readyz turns 503 with it', async () => {
    const file = fresh();
    await made(file);
    const TOKEN = 'writer-faults-token-0123456789abcdef';
    const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { app } = await createHost({ token: TOKEN, storage: await openSqliteStore(file), logger: false });
    try {
      const seed = () => app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: H, payload: JSON.stringify({ memoryRef: 'mem://acme/x', entries: [{ content: 'x' }] }) });
      expect((await seed()).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      rmSync(`${file}-wal`);
      const refused = await seed();
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', reason: 'store-unwritable' });
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode, 'its probe write does not make it ready').toBe(503);
    } finally {
      await app.close();
      spy.mockRestore();
    }
  });
});

describe('readiness after a refused write', () => {
  it('the first refusal turns the store unwritable; a success does not make it writable while the cause stays, and does once it has gone', () => {
    let room = false;
    const f = new StoreFaults('/data/x', () => room);
    f.writable(true);
    expect(f.health.writable).toBe(true);
    f.writable(false, 'disk full');
    expect(f.health).toEqual({ writable: false, reason: 'disk full' });
    f.writable(true); // a small write fitted in the last free pages
    expect(f.health.writable).toBe(false);
    room = true;
    f.writable(true);
    expect(f.health.writable).toBe(true);
  });

  it('a halted store stays unwritable whatever succeeds, and says so once', () => {
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const f = new StoreFaults('/data/x');
      const err = f.halt('its write-ahead log was removed');
      expect(f.halt('again')).toBe(err);
      f.writable(true);
      expect(f.health).toEqual({ writable: false, reason: 'its write-ahead log was removed' });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});
