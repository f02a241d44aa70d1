/**
 * The column readers (runtime/storage/sql/columns.ts): the SQL session answers untyped rows, and every query reads
 * its columns through them. Each reader answers a value of its type as it is and refuses any other with a
 * StoreCorruptError naming the table and the column (never the value); the queries of both back-ends go through
 * them, so a row holding what the store never writes is reported as corrupt rather than passed on under a wished-for
 * type.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreCorruptError, type StoragePort } from '../../runtime/storage/port.ts';
import { openPostgresStore } from '../../runtime/storage/postgres/index.ts';
import { entryGet, entryPage } from '../../runtime/storage/reads/memory.ts';
import { eventPage, runGet } from '../../runtime/storage/reads/runs.ts';
import { agenda, dueSchedules } from '../../runtime/storage/reads/work.ts';
import { columnsOf, type Columns } from '../../runtime/storage/sql/columns.ts';
import type { Row } from '../../runtime/storage/sql/session.ts';
import { openSqliteStore } from '../../runtime/storage/sqlite/index.ts';
import { freshDatabase, type TestDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';

const T = columnsOf('things');

/** What `read` throws on `row`, or undefined when it answers. */
function thrown(read: (row: Row, column: string) => unknown, row: Row): unknown {
  try {
    read(row, 'c');
    return undefined;
  } catch (err) {
    return err;
  }
}

/** `read` refuses `value` as corrupt data of table `things`, column `c` — and the message never shows the value. */
function refuses(read: (row: Row, column: string) => unknown, value: unknown): void {
  const err = thrown(read, { c: value });
  expect(err).toBeInstanceOf(StoreCorruptError);
  const e = err as StoreCorruptError;
  expect(e.code).toBe('store_corrupt');
  expect(e.location).toBe('things');
  expect(e.message).toMatch(/^the store at things is corrupt \(column c holds /);
  if (typeof value === 'string' && value.length > 12) expect(e.message).not.toContain(value);
}

const anyValue = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.bigInt(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.uint8Array(), fc.object());
const entry = { id: 'e1', content: 'hello', tags: ['a'], createdAt: '2026-12-01T00:00:00.000Z' };
const event = { eventId: 'ev1', runId: 'r1', type: 'vendor.test', payload: { n: 1 }, timestamp: '2026-12-01T00:00:00.000Z', sequence: 0 };

/** For each reader: the values it answers (as themselves, or as the reader maps them) and what it refuses. */
const READERS: readonly { readonly name: keyof Columns; readonly accepts: (v: unknown) => boolean; readonly answer: (v: unknown) => unknown }[] = [
  { name: 'text', accepts: (v) => typeof v === 'string', answer: (v) => v },
  { name: 'textOrNull', accepts: (v) => typeof v === 'string' || v === null, answer: (v) => v },
  { name: 'optText', accepts: (v) => typeof v === 'string' || v === null, answer: (v) => v ?? undefined },
  { name: 'int', accepts: (v) => Number.isSafeInteger(v), answer: (v) => v },
  { name: 'intOrNull', accepts: (v) => Number.isSafeInteger(v) || v === null, answer: (v) => v },
  { name: 'optInt', accepts: (v) => Number.isSafeInteger(v) || v === null, answer: (v) => v ?? undefined },
  { name: 'flag', accepts: (v) => v === 0 || v === 1, answer: (v) => v === 1 },
  { name: 'key', accepts: (v) => typeof v === 'string' || Number.isSafeInteger(v), answer: (v) => v },
];

describe('column readers', () => {
  for (const { name, accepts, answer } of READERS) {
    it(`${name}: answers a value of its type, refuses any other as corrupt (table and column named)`, () => {
      const read = T[name] as (row: Row, column: string) => unknown;
      fc.assert(fc.property(anyValue, (v) => {
        if (accepts(v)) expect(read({ c: v }, 'c')).toStrictEqual(answer(v));
        else refuses(read, v);
      }), { numRuns: 300 });
    });
  }

  it('a missing column is refused like a wrong value (a query reading a column it did not select)', () => {
    expect(thrown(T.text, { other: 'x' })).toBeInstanceOf(StoreCorruptError);
    expect((thrown(T.int, {}) as Error).message).toMatch(/column c holds nothing \(no such column\) where the store keeps an integer/);
  });

  it('doc: JSON object text answers the parsed document; any other JSON, non-JSON or non-text is corrupt', () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (d) => {
      expect(T.doc({ c: JSON.stringify(d) }, 'c')).toStrictEqual(JSON.parse(JSON.stringify(d)));
    }), { numRuns: 200 });
    fc.assert(fc.property(fc.jsonValue().filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)), (v) => refuses(T.doc, JSON.stringify(v))), { numRuns: 200 });
    for (const bad of ['{"a":', 'not json', '', 7, null]) refuses(T.doc, bad);
    expect((thrown(T.doc, { c: '{"secret": "sk-live-123"' }) as Error).message).not.toContain('sk-live');
    expect((thrown(T.doc, { c: '[1,2]' }) as Error).message).toMatch(/holds a JSON array where the store keeps a JSON object document/);
    expect(T.optDoc({ c: null }, 'c')).toBeUndefined();
    expect(T.optDoc({ c: '{"a":1}' }, 'c')).toEqual({ a: 1 });
    refuses(T.optDoc, '"text"');
  });

  it('entry and event: a stored document without the members every one has is corrupt', () => {
    expect(T.entry({ c: JSON.stringify(entry) }, 'c')).toEqual(entry);
    expect(T.event({ c: JSON.stringify(event) }, 'c')).toEqual(event);
    for (const member of Object.keys(entry)) {
      const { [member]: _gone, ...rest } = entry as Record<string, unknown>;
      refuses(T.entry, JSON.stringify(rest));
      refuses(T.entry, JSON.stringify({ ...entry, [member]: 42 }));
    }
    refuses(T.entry, JSON.stringify({ ...entry, tags: ['a', 1] }));
    for (const member of Object.keys(event)) {
      const { [member]: _gone, ...rest } = event as Record<string, unknown>;
      refuses(T.event, JSON.stringify(rest));
    }
    refuses(T.event, JSON.stringify({ ...event, payload: [1] }));
  });
});

