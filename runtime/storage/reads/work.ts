/**
 * Queries of the store's background work — what is due now — and of the records that work runs on: armed
 * commitments and predicates (RFC 0068), distillation schedules (RFC 0062), operator questions (P066). Each "due"
 * query reads the oldest due rows through an index on their due time; whoever commits the claim first does the work.
 */
import { StoreCorruptError } from '../corrupt.ts';
import type { JsonDoc } from '../port.ts';
import { columnsOf } from '../sql/columns.ts';
import type { Row, SqlSession } from '../sql/session.ts';

const COMMITMENTS = columnsOf('commitments');
const PREDICATES = columnsOf('predicates');
const FIRES = columnsOf('commitment_fires');
const SCHEDULES = columnsOf('schedules');
const QUESTIONS = columnsOf('questions');
const HISTORY = columnsOf('question_history');
const AGENDA = columnsOf('agenda');

// ── Commitments ─────────────────────────────────────────────────────────────────────────────────────────────────

export interface ArmedCommitment {
  readonly tenant: string;
  readonly commitmentId: string;
  readonly armSeq: number;
  readonly predLast: boolean;
  readonly predTransitions: number;
  readonly doc: JsonDoc;
}

const commitmentOf = (r: Row): ArmedCommitment => ({
  tenant: COMMITMENTS.text(r, 'tenant'),
  commitmentId: COMMITMENTS.text(r, 'commitment_id'),
  armSeq: COMMITMENTS.int(r, 'arm_seq'),
  predLast: COMMITMENTS.int(r, 'pred_last') === 1,
  predTransitions: COMMITMENTS.int(r, 'pred_transitions'),
  doc: COMMITMENTS.doc(r, 'doc'),
});

const COMMITMENT = 'tenant, commitment_id, arm_seq, pred_last, pred_transitions, doc';

/** Armed time commitments due at `nowMs`, in due order (then arming order). */
export async function dueCommitments(s: SqlSession, a: { readonly nowMs: number; readonly limit: number }): Promise<ArmedCommitment[]> {
  const rows = await s.all(`SELECT ${COMMITMENT} FROM commitments WHERE state = 'armed' AND kind = 'time' AND due_ms <= ? ORDER BY due_ms, arm_seq`, [a.nowMs], a.limit);
  return rows.map(commitmentOf);
}

/** When the next armed time commitment falls due, if one is armed. */
export async function nextCommitmentDue(s: SqlSession): Promise<number | undefined> {
  const r = await s.get("SELECT due_ms FROM commitments WHERE state = 'armed' AND kind = 'time' ORDER BY due_ms LIMIT 1");
  return r === undefined ? undefined : COMMITMENTS.int(r, 'due_ms');
}

/** A tenant's armed predicate commitments on one predicate, in arming order. */
export async function armedOnPredicate(s: SqlSession, a: { readonly tenant: string; readonly predicateId: string; readonly limit: number }): Promise<ArmedCommitment[]> {
  const rows = await s.all(
    `SELECT ${COMMITMENT} FROM commitments WHERE tenant = ? AND predicate_id = ? AND state = 'armed' AND kind = 'predicate' ORDER BY arm_seq`,
    [a.tenant, a.predicateId],
    a.limit,
  );
  return rows.map(commitmentOf);
}

export async function commitmentGet(s: SqlSession, a: { readonly tenant: string; readonly commitmentId: string }): Promise<(ArmedCommitment & { readonly state: string }) | undefined> {
  const r = await s.get(`SELECT ${COMMITMENT}, state FROM commitments WHERE tenant = ? AND commitment_id = ?`, [a.tenant, a.commitmentId]);
  return r === undefined ? undefined : { ...commitmentOf(r), state: COMMITMENTS.text(r, 'state') };
}

export async function predicateValue(s: SqlSession, a: { readonly tenant: string; readonly predicateId: string }): Promise<boolean> {
  const r = await s.get('SELECT value FROM predicates WHERE tenant = ? AND predicate_id = ?', [a.tenant, a.predicateId]);
  return r !== undefined && PREDICATES.int(r, 'value') === 1;
}

/** Predicates whose value changed (or that got a commitment armed) since their commitments were last evaluated. */
export async function dirtyPredicates(s: SqlSession, a: { readonly limit: number }): Promise<{ readonly tenant: string; readonly predicateId: string; readonly value: boolean }[]> {
  const rows = await s.all('SELECT tenant, predicate_id, value FROM predicates WHERE dirty = 1 ORDER BY tenant, predicate_id', [], a.limit);
  return rows.map((r) => ({ tenant: PREDICATES.text(r, 'tenant'), predicateId: PREDICATES.text(r, 'predicate_id'), value: PREDICATES.int(r, 'value') === 1 }));
}

