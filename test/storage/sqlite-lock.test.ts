/**
 * One process per SQLite data directory: opening the store takes the exclusive lock `wopkit.sqlite.lock`, a second
 * open (this process or another) is refused naming the directory and the holder, `close()` releases it, and the
 * stale lock of a host killed with kill -9 is taken over, so a restart just works.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, SQLITE_FILE } from '../../runtime/storage/open-store.ts';
import { StoreVersionError, type StoragePort } from '../../runtime/storage/port.ts';
import { openSqliteStore, StoreLockedError } from '../../runtime/storage/sqlite/index.ts';
import { SQLITE_MIGRATIONS } from '../../runtime/storage/sqlite/migrations.ts';
import { startHost } from './crash/host-process.ts';
import { entry, entryIds, putEntry } from './port-contract.ts';

const root = mkdtempSync(join(tmpdir(), 'wopkit-sqlite-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const newDir = () => join(root, `data-${n++}`);
const lockOf = (dataDir: string) => join(dataDir, `${SQLITE_FILE}.lock`);
const holderPid = (dataDir: string) => (JSON.parse(readFileSync(lockOf(dataDir), 'utf8')) as { pid: number }).pid;

async function refusal(open: () => Promise<StoragePort>): Promise<StoreLockedError> {
  let store: StoragePort;
  try {
    store = await open();
  } catch (e) {
    if (e instanceof StoreLockedError) return e;
    throw e;
  }
  await store.close();
  throw new Error('the second open was not refused');
}

describe('SQLite data directory lock (this process)', () => {
  it('a second open is refused, naming the directory, the holder and what to do; close releases the lock', async () => {
    const dataDir = newDir();
    const first = await openStore({ kind: 'sqlite', dataDir });
    const lockedAt = (JSON.parse(readFileSync(lockOf(dataDir), 'utf8')) as { lockedAt: string }).lockedAt;
    expect(holderPid(dataDir)).toBe(process.pid);

    const e = await refusal(() => openStore({ kind: 'sqlite', dataDir }));
    expect(e.code).toBe('store_locked');
    expect(e.holder.pid).toBe(process.pid);
    expect(e.lockPath).toBe(lockOf(dataDir));
    expect(e.message).toBe(
      `data directory ${dataDir} is in use: its SQLite store ${join(dataDir, SQLITE_FILE)} is open in this process (another open instance) since ${lockedAt} ` +
        `(lock file ${lockOf(dataDir)}); a data directory serves one host process: stop the other host, or use another --data-dir (for several host processes use PostgreSQL, --store postgres)`,
    );
    // The file spelled another way, and the file opened directly, are the same lock.
    await refusal(() => openStore({ kind: 'sqlite', dataDir: join(dataDir, '..', `data-${n - 1}`) }));
    await refusal(() => openSqliteStore(join(dataDir, SQLITE_FILE)));

    // The refusals left the first store working and its lock in place.
    await putEntry(first, 't', 'mem://t/a', entry('m1', 'still writable'));
    expect(holderPid(dataDir)).toBe(process.pid);
    await first.close();
    expect(existsSync(lockOf(dataDir))).toBe(false);
    await first.close(); // idempotent

    const second = await openStore({ kind: 'sqlite', dataDir });
    expect(await entryIds(second, 't', 'mem://t/a')).toEqual(['m1']);
    await second.close();
    expect(readdirSync(dataDir).filter((f) => f.includes('.lock'))).toEqual([]); // no lock or temp files left behind
  });

  it('an open that fails after taking the lock (a store newer than the code) releases it', async () => {
    const dataDir = newDir();
    const file = join(dataDir, SQLITE_FILE);
    const next = [...SQLITE_MIGRATIONS, { version: SQLITE_MIGRATIONS.length + 1, name: 'from the future', sql: 'CREATE TABLE future (x INTEGER)' }];
    await (await openStore({ kind: 'sqlite', dataDir })).close();
    await (await openSqliteStore(file, { migrations: next })).close();
    await expect(openStore({ kind: 'sqlite', dataDir })).rejects.toThrow(StoreVersionError);
    expect(existsSync(lockOf(dataDir))).toBe(false);
    await (await openSqliteStore(file, { migrations: next })).close();
  });

  it('the in-memory store and an explicitly unlocked open take no lock', async () => {
    const a = await openStore({ kind: 'memory' });
    const b = await openStore({ kind: 'memory' });
    await a.close();
    await b.close();
    const dataDir = newDir();
    const held = await openStore({ kind: 'sqlite', dataDir });
    const shared = await openSqliteStore(join(dataDir, SQLITE_FILE), { lock: false });
    await shared.close();
    expect(holderPid(dataDir)).toBe(process.pid); // closing the unlocked handle did not release the other's lock
    await held.close();
    expect(existsSync(lockOf(dataDir))).toBe(false);
  });
});

describe('SQLite data directory lock (host processes)', () => {
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  /** `npm start -- <args>` as a child process, as cli.test.ts runs it; stopped (SIGTERM, which tsx passes on) if it starts after all. */
  const npmStart = (args: string[]) => new Promise<{ code: number | null; err: string }>((resolve) => {
    const child = spawn(process.execPath, [tsx, 'runtime/host/main.ts', ...args], { env: { ...process.env, PORT: '0', OPENWOP_HOST_TOKEN: 'lock-test-token-0123456789abcdef' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => { err += c.toString(); });
    child.stdout.on('data', (c: Buffer) => { if (c.toString().includes('listening on')) child.kill('SIGTERM'); });
    child.on('exit', (code) => resolve({ code, err }));
  });

  it('a host started on a data directory in use exits 2 with one line naming the directory and the holder', async () => {
    const dataDir = newDir();
    const held = await openStore({ kind: 'sqlite', dataDir });
    try {
      const { code, err } = await npmStart(['--data-dir', dataDir]);
      expect(code).toBe(2);
      expect(err.trimEnd().split('\n')).toHaveLength(1);
      expect(err).toContain(`wopkit reference host: not starting: data directory ${dataDir} is in use`);
      expect(err).toContain(`pid ${process.pid} on `);
      expect(err).toContain('stop the other host, or use another --data-dir');
    } finally {
      await held.close();
    }
  }, 60_000);

  it('a running host holds the lock; killed with kill -9, its stale lock is taken over; a graceful stop releases it', async () => {
    const dataDir = newDir();
    const args = ['--store', 'sqlite', '--data-dir', dataDir];
    const host = await startHost({ args });
    let killed = false;
    try {
      expect(holderPid(dataDir)).toBe(host.pid);
      const e = await refusal(() => openStore({ kind: 'sqlite', dataDir }));
      expect(e.holder.pid).toBe(host.pid);
      expect(e.message).toContain(`pid ${host.pid} on `);
      await host.kill9();
      killed = true;
    } finally {
      if (!killed) await host.kill9();
    }
    // The killed host's lock is still on disk, and stale: the next open takes it over.
    expect(holderPid(dataDir)).toBe(host.pid);
    const store = await openStore({ kind: 'sqlite', dataDir });
    expect(holderPid(dataDir)).toBe(process.pid);
    await store.close();

    // A host restarted after a kill -9 just starts (its lock taken over again), and SIGTERM releases the lock.
    const again = await startHost({ args });
    await again.kill9();
    const restarted = await startHost({ args });
    expect(holderPid(dataDir)).toBe(restarted.pid);
    // main.ts prints its ready line just before it installs its SIGTERM handler: a SIGTERM in between kills it
    // without a graceful close. Once it answered a request, that synchronous step has run and the handler is in.
    expect((await fetch(`${restarted.url}/.well-known/openwop`)).status).toBe(200);
    await restarted.stop();
    expect(existsSync(lockOf(dataDir))).toBe(false);
  }, 120_000);
});