// ── Through the queries, on each back-end ──────────────────────────────────────────────────────────────────────

const root = mkdtempSync(join(tmpdir(), 'wopkit-columns-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const RUN_SQL = "INSERT INTO runs (run_id, tenant, kind, status, created_ms, ended_ms, next_seq, parent_run_id, anchor_jseq, anchor_at_ms, fixture_ref, doc) VALUES (?, 'acme', 'run', 'running', ?, NULL, 1, NULL, NULL, NULL, NULL, ?)";
const ENTRY_SQL = "INSERT INTO entries (tenant, memory_ref, id, neg_created, expires_ms, bytes, doc) VALUES ('acme', 'mem://acme/a', ?, ?, NULL, 10, ?)";
const EVENT_SQL = "INSERT INTO events (run_id, seq, jseq, at_ms, type, doc) VALUES (?, 0, 0, 0, 'vendor.test', ?)";

describe('queries decode their rows (SQLite)', () => {
  it('sound rows read back typed; a row holding what the store never writes is StoreCorruptError naming its table and column', async () => {
    const file = join(root, 'store.sqlite');
    const port = await openSqliteStore(file);
    const raw = new DatabaseSync(file);
    try {
      raw.prepare(RUN_SQL).run('good', 1_700_000_000_000, JSON.stringify({ runId: 'good' }));
      raw.prepare(RUN_SQL).run('late', 'soon', JSON.stringify({ runId: 'late' }));
      raw.prepare(RUN_SQL).run('torn', 1, '{"runId":');
      raw.prepare(ENTRY_SQL).run('e1', -1, JSON.stringify(entry));
      raw.prepare(ENTRY_SQL).run('e2', -2, JSON.stringify({ id: 'e2', tags: 'a' }));
      raw.prepare(EVENT_SQL).run('good', JSON.stringify(event));
      raw.prepare(EVENT_SQL).run('late', '[]');

      const run = await runGet(port.reads, 'good');
      expect(run).toMatchObject({ runId: 'good', tenant: 'acme', createdMs: 1_700_000_000_000, endedMs: undefined, nextSeq: 1, anchor: undefined, doc: { runId: 'good' } });
      await expect(runGet(port.reads, 'late')).rejects.toThrow(/the store at runs is corrupt \(column created_ms holds a string where the store keeps an integer\)/);
      await expect(runGet(port.reads, 'torn')).rejects.toThrow(/the store at runs is corrupt \(column doc holds text that is not JSON/);
      expect(await entryGet(port.reads, { tenant: 'acme', memoryRef: 'mem://acme/a', id: 'e1' })).toEqual(entry);
      await expect(entryGet(port.reads, { tenant: 'acme', memoryRef: 'mem://acme/a', id: 'e2' })).rejects.toThrow(StoreCorruptError);
      await expect(entryPage(port.reads, { tenant: 'acme', memoryRef: 'mem://acme/a', atMs: 0, limit: 10 })).rejects.toThrow(/at entries is corrupt \(column doc/);
      expect((await eventPage(port.reads, { runId: 'good', fromSeq: 0, limit: 10 })).events).toEqual([event]);
      await expect(eventPage(port.reads, { runId: 'late', fromSeq: 0, limit: 10 })).rejects.toThrow(/at events is corrupt \(column doc holds a JSON array/);
      const a = await agenda(port.reads);
      expect(a).toMatchObject({ commitment: null, schedule: null, predicates: 0, ended: null, fleet: null });
      expect(await dueSchedules(port.reads, { nowMs: Date.now(), limit: 5 })).toEqual([]);
      // A write operation meets the damaged row on the writer thread: the same error arrives, rebuilt from its wire form.
      raw.prepare("UPDATE runs SET ended_ms = 'never' WHERE run_id = 'good'").run();
      const update = { op: 'run.update', args: { runId: 'good', tenant: 'acme', status: 'completed' } } as const;
      const err = await port.commit([update]).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(StoreCorruptError);
      expect(err).toMatchObject({ location: 'runs', detail: 'column ended_ms holds a string where the store keeps an integer or NULL' });
    } finally {
      raw.close();
      await port.close();
    }
  });
});

const pgToolchain = toolchain('postgres');
describe.skipIf(pgToolchain.skip)(`queries decode their rows (PostgreSQL)${pgToolchain.skip ? ` — ${pgToolchain.reason}` : ''}`, () => {
  let db: TestDatabase | undefined;
  let port: StoragePort | undefined;
  afterAll(async () => {
    await port?.close();
    await db?.drop();
  });

  it('int8 columns read as numbers; a document that is not one is StoreCorruptError naming its table and column', async () => {
    db = await freshDatabase('pg_columns');
    port = await openPostgresStore(db.url);
    const pgSql = (sql: string): string => { let n = 0; return sql.replace(/\?/g, () => `$${++n}`); };
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query(pgSql(RUN_SQL), ['good', 1_700_000_000_000, JSON.stringify({ runId: 'good' })]);
      await client.query(pgSql(RUN_SQL), ['torn', 1, '{"runId":']);
      await client.query(pgSql(EVENT_SQL), ['good', JSON.stringify(event)]);
      await client.query(pgSql(EVENT_SQL), ['torn', '"text"']);
    } finally {
      await client.end();
    }
    const run = await runGet(port.reads, 'good');
    expect(run?.createdMs).toBe(1_700_000_000_000);
    expect(run?.nextSeq).toBe(1);
    await expect(runGet(port.reads, 'torn')).rejects.toThrow(/the store at runs is corrupt \(column doc holds text that is not JSON/);
    expect((await eventPage(port.reads, { runId: 'good', fromSeq: 0, limit: 10 })).events).toEqual([event]);
    await expect(eventPage(port.reads, { runId: 'torn', fromSeq: 0, limit: 10 })).rejects.toThrow(/at events is corrupt \(column doc holds JSON a string/);
    expect(await agenda(port.reads)).toMatchObject({ commitment: null, predicates: 0, fleet: null });
  });
});
