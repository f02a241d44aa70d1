/**
 * `npm start` storage flags: parsing (store-args.ts), and the clear refusals of the started process — a bad flag,
 * a data directory that cannot be created or written, a store written by a newer wopkit (exit 2, one line on stderr).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseStoreArgs } from '../../runtime/host/store-args.ts';
import { openStore, StoreConfigError } from '../../runtime/storage/open-store.ts';
import { openSqliteStore } from '../../runtime/storage/sqlite/index.ts';
import { SQLITE_MIGRATIONS } from '../../runtime/storage/sqlite/migrations.ts';

const dir = mkdtempSync(join(tmpdir(), 'wopkit-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const refusal = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  return 'no refusal';
};

describe('storage flags', () => {
  it('default: sqlite in ./.wopkit-data under the working directory; other flags pass through', () => {
    expect(parseStoreArgs(['--production'], {}, '/srv/app')).toEqual({ store: { kind: 'sqlite', dataDir: '/srv/app/.wopkit-data' }, rest: ['--production'] });
    expect(parseStoreArgs(['--data-dir=data', '--credentials', 'c.json'], {}, '/srv')).toEqual({ store: { kind: 'sqlite', dataDir: '/srv/data' }, rest: ['--credentials', 'c.json'] });
    expect(parseStoreArgs(['--store', 'memory'], {}, '/srv').store).toEqual({ kind: 'memory' });
    expect(parseStoreArgs(['--store=postgres'], { WOPKIT_DATABASE_URL: 'postgres://u:p@127.0.0.1/db' }, '/srv').store).toEqual({ kind: 'postgres', url: 'postgres://u:p@127.0.0.1/db' });
  });

  it('refuses a bad store, a missing value, a repeated flag, a data dir for another store, postgres without a URL', () => {
    expect(refusal(() => parseStoreArgs(['--store', 'mongo'], {}, '/'))).toBe('--store must be one of memory, sqlite, postgres (got "mongo")');
    expect(refusal(() => parseStoreArgs(['--store'], {}, '/'))).toBe('--store needs a value');
    expect(refusal(() => parseStoreArgs(['--data-dir', '--production'], {}, '/'))).toBe('--data-dir needs a value');
    expect(refusal(() => parseStoreArgs(['--store=memory', '--store=sqlite'], {}, '/'))).toBe('--store given twice');
    expect(refusal(() => parseStoreArgs(['--store=memory', '--data-dir=x'], {}, '/'))).toMatch(/--data-dir applies to the sqlite store only/);
    expect(refusal(() => parseStoreArgs(['--store=postgres'], {}, '/'))).toMatch(/needs WOPKIT_DATABASE_URL/);
  });

  it('PostgreSQL settings from the environment: pool size, and the two switches for a transaction-mode pooler', () => {
    const pgArgs = (env: Record<string, string>) => parseStoreArgs(['--store=postgres'], { WOPKIT_DATABASE_URL: 'postgres://u:p@h/db', ...env }, '/').store;
    expect(pgArgs({ WOPKIT_PG_POOL_SIZE: '4', WOPKIT_PG_LISTEN: 'off' })).toEqual({ kind: 'postgres', url: 'postgres://u:p@h/db', postgres: { poolSize: 4, listen: false } });
    expect(pgArgs({ WOPKIT_PG_LISTEN: 'on' })).toEqual({ kind: 'postgres', url: 'postgres://u:p@h/db', postgres: { listen: true } });
    expect(refusal(() => pgArgs({ WOPKIT_PG_LISTEN: 'yes' }))).toBe('WOPKIT_PG_LISTEN must be on or off (got "yes")');
    expect(refusal(() => pgArgs({ WOPKIT_PG_LISTEN: '0' }))).toBe('WOPKIT_PG_LISTEN must be on or off (got "0")');
    expect(refusal(() => pgArgs({ WOPKIT_PG_POOL_SIZE: '101' }))).toBe('WOPKIT_PG_POOL_SIZE must be an integer from 1 to 100 (got "101")');
  });

  it('openStore refuses a data directory it cannot create', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    await expect(openStore({ kind: 'sqlite', dataDir: join(file, 'sub') })).rejects.toThrow(StoreConfigError);
    await expect(openStore({ kind: 'sqlite', dataDir: join(file, 'sub') })).rejects.toThrow(/data directory .* is not writable \(ENOTDIR\)/);
  });
});

describe('npm start refusals (separate process)', () => {
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const start = (args: string[], env: NodeJS.ProcessEnv = {}) => new Promise<{ code: number | null; err: string }>((resolve) => {
    const child = spawn(process.execPath, [tsx, 'runtime/host/main.ts', ...args], { env: { ...process.env, PORT: '0', OPENWOP_HOST_TOKEN: 'cli-test-token-0123456789abcdef', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => { err += c.toString(); });
    child.on('exit', (code) => resolve({ code, err }));
  });

  it('a bad flag and a store written by a newer wopkit: exit 2 with the reason on stderr', async () => {
    const bad = await start(['--store', 'mongo']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('not starting: --store must be one of memory, sqlite, postgres');
    const newer = join(dir, 'newer');
    const next = SQLITE_MIGRATIONS.length + 1;
    await (await openStore({ kind: 'sqlite', dataDir: newer })).close();
    await (await openSqliteStore(join(newer, 'wopkit.sqlite'), { migrations: [...SQLITE_MIGRATIONS, { version: next, name: 'from the future', sql: 'CREATE TABLE future (x INTEGER)' }] })).close();
    const refused = await start(['--data-dir', newer]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(new RegExp(`not starting: the store at .* has schema version ${next}, newer than this wopkit supports \\(${next - 1}\\)`));
  }, 60_000);
});
