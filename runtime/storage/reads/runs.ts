/**
 * Queries of runs and their event logs: a run's row, a page of its events from a sequence on, and the anchor a fork
 * at one of its events reads memory as of.
 */
import type { RunEvent } from '../../../generated/ts/index.ts';
import type { JsonDoc } from '../port.ts';
import { columnsOf } from '../sql/columns.ts';
import type { Row, SqlSession } from '../sql/session.ts';

export interface RunRow {
  readonly runId: string;
  readonly tenant: string;
  readonly kind: string;
  readonly status: string;
  readonly createdMs: number;
  readonly endedMs: number | undefined;
  /** The sequence the next event will get (the number of events ever appended). */
  readonly nextSeq: number;
  readonly parentRunId: string | undefined;
  readonly anchor: { readonly jseq: number; readonly atMs: number } | undefined;
  readonly fixtureRef: string | undefined;
  readonly doc: JsonDoc;
}

const RUNS = columnsOf('runs');
const EVENTS = columnsOf('events');

const RUN_COLUMNS = 'run_id, tenant, kind, status, created_ms, ended_ms, next_seq, parent_run_id, anchor_jseq, anchor_at_ms, fixture_ref, doc';

function runOf(r: Row): RunRow {
  const anchorJseq = RUNS.intOrNull(r, 'anchor_jseq');
  return {
    runId: RUNS.text(r, 'run_id'),
    tenant: RUNS.text(r, 'tenant'),
    kind: RUNS.text(r, 'kind'),
    status: RUNS.text(r, 'status'),
    createdMs: RUNS.int(r, 'created_ms'),
    endedMs: RUNS.optInt(r, 'ended_ms'),
    nextSeq: RUNS.int(r, 'next_seq'),
    parentRunId: RUNS.optText(r, 'parent_run_id'),
    anchor: anchorJseq === null ? undefined : { jseq: anchorJseq, atMs: RUNS.optInt(r, 'anchor_at_ms') ?? 0 },
    fixtureRef: RUNS.optText(r, 'fixture_ref'),
    doc: RUNS.doc(r, 'doc'),
  };
}

const runIdOf = (r: Row): string => RUNS.text(r, 'run_id');

export async function runGet(s: SqlSession, runId: string): Promise<RunRow | undefined> {
  const r = await s.get(`SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = ?`, [runId]);
  return r === undefined ? undefined : runOf(r);
}

/** Runs ended before `beforeMs` (retention), oldest first. */
export async function runsEndedBefore(s: SqlSession, a: { readonly beforeMs: number; readonly limit: number }): Promise<string[]> {
  return (await s.all('SELECT run_id FROM runs WHERE ended_ms IS NOT NULL AND ended_ms < ? ORDER BY ended_ms', [a.beforeMs], a.limit)).map(runIdOf);
}

/** Live runs of `kinds` created before `beforeMs` (idle forks, unanswered follow-ups), oldest first. */
export async function liveRunsCreatedBefore(s: SqlSession, a: { readonly tenant?: string; readonly kind: string; readonly beforeMs: number; readonly limit: number }): Promise<string[]> {
  const rows = a.tenant === undefined
    ? await s.all('SELECT run_id FROM runs WHERE kind = ? AND ended_ms IS NULL AND created_ms < ? ORDER BY created_ms', [a.kind, a.beforeMs], a.limit)
    : await s.all('SELECT run_id FROM runs WHERE tenant = ? AND kind = ? AND ended_ms IS NULL AND created_ms < ? ORDER BY created_ms', [a.tenant, a.kind, a.beforeMs], a.limit);
  return rows.map(runIdOf);
}

export interface EventPage {
  readonly events: RunEvent[];
  /** The sequence to read from next, when more events follow. */
  readonly nextSeq?: number;
}

/** A page of a run's events from `fromSeq` on, in sequence order. */
export async function eventPage(s: SqlSession, a: { readonly runId: string; readonly fromSeq: number; readonly limit: number }): Promise<EventPage> {
  const rows = await s.all('SELECT seq, doc FROM events WHERE run_id = ? AND seq >= ? ORDER BY seq', [a.runId, a.fromSeq], a.limit + 1);
  const n = Math.min(rows.length, a.limit);
  const events = new Array<RunEvent>(n);
  for (let i = 0; i < n; i++) events[i] = EVENTS.event(rows[i]!, 'doc');
  return rows.length > a.limit ? { events, nextSeq: EVENTS.int(rows[a.limit]!, 'seq') } : { events };
}

/** Whether the run has any event stored (its log was not dropped). */
export async function hasEvents(s: SqlSession, runId: string): Promise<boolean> {
  return (await s.get('SELECT 1 AS x FROM events WHERE run_id = ? LIMIT 1', [runId])) !== undefined;
}

/** The journal position and clock at which event `seq` of the run was appended, if the run's log still holds it. */
export async function eventAnchor(s: SqlSession, a: { readonly runId: string; readonly seq: number }): Promise<{ readonly jseq: number; readonly atMs: number } | undefined> {
  const r = await s.get('SELECT jseq, at_ms FROM events WHERE run_id = ? AND seq = ?', [a.runId, a.seq]);
  return r === undefined ? undefined : { jseq: EVENTS.int(r, 'jseq'), atMs: EVENTS.int(r, 'at_ms') };
}

/** The lowest sequence the run's log still holds whose anchor is past `jseq` (the oldest fork point still servable). */
export async function oldestEventAfter(s: SqlSession, a: { readonly runId: string; readonly jseq: number }): Promise<number | undefined> {
  const r = await s.get('SELECT seq FROM events WHERE run_id = ? AND jseq >= ? ORDER BY seq LIMIT 1', [a.runId, a.jseq]);
  return r === undefined ? undefined : EVENTS.int(r, 'seq');
}
