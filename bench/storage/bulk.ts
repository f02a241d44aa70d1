/**
 * Bulk loading of a benchmark store: rows (rows.ts) written straight into the schema's tables of a store the runtime
 * created (so its schema version and settings are the runtime's own), in one transaction.
 *
 * - SQLite: one connection, prepared statements, one transaction; durability off while loading (a failed build is
 *   thrown away), the file put back in WAL mode after.
 * - PostgreSQL: one transaction of multi-row inserts, each batch one `INSERT … SELECT * FROM unnest($1::t[], …)`
 *   (column types read from the catalogue); identity sequences moved past the loaded keys; `VACUUM ANALYZE` after,
 *   as autovacuum would do once it noticed the load.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import pg from 'pg';
import type { SqlValue } from '../../runtime/storage/sql/session.ts';
import { TABLE_COLUMNS, type Row, type TableName } from './rows.ts';

/** How many rows of each table a load wrote. */
export type LoadCounts = Partial<Record<TableName, number>>;

interface Sink {
  /** Take one row; a promise when the sink must be waited for before the next. */
  add(table: TableName, values: readonly SqlValue[]): Promise<void> | undefined;
  finish(): Promise<void>;
  abort(): Promise<void>;
}

const insertSql = (table: TableName): string => {
  const cols = TABLE_COLUMNS[table];
  return `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
};

function sqliteSink(file: string): Sink {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA cache_size = -1048576; BEGIN');
  const statements = new Map<TableName, StatementSync>();
  return {
    add(table, values) {
      let st = statements.get(table);
      if (st === undefined) statements.set(table, (st = db.prepare(insertSql(table))));
      st.run(...(values as SQLInputValue[]));
      return undefined;
    },
    async finish() {
      db.exec('COMMIT');
      db.exec('PRAGMA journal_mode = WAL');
      db.close();
    },
    async abort() {
      if (db.isOpen) {
        if (db.isTransaction) db.exec('ROLLBACK');
        db.close();
      }
    },
  };
}

const PG_BATCH = 4000;

async function postgresSink(url: string): Promise<Sink> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const types = new Map<string, string>();
  for (const r of (await client.query<{ table_name: string; column_name: string; data_type: string }>('SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema()')).rows) {
    types.set(`${r.table_name}.${r.column_name}`, r.data_type);
  }
  const typeOf = (table: string, column: string): string => {
    const t = types.get(`${table}.${column}`);
    if (t === undefined) throw new Error(`bulk load: the store has no column ${table}.${column}`);
    return t;
  };
  await client.query('BEGIN');
  const buffers = new Map<TableName, SqlValue[][]>();
  const flush = async (table: TableName) => {
    const rows = buffers.get(table);
    if (rows === undefined || rows.length === 0) return;
    buffers.set(table, []);
    const cols = TABLE_COLUMNS[table];
    const arrays = cols.map((_, i) => rows.map((r) => r[i]!));
    await client.query(`INSERT INTO ${table} (${cols.join(', ')}) SELECT * FROM unnest(${cols.map((c, i) => `$${i + 1}::${typeOf(table, c)}[]`).join(', ')})`, arrays);
  };
  return {
    add(table, values) {
      let rows = buffers.get(table);
      if (rows === undefined) buffers.set(table, (rows = []));
      rows.push(values as SqlValue[]);
      return rows.length >= PG_BATCH ? flush(table) : undefined;
    },
    async finish() {
      for (const table of buffers.keys()) await flush(table);
      // Keys loaded explicitly into identity columns: the sequences must start past them.
      const identities = await client.query<{ table_name: string; column_name: string }>("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'");
      for (const { table_name: t, column_name: c } of identities.rows) {
        await client.query(`SELECT setval(pg_get_serial_sequence('${t}', '${c}'), (SELECT coalesce(max(${c}), 0) + 1 FROM ${t}), false)`);
      }
      await client.query('COMMIT');
      await client.query('VACUUM ANALYZE');
      await client.end();
    },
    async abort() {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    },
  };
}

/** Where a load writes: a SQLite file or a PostgreSQL database, already created (and migrated) by the runtime. */
export type LoadTarget = { readonly kind: 'sqlite'; readonly file: string } | { readonly kind: 'postgres'; readonly url: string };

/** Write every row into the target in one transaction; the count per table. `each` sees every row first. */
export async function loadRows(target: LoadTarget, rows: Iterable<Row>, each?: (row: Row) => void): Promise<LoadCounts> {
  const sink = target.kind === 'sqlite' ? sqliteSink(target.file) : await postgresSink(target.url);
  const counts: LoadCounts = {};
  try {
    for (const row of rows) {
      each?.(row);
      counts[row[0]] = (counts[row[0]] ?? 0) + 1;
      const wait = sink.add(row[0], row[1]);
      if (wait !== undefined) await wait;
    }
    await sink.finish();
    return counts;
  } catch (err) {
    await sink.abort();
    throw err;
  }
}
