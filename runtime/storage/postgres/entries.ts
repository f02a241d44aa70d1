/**
 * PostgreSQL: memory entries (tenant stored and checked in every statement, CTI-1) and runs with their event logs
 * (gap-free sequences from a per-run counter row, locked by the UPDATE that advances it).
 */
import type { RunEvent } from '../../../generated/ts/index.ts';
import type { JsonDoc, MemoryEntryRow, MemoryEntryStore, RunRow, RunStore, StoredMemoryEntry } from '../port.ts';
import { inTransaction, num, type StoreDb } from './connection.ts';

export const docText = (doc: unknown): string => JSON.stringify(doc);
export const parseDoc = <T>(text: string): T => JSON.parse(text) as T;

export function postgresMemoryEntries(pool: StoreDb): MemoryEntryStore {
  return {
    async upsert(tenant, memoryRef, entry) {
      // The tenant check is the WHERE of the conflict branch: another tenant's entry under the same key is left
      // untouched (the port's rule: a write never reaches another tenant's rows).
      await pool.query(
        `INSERT INTO memory_entries (memory_ref, id, tenant, doc) VALUES ($1, $2, $3, $4)
         ON CONFLICT (memory_ref, id) DO UPDATE SET doc = excluded.doc WHERE memory_entries.tenant = excluded.tenant`,
        [memoryRef, entry.id, tenant, docText(entry)],
      );
    },
    async remove(tenant, memoryRef, id) {
      const r = await pool.query('DELETE FROM memory_entries WHERE tenant = $1 AND memory_ref = $2 AND id = $3', [tenant, memoryRef, id]);
      return r.rowCount === 1;
    },
    async get(tenant, memoryRef, id) {
      const r = await pool.query<{ doc: string }>('SELECT doc FROM memory_entries WHERE tenant = $1 AND memory_ref = $2 AND id = $3', [tenant, memoryRef, id]);
      const row = r.rows[0];
      return row === undefined ? undefined : parseDoc<StoredMemoryEntry>(row.doc);
    },
    async list(tenant, memoryRef) {
      const r = await pool.query<{ doc: string }>('SELECT doc FROM memory_entries WHERE tenant = $1 AND memory_ref = $2 ORDER BY id', [tenant, memoryRef]);
      return r.rows.map((row) => parseDoc<StoredMemoryEntry>(row.doc));
    },
    async all() {
      const r = await pool.query<{ tenant: string; memory_ref: string; doc: string }>('SELECT tenant, memory_ref, doc FROM memory_entries ORDER BY memory_ref, id');
      return r.rows.map((row): MemoryEntryRow => ({ tenant: row.tenant, memoryRef: row.memory_ref, entry: parseDoc<StoredMemoryEntry>(row.doc) }));
    },
  };
}

export function postgresRuns(pool: StoreDb): RunStore {
  return {
    async putRun({ runId, tenant, record }) {
      await pool.query(
        'INSERT INTO runs (run_id, tenant, doc) VALUES ($1, $2, $3) ON CONFLICT (run_id) DO UPDATE SET tenant = excluded.tenant, doc = excluded.doc',
        [runId, tenant, docText(record)],
      );
    },
    async removeRun(runId) {
      return (await pool.query('DELETE FROM runs WHERE run_id = $1', [runId])).rowCount === 1;
    },
    async runs() {
      const r = await pool.query<{ run_id: string; tenant: string; doc: string }>('SELECT run_id, tenant, doc FROM runs ORDER BY ord');
      return r.rows.map((row): RunRow => ({ runId: row.run_id, tenant: row.tenant, record: parseDoc<JsonDoc>(row.doc) }));
    },
    appendEvent(runId, build) {
      return inTransaction(pool, async (c) => {
        // Upserting the counter row takes its row lock until COMMIT: concurrent appends to one run (any process)
        // queue here, and a rolled-back append gives its sequence back.
        const head = await c.query<{ seq: string }>(
          `INSERT INTO event_logs (run_id, next_seq) VALUES ($1, 1)
           ON CONFLICT (run_id) DO UPDATE SET next_seq = event_logs.next_seq + 1 RETURNING next_seq - 1 AS seq`,
          [runId],
        );
        const sequence = num(head.rows[0]?.seq);
        const event = build(sequence);
        if (event.runId !== runId || event.sequence !== sequence) {
          throw new RangeError(`appendEvent(${runId}): the event must carry runId ${runId} and sequence ${sequence}, got ${event.runId} / ${event.sequence}`);
        }
        await c.query('INSERT INTO run_events (run_id, seq, doc) VALUES ($1, $2, $3)', [runId, sequence, docText(event)]);
        return event;
      });
    },
    async readEvents(runId, fromSeq = 0) {
      const r = await pool.query<{ doc: string }>('SELECT doc FROM run_events WHERE run_id = $1 AND seq >= $2 ORDER BY seq', [runId, fromSeq]);
      return r.rows.map((row) => parseDoc<RunEvent>(row.doc));
    },
    async lastSequence(runId) {
      const r = await pool.query<{ next_seq: string }>('SELECT next_seq FROM event_logs WHERE run_id = $1', [runId]);
      const row = r.rows[0];
      return row === undefined ? -1 : num(row.next_seq) - 1;
    },
    async eventRunIds() {
      return (await pool.query<{ run_id: string }>('SELECT run_id FROM event_logs ORDER BY ord')).rows.map((row) => row.run_id);
    },
    dropEvents(runId) {
      return inTransaction(pool, async (c) => {
        await c.query('DELETE FROM run_events WHERE run_id = $1', [runId]);
        return (await c.query('DELETE FROM event_logs WHERE run_id = $1', [runId])).rowCount === 1;
      });
    },
  };
}
