/**
 * PostgreSQL: consolidation passes, the replay journal and watermarks, operator questions (record + state history
 * in one transaction), and the append-only document logs (transcripts, traces) with gap-free positions.
 */
import type pg from 'pg';
import type { ConsolidationPassRow, ConsolidationStore, DocumentLog, JournalRow, JsonDoc, QuestionRow, QuestionStore, ReplayStore, WatermarkRow } from '../port.ts';
import { inTransaction, num, type StoreDb } from './connection.ts';
import { docText, parseDoc } from './entries.ts';

export function postgresConsolidation(pool: StoreDb): ConsolidationStore {
  return {
    async recordPass({ tenant, memoryRef, pass }) {
      await pool.query(
        // Keyed by memoryRef; the owning tenant is compared in the conflict branch (another tenant's pass is kept).
        `INSERT INTO consolidation_passes (tenant, memory_ref, doc) VALUES ($1, $2, $3)
         ON CONFLICT (memory_ref) DO UPDATE SET doc = excluded.doc WHERE consolidation_passes.tenant = excluded.tenant`,
        [tenant, memoryRef, docText(pass)],
      );
    },
    async lastPass(tenant, memoryRef) {
      const row = (await pool.query<{ doc: string }>('SELECT doc FROM consolidation_passes WHERE tenant = $1 AND memory_ref = $2', [tenant, memoryRef])).rows[0];
      return row === undefined ? undefined : parseDoc<JsonDoc>(row.doc);
    },
    async all() {
      const r = await pool.query<{ tenant: string; memory_ref: string; doc: string }>('SELECT tenant, memory_ref, doc FROM consolidation_passes ORDER BY memory_ref');
      return r.rows.map((row): ConsolidationPassRow => ({ tenant: row.tenant, memoryRef: row.memory_ref, pass: parseDoc<JsonDoc>(row.doc) }));
    },
  };
}

export function postgresReplay(pool: StoreDb): ReplayStore {
  return {
    async appendJournal({ jseq, memoryRef, record }) {
      await pool.query('INSERT INTO replay_journal (jseq, memory_ref, doc) VALUES ($1, $2, $3)', [jseq, memoryRef, docText(record)]);
    },
    async pruneJournal(throughJseq) {
      return (await pool.query('DELETE FROM replay_journal WHERE jseq <= $1', [throughJseq])).rowCount ?? 0;
    },
    async journal() {
      const r = await pool.query<{ jseq: string; memory_ref: string; doc: string }>('SELECT jseq, memory_ref, doc FROM replay_journal ORDER BY jseq');
      return r.rows.map((row): JournalRow => ({ jseq: num(row.jseq), memoryRef: row.memory_ref, record: parseDoc<JsonDoc>(row.doc) }));
    },
    async putWatermark({ runId, seq, jseq, at }) {
      await pool.query(
        'INSERT INTO replay_watermarks (run_id, seq, jseq, at) VALUES ($1, $2, $3, $4) ON CONFLICT (run_id, seq) DO UPDATE SET jseq = excluded.jseq, at = excluded.at',
        [runId, seq, jseq, at],
      );
    },
    async watermarks() {
      const r = await pool.query<{ run_id: string; seq: string; jseq: string; at: string }>('SELECT run_id, seq, jseq, at FROM replay_watermarks ORDER BY run_id, seq');
      return r.rows.map((row): WatermarkRow => ({ runId: row.run_id, seq: num(row.seq), jseq: num(row.jseq), at: num(row.at) }));
    },
    async dropWatermarks(runId) {
      return (await pool.query('DELETE FROM replay_watermarks WHERE run_id = $1', [runId])).rowCount ?? 0;
    },
  };
}

export function postgresQuestions(pool: StoreDb): QuestionStore {
  const historyOf = async (c: StoreDb | pg.PoolClient, tenant: string, ref: string): Promise<JsonDoc[]> =>
    (await c.query<{ doc: string }>('SELECT doc FROM question_history WHERE tenant = $1 AND ref = $2 ORDER BY pos', [tenant, ref])).rows.map((row) => parseDoc<JsonDoc>(row.doc));
  return {
    transition(tenant, ref, record, stateDto) {
      return inTransaction(pool, async (c) => {
        await c.query('INSERT INTO questions (tenant, ref, doc) VALUES ($1, $2, $3) ON CONFLICT (tenant, ref) DO UPDATE SET doc = excluded.doc', [tenant, ref, docText(record)]);
        await c.query('INSERT INTO question_history (tenant, ref, doc) VALUES ($1, $2, $3)', [tenant, ref, docText(stateDto)]);
      });
    },
    remove(tenant, ref) {
      return inTransaction(pool, async (c) => {
        await c.query('DELETE FROM question_history WHERE tenant = $1 AND ref = $2', [tenant, ref]);
        return (await c.query('DELETE FROM questions WHERE tenant = $1 AND ref = $2', [tenant, ref])).rowCount === 1;
      });
    },
    async get(tenant, ref) {
      const row = (await pool.query<{ doc: string }>('SELECT doc FROM questions WHERE tenant = $1 AND ref = $2', [tenant, ref])).rows[0];
      return row === undefined ? undefined : { tenant, ref, record: parseDoc<JsonDoc>(row.doc), history: await historyOf(pool, tenant, ref) };
    },
    async all() {
      // The questions first, then every history in one query (in primary-key order), grouped here, instead of one
      // query per question. A transition committed between the two shows in the history only (never a question
      // without its history); at start nothing else writes.
      const rows = (await pool.query<{ tenant: string; ref: string; doc: string }>('SELECT tenant, ref, doc FROM questions ORDER BY ord')).rows;
      const histories = new Map<string, Map<string, JsonDoc[]>>();
      for (const h of (await pool.query<{ tenant: string; ref: string; doc: string }>('SELECT tenant, ref, doc FROM question_history ORDER BY tenant, ref, pos')).rows) {
        let refs = histories.get(h.tenant);
        if (refs === undefined) histories.set(h.tenant, (refs = new Map()));
        let docs = refs.get(h.ref);
        if (docs === undefined) refs.set(h.ref, (docs = []));
        docs.push(parseDoc<JsonDoc>(h.doc));
      }
      return rows.map((row): QuestionRow => ({ tenant: row.tenant, ref: row.ref, record: parseDoc<JsonDoc>(row.doc), history: histories.get(row.tenant)?.get(row.ref) ?? [] }));
    },
  };
}

/** One named append-only log; the position comes from a counter row advanced in the same statement. */
export function postgresDocumentLog(pool: StoreDb, log: string): DocumentLog {
  return {
    async append(doc) {
      const r = await pool.query<{ pos: string }>(
        `WITH head AS (
           INSERT INTO doc_log_heads (log, next_pos) VALUES ($1, 1)
           ON CONFLICT (log) DO UPDATE SET next_pos = doc_log_heads.next_pos + 1 RETURNING next_pos - 1 AS pos
         )
         INSERT INTO doc_logs (log, pos, doc) SELECT $1, pos, $2 FROM head RETURNING pos`,
        [log, docText(doc)],
      );
      return num(r.rows[0]?.pos);
    },
    async all() {
      return (await pool.query<{ doc: string }>('SELECT doc FROM doc_logs WHERE log = $1 ORDER BY pos', [log])).rows.map((row) => parseDoc<JsonDoc>(row.doc));
    },
  };
}
