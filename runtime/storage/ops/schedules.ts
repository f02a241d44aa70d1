/**
 * RFC 0062 distillation schedules as rows. One run per slot is one conditional statement: taking a slot moves the
 * schedule's `next_at` on from the value the caller read and records the slot in the ledger, whose key admits it
 * once; a second taker (another host, a concurrent tick) is refused (`claim_taken`) and writes nothing. The slot's
 * distillation and its outcome are written in the same transaction as the claim.
 */
import type { JsonDoc, StoredDoc } from '../port.ts';
import type { SqlSession } from '../sql/session.ts';
import { claimTaken } from './commitments.ts';
import { bump } from './quota.ts';

export const QUOTA_SCHEDULES = 'distillation-schedules';
/** Slots of a schedule's ledger kept (the newest); older ones are dropped as new ones are taken. */
export const SCHEDULE_LEDGER_KEPT = 64;

export interface PutScheduleArgs {
  readonly scheduleId: string;
  readonly tenant: string;
  readonly memoryRef: string;
  readonly nextAt: number;
  readonly createdMs: number;
  readonly doc: StoredDoc;
  readonly limit: number;
}

/** Register a schedule (counted against its tenant's bound). */
export async function putSchedule(s: SqlSession, a: PutScheduleArgs): Promise<void> {
  await s.run('INSERT INTO schedules (schedule_id, tenant, memory_ref, next_at, created_ms, last_slot, last_outcome, doc) VALUES (?, ?, ?, ?, ?, NULL, NULL, ?)', [a.scheduleId, a.tenant, a.memoryRef, a.nextAt, a.createdMs, JSON.stringify(a.doc)]);
  await bump(s, a.tenant, QUOTA_SCHEDULES, '', 1, a.limit);
}

/** Remove a schedule and its ledger; whether it existed. */
export async function removeSchedule(s: SqlSession, a: { readonly tenant: string; readonly scheduleId: string }): Promise<boolean> {
  const n = await s.run('DELETE FROM schedules WHERE schedule_id = ? AND tenant = ?', [a.scheduleId, a.tenant]);
  if (n === 0) return false;
  await s.run('DELETE FROM schedule_runs WHERE schedule_id = ?', [a.scheduleId]);
  await bump(s, a.tenant, QUOTA_SCHEDULES, '', -1);
  return true;
}

export interface TakeSlotArgs {
  readonly scheduleId: string;
  /** The `next_at` the caller read: the claim holds only if nobody moved it since. */
  readonly nextAtRead: number;
  readonly slot: number;
  readonly nextAt: number;
  readonly doc: StoredDoc;
}

/** Take a slot of a schedule: refused (`claim_taken`) unless this request is the first to take it. */
export async function takeSlot(s: SqlSession, a: TakeSlotArgs): Promise<void> {
  const moved = await s.run('UPDATE schedules SET next_at = ?, last_slot = ?, doc = ? WHERE schedule_id = ? AND next_at = ?', [a.nextAt, a.slot, JSON.stringify(a.doc), a.scheduleId, a.nextAtRead]);
  if (moved !== 1) throw claimTaken();
  const inserted = await s.run('INSERT INTO schedule_runs (schedule_id, slot, outcome) VALUES (?, ?, NULL) ON CONFLICT DO NOTHING', [a.scheduleId, a.slot]);
  if (inserted !== 1) throw claimTaken();
  await s.run(
    `DELETE FROM schedule_runs WHERE schedule_id = ? AND slot < (SELECT min(slot) FROM (SELECT slot FROM schedule_runs WHERE schedule_id = ? ORDER BY slot DESC LIMIT ${SCHEDULE_LEDGER_KEPT}) kept)`,
    [a.scheduleId, a.scheduleId],
  );
}

/** Record what a taken slot's run did (the outcome document, content-free). */
export async function recordOutcome(s: SqlSession, a: { readonly scheduleId: string; readonly slot: number; readonly outcome: StoredDoc }): Promise<void> {
  const text = JSON.stringify(a.outcome);
  await s.run('UPDATE schedule_runs SET outcome = ? WHERE schedule_id = ? AND slot = ?', [text, a.scheduleId, a.slot]);
  await s.run('UPDATE schedules SET last_outcome = ? WHERE schedule_id = ? AND last_slot = ?', [text, a.scheduleId, a.slot]);
}
