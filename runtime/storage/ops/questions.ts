/**
 * P066 operator questions as rows: the question's record (replaced on every transition, from the state the caller
 * read, or refused as stale) and the state DTOs it went through. A tenant's pending questions count against its
 * bound; of its ended ones the newest `retained` stay readable and older ones are forgotten.
 */
import type { JsonDoc, StoredDoc } from '../port.ts';
import { StoreRefusal } from '../refusal.ts';
import { columnsOf } from '../sql/columns.ts';
import type { SqlSession } from '../sql/session.ts';

const QUESTIONS = columnsOf('questions');
const HISTORY = columnsOf('question_history');
import { bump } from './quota.ts';

export const QUOTA_OPEN_QUESTIONS = 'open-operator-questions';
/** Ended questions kept readable (not a bound a request meets: past it the oldest is forgotten). */
const QUOTA_ENDED_QUESTIONS = 'ended-operator-questions';

export interface OpenQuestionArgs {
  readonly tenant: string;
  readonly ref: string;
  readonly deadlineMs: number;
  readonly openedMs: number;
  readonly record: StoredDoc;
  readonly stateDto: StoredDoc;
  readonly limit: number;
}

/** Open a pending question; refused when the tenant has one with that ref (409) or its bound is reached (429). */
export async function openQuestion(s: SqlSession, a: OpenQuestionArgs): Promise<void> {
  const n = await s.run("INSERT INTO questions (tenant, ref, state, deadline_ms, opened_ms, ended_ms, doc) VALUES (?, ?, 'pending', ?, ?, NULL, ?) ON CONFLICT DO NOTHING", [a.tenant, a.ref, a.deadlineMs, a.openedMs, JSON.stringify(a.record)]);
  if (n !== 1) throw new StoreRefusal('question-exists', 'a question with this ref exists', { error: 'conflict', message: 'question refused: question-exists' });
  await s.run('INSERT INTO question_history (tenant, ref, n, doc) VALUES (?, ?, 0, ?)', [a.tenant, a.ref, JSON.stringify(a.stateDto)]);
  await bump(s, a.tenant, QUOTA_OPEN_QUESTIONS, '', 1, a.limit);
}

export interface TransitionQuestionArgs {
  readonly tenant: string;
  readonly ref: string;
  /** The state the caller read and decided from. */
  readonly from: string;
  readonly to: string;
  readonly atMs: number;
  readonly record: StoredDoc;
  readonly stateDto: StoredDoc;
  /** Ended questions a tenant keeps readable; the oldest beyond it are forgotten. */
  readonly retained: number;
}

/** Move a question on from the state it was read in; refused as stale when it moved meanwhile. */
export async function transitionQuestion(s: SqlSession, a: TransitionQuestionArgs): Promise<void> {
  const ending = a.from === 'pending' && a.to !== 'pending';
  const n = await s.run('UPDATE questions SET state = ?, ended_ms = coalesce(ended_ms, ?), doc = ? WHERE tenant = ? AND ref = ? AND state = ?', [a.to, ending ? a.atMs : null, JSON.stringify(a.record), a.tenant, a.ref, a.from]);
  if (n !== 1) throw new StoreRefusal('stale_read', 'the question changed since it was read');
  const last = await s.get('SELECT max(n) AS n FROM question_history WHERE tenant = ? AND ref = ?', [a.tenant, a.ref]);
  const next = (last === undefined ? null : HISTORY.intOrNull(last, 'n')) ?? -1;
  await s.run('INSERT INTO question_history (tenant, ref, n, doc) VALUES (?, ?, ?, ?)', [a.tenant, a.ref, next + 1, JSON.stringify(a.stateDto)]);
  if (!ending) return;
  await bump(s, a.tenant, QUOTA_OPEN_QUESTIONS, '', -1);
  const ended = await bump(s, a.tenant, QUOTA_ENDED_QUESTIONS, '', 1);
  if (ended <= a.retained) return;
  const forgotten = await s.all('SELECT ref FROM questions WHERE tenant = ? AND ended_ms IS NOT NULL ORDER BY ended_ms, ref', [a.tenant], ended - a.retained);
  for (const q of forgotten) {
    const ref = QUESTIONS.text(q, 'ref');
    await s.run('DELETE FROM question_history WHERE tenant = ? AND ref = ?', [a.tenant, ref]);
    await s.run('DELETE FROM questions WHERE tenant = ? AND ref = ?', [a.tenant, ref]);
  }
  await bump(s, a.tenant, QUOTA_ENDED_QUESTIONS, '', -forgotten.length);
}