/** Whether a condition instance is in the fired ledger. */
export async function hasFired(s: SqlSession, a: { readonly tenant: string; readonly commitmentId: string; readonly instance: string }): Promise<boolean> {
  return (await s.get('SELECT 1 AS x FROM commitment_fires WHERE tenant = ? AND commitment_id = ? AND instance = ?', [a.tenant, a.commitmentId, a.instance])) !== undefined;
}

// ── Distillation schedules ──────────────────────────────────────────────────────────────────────────────────────

export interface ScheduleRecord {
  readonly scheduleId: string;
  readonly tenant: string;
  readonly nextAt: number;
  readonly lastSlot: number | undefined;
  readonly lastOutcome: JsonDoc | undefined;
  readonly doc: JsonDoc;
}

const scheduleOf = (r: Row): ScheduleRecord => ({
  scheduleId: SCHEDULES.text(r, 'schedule_id'),
  tenant: SCHEDULES.text(r, 'tenant'),
  nextAt: SCHEDULES.int(r, 'next_at'),
  lastSlot: SCHEDULES.optInt(r, 'last_slot'),
  lastOutcome: SCHEDULES.optDoc(r, 'last_outcome'),
  doc: SCHEDULES.doc(r, 'doc'),
});

const SCHEDULE = 'schedule_id, tenant, next_at, last_slot, last_outcome, doc';

export async function scheduleGet(s: SqlSession, scheduleId: string): Promise<ScheduleRecord | undefined> {
  const r = await s.get(`SELECT ${SCHEDULE} FROM schedules WHERE schedule_id = ?`, [scheduleId]);
  return r === undefined ? undefined : scheduleOf(r);
}

/** Schedules due at `nowMs`, in due order. */
export async function dueSchedules(s: SqlSession, a: { readonly nowMs: number; readonly tenant?: string; readonly limit: number }): Promise<ScheduleRecord[]> {
  const rows = a.tenant === undefined
    ? await s.all(`SELECT ${SCHEDULE} FROM schedules WHERE next_at <= ? ORDER BY next_at, schedule_id`, [a.nowMs], a.limit)
    : await s.all(`SELECT ${SCHEDULE} FROM schedules WHERE tenant = ? AND next_at <= ? ORDER BY next_at, schedule_id`, [a.tenant, a.nowMs], a.limit);
  return rows.map(scheduleOf);
}

/** When the next schedule falls due, if one exists. */
export async function nextScheduleDue(s: SqlSession): Promise<number | undefined> {
  const r = await s.get('SELECT next_at FROM schedules ORDER BY next_at LIMIT 1');
  return r === undefined ? undefined : SCHEDULES.int(r, 'next_at');
}

// ── Operator questions ──────────────────────────────────────────────────────────────────────────────────────────

export interface QuestionRecordRow {
  readonly tenant: string;
  readonly ref: string;
  readonly state: string;
  readonly doc: JsonDoc;
}

const questionOf = (r: Row): QuestionRecordRow => ({ tenant: QUESTIONS.text(r, 'tenant'), ref: QUESTIONS.text(r, 'ref'), state: QUESTIONS.text(r, 'state'), doc: QUESTIONS.doc(r, 'doc') });

export async function questionGet(s: SqlSession, a: { readonly tenant: string; readonly ref: string }): Promise<QuestionRecordRow | undefined> {
  const r = await s.get('SELECT tenant, ref, state, doc FROM questions WHERE tenant = ? AND ref = ?', [a.tenant, a.ref]);
  return r === undefined ? undefined : questionOf(r);
}

/** The state DTOs a question went through, oldest first. */
export async function questionHistory(s: SqlSession, a: { readonly tenant: string; readonly ref: string; readonly limit: number }): Promise<JsonDoc[]> {
  return (await s.all('SELECT doc FROM question_history WHERE tenant = ? AND ref = ? ORDER BY n', [a.tenant, a.ref], a.limit)).map((r) => HISTORY.doc(r, 'doc'));
}

/** Pending questions whose deadline passed at `nowMs`, oldest deadline first. */
export async function overdueQuestions(s: SqlSession, a: { readonly nowMs: number; readonly limit: number }): Promise<QuestionRecordRow[]> {
  const rows = await s.all("SELECT tenant, ref, state, doc FROM questions WHERE state = 'pending' AND deadline_ms <= ? ORDER BY deadline_ms", [a.nowMs], a.limit);
  return rows.map(questionOf);
}

