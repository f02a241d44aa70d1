/**
 * PostgreSQL: the commitment armed set and fired ledger (fire-once as a conditional insert), and distillation
 * schedules with their run ledger (one run per slot as a conditional insert). Both claims are single statements:
 * the primary key decides the one winner across every process sharing the database.
 */
import type { ArmedCommitmentRow, CommitmentStore, FiredRow, JsonDoc, ScheduleRow, ScheduleRunRow, ScheduleStore } from '../port.ts';
import { inTransaction, num, type StoreDb } from './connection.ts';
import { docText, parseDoc } from './entries.ts';

interface ArmedSql {
  tenant: string;
  commitment_id: string;
  doc: string;
  arm_seq: string;
  predicate_last: boolean | null;
  predicate_transitions: number | null;
}

const armedRow = (r: ArmedSql): ArmedCommitmentRow => ({
  tenant: r.tenant,
  commitmentId: r.commitment_id,
  commitment: parseDoc<JsonDoc>(r.doc),
  armSeq: num(r.arm_seq),
  ...(r.predicate_last !== null ? { predicate: { last: r.predicate_last, transitions: r.predicate_transitions ?? 0 } } : {}),
});

export function postgresCommitments(pool: StoreDb): CommitmentStore {
  return {
    async arm({ tenant, commitmentId, commitment }) {
      const r = await pool.query('INSERT INTO commitments_armed (tenant, commitment_id, doc) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [tenant, commitmentId, docText(commitment)]);
      return r.rowCount === 1;
    },
    async disarm(tenant, commitmentId) {
      return (await pool.query('DELETE FROM commitments_armed WHERE tenant = $1 AND commitment_id = $2', [tenant, commitmentId])).rowCount === 1;
    },
    async listArmed() {
      return (await pool.query<ArmedSql>('SELECT tenant, commitment_id, doc, arm_seq, predicate_last, predicate_transitions FROM commitments_armed ORDER BY arm_seq')).rows.map(armedRow);
    },
    async setPredicateState(tenant, commitmentId, { last, transitions }) {
      await pool.query('UPDATE commitments_armed SET predicate_last = $3, predicate_transitions = $4 WHERE tenant = $1 AND commitment_id = $2', [tenant, commitmentId, last, transitions]);
    },
    async claimFire({ tenant, commitmentId, instance, firedAt, disarm = false, commitment }) {
      // One statement: the ledger insert wins for exactly one caller; only the winner disarms.
      const r = await pool.query<{ claimed: string }>(
        `WITH claimed AS (
           INSERT INTO commitments_fired (tenant, commitment_id, instance, fired_at, doc) VALUES ($1, $2, $3, $4, $6)
           ON CONFLICT DO NOTHING RETURNING 1
         ), disarmed AS (
           DELETE FROM commitments_armed WHERE $5 AND tenant = $1 AND commitment_id = $2 AND EXISTS (SELECT 1 FROM claimed)
         )
         SELECT count(*) AS claimed FROM claimed`,
        [tenant, commitmentId, instance, firedAt, disarm, commitment === undefined ? null : docText(commitment)],
      );
      return num(r.rows[0]?.claimed) === 1;
    },
    async hasFired(tenant, commitmentId, instance) {
      const r = await pool.query('SELECT 1 FROM commitments_fired WHERE tenant = $1 AND commitment_id = $2 AND instance = $3', [tenant, commitmentId, instance]);
      return r.rowCount === 1;
    },
    async listFired() {
      const r = await pool.query<{ tenant: string; commitment_id: string; instance: string; fired_at: string; doc: string | null }>('SELECT tenant, commitment_id, instance, fired_at, doc FROM commitments_fired ORDER BY ord');
      return r.rows.map((row): FiredRow => ({ tenant: row.tenant, commitmentId: row.commitment_id, instance: row.instance, firedAt: num(row.fired_at), ...(row.doc !== null ? { commitment: parseDoc<JsonDoc>(row.doc) } : {}) }));
    },
  };
}

export function postgresSchedules(pool: StoreDb): ScheduleStore {
  return {
    async put({ scheduleId, tenant, schedule }) {
      await pool.query(
        'INSERT INTO schedules (schedule_id, tenant, doc) VALUES ($1, $2, $3) ON CONFLICT (schedule_id) DO UPDATE SET tenant = excluded.tenant, doc = excluded.doc',
        [scheduleId, tenant, docText(schedule)],
      );
    },
    remove(scheduleId) {
      return inTransaction(pool, async (c) => {
        await c.query('DELETE FROM schedule_runs WHERE schedule_id = $1', [scheduleId]);
        return (await c.query('DELETE FROM schedules WHERE schedule_id = $1', [scheduleId])).rowCount === 1;
      });
    },
    async list() {
      const r = await pool.query<{ schedule_id: string; tenant: string; doc: string; last_slot: string | null }>(
        `SELECT s.schedule_id, s.tenant, s.doc, (SELECT max(slot) FROM schedule_runs r WHERE r.schedule_id = s.schedule_id) AS last_slot
         FROM schedules s ORDER BY s.ord`,
      );
      return r.rows.map((row): ScheduleRow => ({
        scheduleId: row.schedule_id,
        tenant: row.tenant,
        schedule: parseDoc<JsonDoc>(row.doc),
        ...(row.last_slot !== null ? { lastSlot: num(row.last_slot) } : {}),
      }));
    },
    async claimRun(scheduleId, slot) {
      return (await pool.query('INSERT INTO schedule_runs (schedule_id, slot) VALUES ($1, $2) ON CONFLICT DO NOTHING', [scheduleId, slot])).rowCount === 1;
    },
    async recordOutcome(scheduleId, slot, outcome) {
      await pool.query(
        'INSERT INTO schedule_runs (schedule_id, slot, outcome) VALUES ($1, $2, $3) ON CONFLICT (schedule_id, slot) DO UPDATE SET outcome = excluded.outcome',
        [scheduleId, slot, docText(outcome)],
      );
    },
    async runs(scheduleId) {
      const r = await pool.query<{ slot: string; outcome: string | null }>('SELECT slot, outcome FROM schedule_runs WHERE schedule_id = $1 ORDER BY slot', [scheduleId]);
      return r.rows.map((row): ScheduleRunRow => ({ scheduleId, slot: num(row.slot), ...(row.outcome !== null ? { outcome: parseDoc<JsonDoc>(row.outcome) } : {}) }));
    },
  };
}
