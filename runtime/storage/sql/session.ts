/**
 * One SQL connection as the store's operations and queries see it, whichever database is behind it (SQLite through
 * `node:sqlite`, PostgreSQL through `pg`). Every statement of the store is written once, with `?` placeholders; the
 * PostgreSQL session numbers them (`$1`, `$2`, …). The few places where the two dialects differ branch on `dialect`.
 *
 * Parameters are JavaScript numbers, strings and null (booleans are 0/1, times are epoch milliseconds). Rows come back
 * untyped (`Row`: whatever the driver gave for each column); a query reads each column through the typed readers of
 * `columns.ts`, which check the value's type. No method answers a row type the caller names: a row is decoded, not
 * asserted.
 *
 * A statement that may return many rows goes through `all`, whose `limit` is required and appended as `LIMIT ?` by
 * the session itself: no query of the store can read an unbounded number of rows.
 */
import { StoreRefusal } from '../refusal.ts';

export type SqlValue = string | number | null;
/** A row as the driver answers it: column name → value, of whatever type the driver gave (read it with `columns.ts`). */
export type Row = Readonly<Record<string, unknown>>;
export type Dialect = 'sqlite' | 'postgres';

export interface SqlSession {
  readonly dialect: Dialect;
  /** Run a statement that returns no rows (or whose rows are ignored); the number of rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** The first row of a statement, or undefined. */
  get(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  /** At most `limit` rows of a statement (the session appends `LIMIT ?`: write the statement without one). */
  all(sql: string, params: readonly SqlValue[], limit: number): Promise<readonly Row[]>;
  /** The rows a data-changing statement answers (`INSERT … RETURNING`): as many as the rows it changed. */
  returning(sql: string, params: readonly SqlValue[]): Promise<readonly Row[]>;
}

/** `limit` as the session passes it: a positive safe integer, or a programming error. */
export function checkedLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`a store query needs a positive integer limit, got ${limit}`);
  return limit;
}

const NUL_MESSAGE = 'a text value contains the NUL character (U+0000), which the store cannot hold';
const SURROGATE_MESSAGE = 'a text value contains a lone surrogate (half of a UTF-16 pair), which the store cannot hold as written';
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * `params`, refused when a string cannot be kept as written: U+0000 (PostgreSQL text cannot hold it — a 500 on that
 * back-end only) or a lone surrogate (both drivers send UTF-8, where it becomes U+FFFD: a tag or id stored that way
 * would match another one). Every back-end refuses them alike, before the statement runs — 400 `bad_request`,
 * nothing written. Documents are JSON text, where both are escapes and read back exactly.
 */
export function storable(params: readonly SqlValue[]): readonly SqlValue[] {
  for (const p of params) {
    if (typeof p !== 'string') continue;
    if (p.includes('\u0000')) throw new StoreRefusal('invalid_text', NUL_MESSAGE, { error: 'bad_request', message: NUL_MESSAGE });
    if (LONE_SURROGATE.test(p)) throw new StoreRefusal('invalid_text', SURROGATE_MESSAGE, { error: 'bad_request', message: SURROGATE_MESSAGE });
  }
  return params;
}

/** `?` placeholders → `$1…$n` (the store's SQL holds no `?` inside a string literal). */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
