/** The storage port contract on the in-memory and SQLite back-ends, and SQLite's own rules (pragmas, migrations). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import { StoreVersionError } from '../../runtime/storage/port.ts';
import { openSqliteStore } from '../../runtime/storage/sqlite/index.ts';
import { SQLITE_MIGRATIONS } from '../../runtime/storage/sqlite/migrations.ts';
import { WAL_CHECKPOINT_PAGES, WAL_SIZE_LIMIT_BYTES } from '../../runtime/storage/sqlite/pragmas.ts';
import { commit, describePortContract } from './port-contract.ts';
import { entryPage } from '../../runtime/storage/reads/memory.ts';
import { eventPage } from '../../runtime/storage/reads/runs.ts';

const dir = mkdtempSync(join(tmpdir(), 'wopkit-sqlite-port-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const newFile = () => join(dir, `store-${n++}.sqlite`);

describePortContract('memory', openMemoryStore);
describePortContract('sqlite', () => openSqliteStore(newFile()), {
  reopenable: async () => {
    const file = newFile();
    return () => openSqliteStore(file);
  },
});

describe('SQLite back-end', () => {
  it('opens in WAL mode with synchronous=FULL and its checkpoint settings on its writing connection, and a new file gets the current schema at once', async () => {
    const file = newFile();
    const port = await openSqliteStore(file);
    expect(await port.durability()).toEqual({ journal_mode: 'wal', synchronous: '2', wal_autocheckpoint: String(WAL_CHECKPOINT_PAGES), journal_size_limit: String(WAL_SIZE_LIMIT_BYTES) });
    await port.close();
    const db = new DatabaseSync(file);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(db.prepare('SELECT version FROM schema_version').all().map((r) => r.version)).toEqual([SQLITE_MIGRATIONS.at(-1)!.version]);
    db.close();
  });

  it('applies only the migrations a store lacks, and refuses a store newer than the code', async () => {
    const file = newFile();
    const next = [...SQLITE_MIGRATIONS, { version: SQLITE_MIGRATIONS.at(-1)!.version + 1, name: 'test step', sql: 'CREATE TABLE test_step (x INTEGER)' }];
    await (await openSqliteStore(file)).close();
    await (await openSqliteStore(file, { migrations: next })).close();
    await (await openSqliteStore(file, { migrations: next })).close(); // idempotent
    await expect(openSqliteStore(file)).rejects.toThrow(StoreVersionError);
    await expect(openSqliteStore(file)).rejects.toThrow(/newer than this wopkit supports/);
  });

  it('two handles on one file share fire-once and gap-free sequences', async () => {
    const file = newFile();
    // Unlocked on purpose: this checks SQLite's own cross-connection atomicity, which the file lock normally hides.
    const [a, b] = [await openSqliteStore(file, { lock: false }), await openSqliteStore(file, { lock: false })];
    await commit(a, (p) => {
      p.add('commitment.arm', { tenant: 't', commitmentId: 'c', kind: 'time', dueMs: 1, doc: {}, limit: 10 });
      p.add('run.create', { runId: 'r', tenant: 't', kind: 'run', status: 'running', createdMs: 0, doc: {} });
    });
    const claims = await Promise.allSettled([a, b, a, b].map((p) => commit(p, (plan) => void plan.add('commitment.fire', { tenant: 't', commitmentId: 'c', instance: 'time:1', firedMs: 1, disarm: true }))));
    expect(claims.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    for (let i = 0; i < 6; i++) await commit(i % 2 === 0 ? a : b, (p) => void p.add('event.append', { runId: 'r', event: { eventId: `e${i}`, runId: 'r', type: 'vendor.x', payload: {}, timestamp: '2026-01-01T00:00:00.000Z', sequence: 0 }, atMs: i }));
    expect((await eventPage(b.reads, { runId: 'r', fromSeq: 0, limit: 10 })).events.map((e) => e.sequence)).toEqual([0, 1, 2, 3, 4, 5]);
    await a.close();
    await b.close();
  });

  it('group commit: writes from many concurrent requests share transactions, and the main thread keeps reading meanwhile', async () => {
    const port = await openSqliteStore(newFile());
    const writes = Array.from({ length: 200 }, (_, i) => commit(port, (p) => void p.add('memory.put', { tenant: 't', memoryRef: 'mem://t/g', entry: { id: `e${i}`, content: 'x', tags: [], createdAt: '2026-01-01T00:00:00.000Z' }, atMs: 0, bounds: { entriesPerMemoryRef: 1000, bytesPerTenant: 1 << 20 } })));
    let readsWhileWriting = 0;
    const reader = (async () => { while (readsWhileWriting < 50) { await entryPage(port.reads, { tenant: 't', memoryRef: 'mem://t/g', atMs: 0, limit: 5 }); readsWhileWriting++; } })();
    await Promise.all([...writes, reader]);
    expect((await entryPage(port.reads, { tenant: 't', memoryRef: 'mem://t/g', atMs: 0, limit: 1000 })).entries).toHaveLength(200);
    await port.close();
  });
});

describe('in-memory back-end', () => {
  const bounds = { entriesPerMemoryRef: 1000, bytesPerTenant: 1 << 20 };
  const entry = (id: string) => ({ id, content: 'x', tags: [], createdAt: '2026-01-01T00:00:00.000Z' });

  it('each store is private to its opener (two hosts in one process share nothing) and is gone on close', async () => {
    const [a, b] = [await openMemoryStore(), await openMemoryStore()];
    await commit(a, (p) => void p.add('memory.put', { tenant: 't', memoryRef: 'mem://t/m', entry: entry('only-in-a'), atMs: 0, bounds }));
    const page = (s: typeof a) => entryPage(s.reads, { tenant: 't', memoryRef: 'mem://t/m', atMs: 0, limit: 10 });
    expect((await page(a)).entries.map((e) => e.id)).toEqual(['only-in-a']);
    expect((await page(b)).entries).toEqual([]);
    await a.close();
    const c = await openMemoryStore();
    expect((await page(c)).entries).toEqual([]);
    await Promise.all([b.close(), c.close()]);
  });

  it('keeps its rollback journal in memory, so a refused plan still rolls back alone', async () => {
    const port = await openMemoryStore();
    expect(await port.durability()).toEqual({ journal_mode: 'memory', synchronous: '2' });
    await commit(port, (p) => void p.add('memory.put', { tenant: 't', memoryRef: 'mem://t/m', entry: entry('kept'), atMs: 0, bounds }));
    const refused = commit(port, (p) => {
      p.add('memory.put', { tenant: 't', memoryRef: 'mem://t/m', entry: entry('rolled-back'), atMs: 0, bounds });
      p.add('memory.put', { tenant: 't', memoryRef: 'mem://t/m', entry: entry('too-many'), atMs: 0, bounds: { ...bounds, entriesPerMemoryRef: 2 } });
    });
    await expect(refused).rejects.toMatchObject({ code: 'quota_exceeded' });
    expect((await entryPage(port.reads, { tenant: 't', memoryRef: 'mem://t/m', atMs: 0, limit: 10 })).entries.map((e) => e.id)).toEqual(['kept']);
    await port.close();
  });
});
