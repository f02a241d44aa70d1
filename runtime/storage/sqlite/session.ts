/**
 * A `SqlSession` over one `node:sqlite` connection: statements prepared once per SQL text and cached for the life of
 * the connection; integer columns come back as numbers, rows as `node:sqlite` answers them (read through `columns.ts`). Also what the SQLite back-end knows of SQLite's own errors:
 * which mean the data is corrupt (the process must stop), which mean the disk cannot take a write now (retry later).
 *
 * Loaded on the writer thread too: it and everything it imports use only TypeScript that Node can strip (no
 * parameter properties, no enums), so the thread runs from source as well as from the built package.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { checkedLimit, storable, type Row, type SqlSession, type SqlValue } from '../sql/session.ts';

export class SqliteSession implements SqlSession {
  readonly dialect = 'sqlite' as const;
  readonly db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  statement(sql: string): StatementSync {
    let st = this.#statements.get(sql);
    if (st === undefined) this.#statements.set(sql, (st = this.db.prepare(sql)));
    return st;
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return Number(this.statement(sql).run(...storable(params)).changes);
  }

  async get(sql: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    return this.statement(sql).get(...storable(params));
  }

  async all(sql: string, params: readonly SqlValue[], limit: number): Promise<readonly Row[]> {
    return this.statement(`${sql} LIMIT ?`).all(...storable(params), checkedLimit(limit));
  }

  async returning(sql: string, params: readonly SqlValue[]): Promise<readonly Row[]> {
    return this.statement(sql).all(...storable(params));
  }

  /** Run SQL without a statement cache (DDL, pragmas, transaction control). */
  exec(sql: string): void {
    this.db.exec(sql);
  }
}

/** SQLite's primary result code of an error `node:sqlite` raised (`errcode` & 0xff), or undefined. */
export function sqliteCode(err: unknown): number | undefined {
  const code = (err as { errcode?: unknown } | null | undefined)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
}

/** SQLITE_CORRUPT (11), SQLITE_NOTADB (26): the file is not a sound database. */
export const isCorrupt = (err: unknown): boolean => [11, 26].includes(sqliteCode(err) ?? -1);
/** SQLITE_FULL (13), SQLITE_IOERR (10), SQLITE_CANTOPEN (14), SQLITE_READONLY (8): the disk cannot take writes now. */
export const isUnwritable = (err: unknown): boolean => [8, 10, 13, 14].includes(sqliteCode(err) ?? -1);
