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
import { describePortContract } from './port-contract.ts';

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
  it('opens in WAL mode with synchronous=FULL and records its schema version', async () => {
    const file = newFile();
    await (await openSqliteStore(file)).close();
    const db = new DatabaseSync(file);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(db.prepare('SELECT version, name FROM schema_version ORDER BY version').all().map((r) => r.version)).toEqual(SQLITE_MIGRATIONS.map((m) => m.version));
    db.close();
  });

  it('applies only the migrations a store lacks, and refuses a store newer than the code', async () => {
    const file = newFile();
    const next = [...SQLITE_MIGRATIONS, { version: SQLITE_MIGRATIONS.length + 1, name: 'test step', sql: 'CREATE TABLE test_step (x INTEGER)' }];
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
    const claims = await Promise.all([a, b, a, b].map((p) => p.commitments.claimFire({ tenant: 't', commitmentId: 'c', instance: 'time:1', firedAt: 1 })));
    expect(claims.filter(Boolean)).toHaveLength(1);
    for (let i = 0; i < 6; i++) await (i % 2 === 0 ? a : b).runs.appendEvent('r', (sequence) => ({ eventId: `e${i}`, runId: 'r', type: 'vendor.x', payload: {}, timestamp: '2026-01-01T00:00:00.000Z', sequence }));
    expect((await b.runs.readEvents('r')).map((e) => e.sequence)).toEqual([0, 1, 2, 3, 4, 5]);
    await a.close();
    await b.close();
  });
});
