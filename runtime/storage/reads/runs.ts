/**
 * Queries of runs and their event logs: a run's row, a page of its events from a sequence on, and the anchor a fork
 * at one of its events reads memory as of.
 */
import type { RunEvent } from '../../../generated/ts/index.ts';
import type { JsonDoc } from '../port.ts';
import type { SqlSession } from '../sql/session.ts';

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

interface RawRun {
  readonly run_id: string;
  readonly tenant: string;
  readonly kind: string;
  readonly status: string;
  readonly created_ms: number;
  readonly ended_ms: number | null;
  readonly next_seq: number;
  readonly parent_run_id: string | null;
  readonly anchor_jseq: number | null;
  readonly anchor_at_ms: number | null;
  readonly fixture_ref: string | null;
  readonly doc: string;
}

const RUN_COLUMNS = 'run_id, tenant, kind, status, created_ms, ended_ms, next_seq, parent_run_id, anchor_jseq, anchor_at_ms, fixture_ref, doc';

function runOf(r: RawRun): RunRow {
  return {
    runId: r.run_id,
    tenant: r.tenant,
    kind: r.kind,
    status: r.status,
    createdMs: r.created_ms,
    endedMs: r.ended_ms ?? undefined,
    nextSeq: r.next_seq,
    parentRunId: r.parent_run_id ?? undefined,
    anchor: r.anchor_jseq === null ? undefined : { jseq: r.anchor_jseq, atMs: r.anchor_at_ms ?? 0 },
    fixtureRef: r.fixture_ref ?? undefined,
    doc: JSON.parse(r.doc) as JsonDoc,
  };
}

export async function runGet(s: SqlSession, runId: string): Promise<RunRow | undefined> {
  const r = await s.get<RawRun & Record<string, string | number | null>>(`SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = ?`, [runId]);
  return r === undefined ? undefined : runOf(r);
}

/** Runs ended before `beforeMs` (retention), oldest first. */
export async function runsEndedBefore(s: SqlSession, a: { readonly beforeMs: number; readonly limit: number }): Promise<string[]> {
  return (await s.all<{ run_id: string }>('SELECT run_id FROM runs WHERE ended_ms IS NOT NULL AND ended_ms < ? ORDER BY ended_ms', [a.beforeMs], a.limit)).map((r) => r.run_id);
}

/** Live runs of `kinds` created before `beforeMs` (idle forks, unanswered follow-ups), oldest first. */
export async function liveRunsCreatedBefore(s: SqlSession, a: { readonly tenant?: string; readonly kind: string; readonly beforeMs: number; readonly limit: number }): Promise<string[]> {
  const rows = a.tenant === undefined
    ? await s.all<{ run_id: string }>('SELECT run_id FROM runs WHERE kind = ? AND ended_ms IS NULL AND created_ms < ? ORDER BY created_ms', [a.kind, a.beforeMs], a.limit)
    : await s.all<{ run_id: string }>('SELECT run_id FROM runs WHERE tenant = ? AND kind = ? AND ended_ms IS NULL AND created_ms < ? ORDER BY created_ms', [a.tenant, a.kind, a.beforeMs], a.limit);
  return rows.map((r) => r.run_id);
}

export interface EventPage {
  readonly events: RunEvent[];
  /** The sequence to read from next, when more events follow. */
  readonly nextSeq?: number;
}

/** A page of a run's events from `fromSeq` on, in sequence order. */
export async function eventPage(s: SqlSession, a: { readonly runId: string; readonly fromSeq: number; readonly limit: number }): Promise<EventPage> {
  const rows = await s.all<{ seq: number; doc: string }>('SELECT seq, doc FROM events WHERE run_id = ? AND seq >= ? ORDER BY seq', [a.runId, a.fromSeq], a.limit + 1);
  const events = rows.slice(0, a.limit).map((r) => JSON.parse(r.doc) as RunEvent);
  return rows.length > a.limit ? { events, nextSeq: rows[a.limit]!.seq } : { events };
}

/** Whether the run has any event stored (its log was not dropped). */
export async function hasEvents(s: SqlSession, runId: string): Promise<boolean> {
  return (await s.get('SELECT 1 AS x FROM events WHERE run_id = ? LIMIT 1', [runId])) !== undefined;
}

/** The journal position and clock at which event `seq` of the run was appended, if the run's log still holds it. */
export async function eventAnchor(s: SqlSession, a: { readonly runId: string; readonly seq: number }): Promise<{ readonly jseq: number; readonly atMs: number } | undefined> {
  const r = await s.get<{ jseq: number; at_ms: number }>('SELECT jseq, at_ms FROM events WHERE run_id = ? AND seq = ?', [a.runId, a.seq]);
  return r === undefined ? undefined : { jseq: r.jseq, atMs: r.at_ms };
}

/** The lowest sequence the run's log still holds whose anchor is past `jseq` (the oldest fork point still servable). */
export async function oldestEventAfter(s: SqlSession, a: { readonly runId: string; readonly jseq: number }): Promise<number | undefined> {
  return (await s.get<{ seq: number }>('SELECT seq FROM events WHERE run_id = ? AND jseq >= ? ORDER BY seq LIMIT 1', [a.runId, a.jseq]))?.seq;
}
