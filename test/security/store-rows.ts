/**
 * What a store holds, counted row by row, for the tests that say "nothing was stored" or "the tenant's rows stop
 * growing": counting the tables themselves (not the runtime's own counters) is what makes those claims checkable.
 * Tables are read from the schema (SCHEMA_TABLES), so a table added later is counted too; a row belongs to a tenant
 * by its `tenant` column or, for the tables without one, through the row it hangs off (an event through its run, a
 * schedule's run ledger through its schedule). SQLite stores (the in-memory one included).
 */
import type { StoragePort } from '../../runtime/storage/port.ts';
import { SCHEMA_TABLES } from '../../runtime/storage/sql/schema.ts';

export type RowCounts = Readonly<Record<string, number>>;

/** Tables without a tenant column, and how their rows reach one. */
const THROUGH: Readonly<Record<string, string>> = {
  events: 'run_id IN (SELECT run_id FROM runs WHERE tenant = ?)',
  schedule_runs: 'schedule_id IN (SELECT schedule_id FROM schedules WHERE tenant = ?)',
  doc_log_heads: 'log IN (SELECT log FROM doc_logs WHERE tenant = ?)',
};
/** Tables of the store itself, never a tenant's. */
const HOST_ONLY = new Set(['meta']);

const columnsOf = async (port: StoragePort, table: string): Promise<string[]> =>
  (await port.reads.all(`SELECT name FROM pragma_table_info('${table}')`, [], 100)).map((r) => String(r.name));

/** Rows of every table of the schema. */
export async function rowCounts(port: StoragePort): Promise<RowCounts> {
  const out: Record<string, number> = {};
  for (const t of SCHEMA_TABLES) out[t] = Number((await port.reads.get(`SELECT count(*) AS n FROM ${t}`))!.n);
  return out;
}

/** Rows of every table that belong to `tenant`. */
export async function tenantRowCounts(port: StoragePort, tenant: string): Promise<RowCounts> {
  const out: Record<string, number> = {};
  for (const t of SCHEMA_TABLES) {
    if (HOST_ONLY.has(t)) continue;
    const where = (await columnsOf(port, t)).includes('tenant') ? 'tenant = ?' : THROUGH[t];
    if (where === undefined) throw new Error(`store-rows: table ${t} has no tenant column and no way to one; add it to THROUGH`);
    out[t] = Number((await port.reads.get(`SELECT count(*) AS n FROM ${t} WHERE ${where}`, [tenant]))!.n);
  }
  return out;
}

/** The sum of a count table. */
export const total = (c: RowCounts): number => Object.values(c).reduce((a, b) => a + b, 0);