/** When the next pending question's deadline falls, if one is pending. */
export async function nextQuestionDeadline(s: SqlSession): Promise<number | undefined> {
  const r = await s.get("SELECT deadline_ms FROM questions WHERE state = 'pending' ORDER BY deadline_ms LIMIT 1");
  return r === undefined ? undefined : QUESTIONS.int(r, 'deadline_ms');
}

/** A tenant's pending questions (supersession looks at them), oldest first. */
export async function pendingQuestionsOf(s: SqlSession, a: { readonly tenant: string; readonly limit: number }): Promise<QuestionRecordRow[]> {
  const rows = await s.all("SELECT tenant, ref, state, doc FROM questions WHERE tenant = ? AND state = 'pending' ORDER BY opened_ms, ref", [a.tenant], a.limit);
  return rows.map(questionOf);
}

// ── The agenda: when each kind of background work falls due next ───────────────────────────────────────────────

/** The earliest instant (epoch ms) each kind of background work is due at, or null when none is pending. */
export interface Agenda {
  readonly commitment: number | null;
  readonly schedule: number | null;
  readonly question: number | null;
  readonly expiry: number | null;
  /** Some predicate changed since its commitments were evaluated (1), or none did (0). */
  readonly predicates: number;
  readonly journal: number | null;
  readonly registry: number | null;
  readonly ended: number | null;
  readonly liveSince: number | null;
  readonly claim: number | null;
  /** The oldest Inquirium transcript fact, and the oldest turn trace (each the first of its log by position). */
  readonly transcript: number | null;
  readonly traces: number | null;
  /** The fleet's record of accepted credentials (`meta` fleet.credentials, JSON), or null. */
  readonly fleet: string | null;
}

/**
 * Everything a host's background work needs to know to sleep until something is due — in ONE statement, each part
 * the first row of an index, so an idle host costs its database one cheap query per wake-up.
 */
export async function agenda(s: SqlSession): Promise<Agenda> {
  const row = await s.get(`SELECT
    (SELECT min(due_ms) FROM commitments WHERE state = 'armed' AND kind = 'time') AS commitment,
    (SELECT min(next_at) FROM schedules) AS schedule,
    (SELECT min(deadline_ms) FROM questions WHERE state = 'pending') AS question,
    (SELECT min(expires_ms) FROM entries WHERE expires_ms IS NOT NULL) AS expiry,
    (SELECT count(*) FROM (SELECT 1 FROM predicates WHERE dirty = 1 LIMIT 1) d) AS predicates,
    (SELECT at_ms FROM journal ORDER BY jseq LIMIT 1) AS journal,
    (SELECT min(last_used_ms) FROM secret_registries WHERE state = 'live') AS registry,
    (SELECT min(ended_ms) FROM runs WHERE ended_ms IS NOT NULL) AS ended,
    (SELECT min(created_ms) FROM runs WHERE ended_ms IS NULL AND kind IN ('fork', 'follow-up')) AS "liveSince",
    (SELECT min(at_ms) FROM claims) AS claim,
    (SELECT at_ms FROM doc_logs WHERE log = 'transcript' ORDER BY pos LIMIT 1) AS transcript,
    (SELECT at_ms FROM doc_logs WHERE log = 'traces' ORDER BY pos LIMIT 1) AS traces,
    (SELECT value FROM meta WHERE key = 'fleet.credentials') AS fleet`);
  // One row always (every part is a scalar subquery).
  if (row === undefined) throw new StoreCorruptError('agenda', 'the agenda query answered no row');
  const at = (column: string): number | null => AGENDA.intOrNull(row, column);
  return {
    commitment: at('commitment'), schedule: at('schedule'), question: at('question'), expiry: at('expiry'), predicates: AGENDA.int(row, 'predicates'),
    journal: at('journal'), registry: at('registry'), ended: at('ended'), liveSince: at('liveSince'), claim: at('claim'),
    transcript: at('transcript'), traces: at('traces'), fleet: AGENDA.textOrNull(row, 'fleet'),
  };
}

/** The condition instances of a commitment in the fired ledger, oldest first, with the run each fire started. */
export async function firesOf(s: SqlSession, a: { readonly tenant: string; readonly commitmentId: string; readonly limit: number }): Promise<{ readonly instance: string; readonly runId: string | undefined }[]> {
  const rows = await s.all('SELECT instance, run_id FROM commitment_fires WHERE tenant = ? AND commitment_id = ? ORDER BY fired_ms, instance', [a.tenant, a.commitmentId], a.limit);
  return rows.map((r) => ({ instance: FIRES.text(r, 'instance'), runId: FIRES.optText(r, 'run_id') }));
}
