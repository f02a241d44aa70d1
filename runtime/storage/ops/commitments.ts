/**
 * RFC 0068 standing commitments as rows. Fire-once is one conditional statement: a fire moves the commitment out
 * of the state the caller read (`armed`, or a predicate commitment's recorded transition count) and inserts its
 * condition instance into the fired ledger, whose key admits one row per instance ever. Whoever gets there first —
 * on this host or another sharing the database — fires; everyone else's transaction is refused (`claim_taken`) and
 * leaves nothing behind. The fire's follow-up run and its `commitment.fired` event are written in the same
 * transaction, so a fire is never recorded without its announcement.
 */
import type { JsonDoc, StoredDoc } from '../port.ts';
import { StoreRefusal } from '../refusal.ts';
import type { SqlSession } from '../sql/session.ts';
import { bump } from './quota.ts';

export const QUOTA_COMMITMENTS = 'armed-commitments';
/**
 * Every commitment a tenant ever armed (its fired ledger holds each condition instance for good: fire-once is
 * forever), up to this many; past it new commitments are refused (429).
 */
export const QUOTA_LEDGER = 'commitment-ledger';
export const DEFAULT_LEDGER_PER_TENANT = 100_000;

/** Another process (or an earlier request) fired this instance, or the commitment moved since it was read. */
export const claimTaken = (): StoreRefusal => new StoreRefusal('claim_taken', 'this work was claimed by another request');

export interface ArmArgs {
  readonly tenant: string;
  readonly commitmentId: string;
  readonly kind: 'time' | 'predicate';
  readonly dueMs?: number;
  readonly predicateId?: string;
  readonly doc: StoredDoc;
  readonly limit: number;
  /** Commitments ever armed by the tenant (default DEFAULT_LEDGER_PER_TENANT). */
  readonly ledgerLimit?: number;
}

/**
 * Arm a commitment; false (nothing changed) when it is known already — armed, fired or cancelled: a commitment id is
 * deterministic from its source and condition, so arming it again is the same commitment.
 */
export async function armCommitment(s: SqlSession, a: ArmArgs): Promise<boolean> {
  const n = await s.run(
    "INSERT INTO commitments (tenant, commitment_id, kind, due_ms, predicate_id, state, pred_last, pred_transitions, doc) VALUES (?, ?, ?, ?, ?, 'armed', 0, 0, ?) ON CONFLICT (tenant, commitment_id) DO NOTHING",
    [a.tenant, a.commitmentId, a.kind, a.dueMs ?? null, a.predicateId ?? null, JSON.stringify(a.doc)],
  );
  if (n === 0) return false;
  await bump(s, a.tenant, QUOTA_COMMITMENTS, '', 1, a.limit);
  await bump(s, a.tenant, QUOTA_LEDGER, '', 1, a.ledgerLimit ?? DEFAULT_LEDGER_PER_TENANT);
  // A commitment armed on a predicate is looked at by the next evaluation (a predicate already true fires it).
  if (a.predicateId !== undefined) await s.run('INSERT INTO predicates (tenant, predicate_id, value, dirty) VALUES (?, ?, 0, 1) ON CONFLICT (tenant, predicate_id) DO UPDATE SET dirty = 1', [a.tenant, a.predicateId]);
  return true;
}

/** Cancel an armed commitment (its fired ledger stays); whether it was armed. */
export async function cancelCommitment(s: SqlSession, a: { readonly tenant: string; readonly commitmentId: string }): Promise<boolean> {
  const n = await s.run("UPDATE commitments SET state = 'cancelled' WHERE tenant = ? AND commitment_id = ? AND state = 'armed'", [a.tenant, a.commitmentId]);
  if (n === 1) await bump(s, a.tenant, QUOTA_COMMITMENTS, '', -1);
  return n === 1;
}

export interface FireArgs {
  readonly tenant: string;
  readonly commitmentId: string;
  /** `time:<ms>` or `predicate:<n>`. */
  readonly instance: string;
  readonly firedMs: number;
  /** A time commitment fires once ever: it leaves the armed set. */
  readonly disarm: boolean;
  /** A predicate commitment: the transition count the caller read (the fire records count + 1). */
  readonly transitionsRead?: number;
  readonly runId?: string;
}

/** Claim one condition instance: refused (`claim_taken`) unless this request is the first, ever. */
export async function fireCommitment(s: SqlSession, a: FireArgs): Promise<void> {
  const moved = a.disarm
    ? await s.run("UPDATE commitments SET state = 'fired' WHERE tenant = ? AND commitment_id = ? AND state = 'armed'", [a.tenant, a.commitmentId])
    : await s.run(
      "UPDATE commitments SET pred_last = 1, pred_transitions = pred_transitions + 1 WHERE tenant = ? AND commitment_id = ? AND state = 'armed' AND pred_last = 0 AND pred_transitions = ?",
      [a.tenant, a.commitmentId, a.transitionsRead ?? 0],
    );
  if (moved !== 1) throw claimTaken();
  const inserted = await s.run('INSERT INTO commitment_fires (tenant, commitment_id, instance, fired_ms, run_id) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING', [a.tenant, a.commitmentId, a.instance, a.firedMs, a.runId ?? null]);
  if (inserted !== 1) throw claimTaken();
  if (a.disarm) await bump(s, a.tenant, QUOTA_COMMITMENTS, '', -1);
}

/** A predicate turned false for a commitment that was held true: it re-arms for the next transition. */
export async function releasePredicate(s: SqlSession, a: { readonly tenant: string; readonly commitmentId: string; readonly transitionsRead: number }): Promise<void> {
  const n = await s.run("UPDATE commitments SET pred_last = 0 WHERE tenant = ? AND commitment_id = ? AND state = 'armed' AND pred_last = 1 AND pred_transitions = ?", [a.tenant, a.commitmentId, a.transitionsRead]);
  if (n !== 1) throw claimTaken();
}

/** Set a tenant's predicate value; a change marks it for evaluation. */
export async function setPredicate(s: SqlSession, a: { readonly tenant: string; readonly predicateId: string; readonly value: boolean }): Promise<void> {
  const v = a.value ? 1 : 0;
  await s.run('INSERT INTO predicates (tenant, predicate_id, value, dirty) VALUES (?, ?, ?, 1) ON CONFLICT (tenant, predicate_id) DO UPDATE SET value = excluded.value, dirty = CASE WHEN predicates.value = excluded.value THEN predicates.dirty ELSE 1 END', [a.tenant, a.predicateId, v]);
}

/** A predicate was evaluated at `value`: clean, unless its value changed since (then the next evaluation sees it). */
export async function cleanPredicate(s: SqlSession, a: { readonly tenant: string; readonly predicateId: string; readonly value: boolean }): Promise<void> {
  await s.run('UPDATE predicates SET dirty = 0 WHERE tenant = ? AND predicate_id = ? AND value = ?', [a.tenant, a.predicateId, a.value ? 1 : 0]);
}
