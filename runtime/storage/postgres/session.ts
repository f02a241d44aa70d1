/**
 * A `SqlSession` over `pg`: the store's `?` placeholders numbered, int8 columns parsed as numbers (every value the
 * store keeps is below 2^53), `all` bounded by its required limit. Also what the back-end knows of PostgreSQL's
 * errors: which mean the data is corrupt, which mean the server cannot take the write now (retry later), which mean
 * the transaction lost a race and may simply be run again.
 */
import pg from 'pg';
import { checkedLimit, numberPlaceholders, storable, type Row, type SqlSession, type SqlValue } from '../sql/session.ts';

/** Runs SQL: the pool (one statement, autocommit) or the client of an open transaction. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

/** int8 (20) and numeric-count results as JavaScript numbers; everything else as `pg` parses it. */
export const PG_TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => (oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'))) as pg.CustomTypesConfig['getTypeParser'],
};

const texts = new Map<string, string>();
const pgText = (sql: string): string => {
  let t = texts.get(sql);
  if (t === undefined) texts.set(sql, (t = numberPlaceholders(sql)));
  return t;
};

export class PgSession implements SqlSession {
  readonly dialect = 'postgres' as const;
  readonly #q: Queryable;

  constructor(q: Queryable) {
    this.#q = q;
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return (await this.#q.query(pgText(sql), [...storable(params)])).rowCount ?? 0;
  }

  async get(sql: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    const { rows } = await this.#q.query<Row>(pgText(sql), [...storable(params)]);
    return rows[0];
  }

  async all(sql: string, params: readonly SqlValue[], limit: number): Promise<readonly Row[]> {
    return (await this.#q.query<Row>(pgText(`${sql} LIMIT ?`), [...storable(params), checkedLimit(limit)])).rows;
  }

  async returning(sql: string, params: readonly SqlValue[]): Promise<readonly Row[]> {
    return (await this.#q.query<Row>(pgText(sql), [...storable(params)])).rows;
  }

  /** Run SQL text as it is (DDL, several statements, transaction control). */
  async exec(sql: string): Promise<void> {
    await this.#q.query(sql);
  }
}

/** The SQLSTATE of a server error, or the Node error code of a connection failure. */
const codeOf = (err: unknown): string => String((err as { code?: unknown } | null | undefined)?.code ?? '');

/** The data is damaged (data_corrupted, index_corrupted). */
export const isPgCorrupt = (err: unknown): boolean => ['XX001', 'XX002'].includes(codeOf(err));

/**
 * The transaction lost a race (serialization failure, deadlock, or a unique key another transaction inserted between
 * an operation's look and its insert — every operation looks first): running it again is safe, and it then sees the
 * other transaction's row.
 */
export const isPgRetryable = (err: unknown): boolean => ['40001', '40P01', '23505'].includes(codeOf(err));

/**
 * The server cannot take the write now, and the client should come back: a full disk or memory, a shutdown, a lost
 * connection, a database not accepting connections, a lock not granted within lock_timeout, a statement past
 * statement_timeout, a session killed for idling in a transaction, a client whose connection failed earlier.
 */
export function isPgUnavailable(err: unknown): boolean {
  const code = codeOf(err);
  return /^(08|53|57P)/.test(code) || ['55P03', '57014', '25P03', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code)
    || /Connection terminated|not queryable|timeout exceeded when trying to connect|is not currently accepting connections/i.test(String((err as Error | undefined)?.message ?? ''));
}
