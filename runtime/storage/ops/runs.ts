/**
 * Write operations on runs and their event logs. A run row owns its log: `next_seq` allocates each event's
 * gap-free sequence in the transaction that stores the event (a rolled-back request gives its numbers back), and
 * an event also records the replay journal's head when it was appended — the position a fork at that event reads
 * memory as of. Runs count against their tenant's bounds while live; a run that ended is retired by retention.
 */
import type { RunEvent } from '../../../generated/ts/index.ts';
import { QuotaExceededError } from '../../shared/quota.ts';
import type { JsonDoc, StoredDoc } from '../port.ts';
import { StoreRefusal } from '../refusal.ts';
import { columnsOf } from '../sql/columns.ts';
import type { SqlSession } from '../sql/session.ts';

const RUNS = columnsOf('runs');
const JOURNAL = columnsOf('journal');
import { bump } from './quota.ts';
import { forgetRegistries } from './secrets.ts';

/** What a run is: a protocol run, a fork, a test fixture's run, a run a seam named, a commitment's follow-up, one piece of host work (a compaction, a consolidation pass), a tenant's background log. */
export type RunKind = 'run' | 'fork' | 'fixture' | 'seed' | 'follow-up' | 'task' | 'background';

export interface RunBound {
  /** The quota resource the run counts against while live (e.g. `runs`, `forks`), and its limit. */
  readonly resource: string;
  readonly limit: number;
}

export interface CreateRunArgs {
  readonly runId: string;
  readonly tenant: string;
  readonly kind: RunKind;
  readonly status: string;
  readonly createdMs: number;
  readonly parentRunId?: string;
  /** A fork's anchor: the journal position and clock of the event it was forked at. */
  readonly anchor?: { readonly jseq: number; readonly atMs: number };
  /** The fixture (memoryRef) a fixture run belongs to. */
  readonly fixtureRef?: string;
  readonly doc: StoredDoc;
  readonly bound?: RunBound;
  /** When the run exists already: refuse (default) or keep it — if it belongs to the same tenant (else refuse). */
  readonly ifExists?: 'refuse' | 'keep';
}

/** A run with that id exists (409), or belongs to another tenant (409 `conflict` either way); the answer names the `runId` field. */
export function runConflict(message: string): StoreRefusal {
  return new StoreRefusal('run_conflict', message, { error: 'conflict', message, details: { failures: [{ instancePath: '/runId', message }] } });
}

/** Create a run; whether it was created (false: it existed and `ifExists: 'keep'` kept it). */
export async function createRun(s: SqlSession, a: CreateRunArgs): Promise<boolean> {
  const existing = await s.get('SELECT tenant FROM runs WHERE run_id = ?', [a.runId]);
  if (existing !== undefined) {
    if (RUNS.text(existing, 'tenant') !== a.tenant) throw runConflict('the run belongs to another tenant');
    if (a.ifExists === 'keep') return false;
    throw runConflict('a run with that id exists');
  }
  await s.run(
    'INSERT INTO runs (run_id, tenant, kind, status, created_ms, ended_ms, next_seq, parent_run_id, anchor_jseq, anchor_at_ms, fixture_ref, doc) VALUES (?, ?, ?, ?, ?, NULL, 0, ?, ?, ?, ?, ?)',
    [a.runId, a.tenant, a.kind, a.status, a.createdMs, a.parentRunId ?? null, a.anchor?.jseq ?? null, a.anchor?.atMs ?? null, a.fixtureRef ?? null, JSON.stringify(a.doc)],
  );
  if (a.bound !== undefined) await bump(s, a.tenant, a.bound.resource, '', 1, a.bound.limit);
  return true;
}

export interface UpdateRunArgs {
  readonly runId: string;
  readonly tenant: string;
  readonly status?: string;
  readonly doc?: StoredDoc;
  /** The run ended now: it stops counting against `bound` and retention may retire it from here on. */
  readonly endedMs?: number;
  readonly bound?: RunBound;
  /** Ended runs a tenant keeps (their logs readable) until retention; past it the oldest are retired. */
  readonly endedKept?: number;
  /** Refuse unless the run's status is this one (optimistic check of a decision read before). */
  readonly expectStatus?: string;
}

/** Change a run's status, record or end; refused when the run is unknown, another tenant's, or not in `expectStatus`. */
export async function updateRun(s: SqlSession, a: UpdateRunArgs): Promise<void> {
  const found = await s.get('SELECT tenant, status, ended_ms FROM runs WHERE run_id = ?', [a.runId]);
  const row = found === undefined ? undefined : { tenant: RUNS.text(found, 'tenant'), status: RUNS.text(found, 'status'), endedMs: RUNS.intOrNull(found, 'ended_ms') };
  if (row === undefined || row.tenant !== a.tenant) throw new StoreRefusal('run_unknown', 'no such run', { error: 'not_found', message: 'no such run' });
  if (a.expectStatus !== undefined && row.status !== a.expectStatus) throw new StoreRefusal('stale_read', 'the run changed since it was read');
  const ending = a.endedMs !== undefined && row.endedMs === null;
  await s.run('UPDATE runs SET status = coalesce(?, status), doc = coalesce(?, doc), ended_ms = coalesce(ended_ms, ?) WHERE run_id = ?', [
    a.status ?? null,
    a.doc === undefined ? null : JSON.stringify(a.doc),
    a.endedMs ?? null,
    a.runId,
  ]);
  if (!ending) return;
  if (a.bound !== undefined) await bump(s, row.tenant, a.bound.resource, '', -1);
  const ended = await bump(s, row.tenant, QUOTA_ENDED_RUNS, '', 1);
  const kept = a.endedKept ?? DEFAULT_ENDED_RUNS_KEPT;
  if (ended > kept) {
    const oldest = await s.all('SELECT run_id FROM runs WHERE tenant = ? AND ended_ms IS NOT NULL ORDER BY ended_ms, run_id', [row.tenant], ended - kept);
    await removeRuns(s, { runIds: oldest.map((r) => RUNS.text(r, 'run_id')) });
  }
}

/** Ended runs a tenant keeps unless told otherwise. */
export const DEFAULT_ENDED_RUNS_KEPT = 10_000;
/** The count of a tenant's ended runs (kept until retention; past `endedKept` the oldest are retired). */
export const QUOTA_ENDED_RUNS = 'ended-runs';

/**
 * The journal's head — the highest position assigned so far (a watermark covers every mutation at or below it) — as
 * an SQL expression, so a statement can take it without a round trip of its own.
 */
export function journalHeadSql(s: Pick<SqlSession, 'dialect'>): string {
  if (s.dialect === 'sqlite') return "coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'journal'), 0)";
  return "coalesce((SELECT max(jseq) FROM journal), (SELECT CAST(value AS bigint) FROM meta WHERE key = 'journal_pruned_through'), 0)";
}

/** The journal's head (journalHeadSql) as a number. */
export async function journalHead(s: SqlSession): Promise<number> {
  return JOURNAL.int((await s.get(`SELECT ${journalHeadSql(s)} AS j`)) ?? {}, 'j');
}

export interface AppendEventArgs {
  readonly runId: string;
  /** The event as built and validated by the runtime; `sequence` is replaced by the one allocated here. */
  readonly event: RunEvent;
  readonly atMs: number;
  /**
   * At most this many events per run (the run is refused 429 past it). A tenant's background log is not refused
   * but keeps only its newest `keepLast` events.
   */
  readonly maxEvents?: number;
  readonly keepLast?: number;
}

/** The event as stored at `seq` of its run's log. */
export const storedEvent = (a: Pick<AppendEventArgs, 'runId' | 'event'>, seq: number): RunEvent => ({ ...a.event, runId: a.runId, sequence: seq });

/** Append an event to its run's log: the stored event, with its sequence. */
export async function appendEvent(s: SqlSession, a: AppendEventArgs): Promise<RunEvent> {
  const row = await s.get('UPDATE runs SET next_seq = next_seq + 1 WHERE run_id = ? RETURNING next_seq - 1 AS seq', [a.runId]);
  if (row === undefined) throw new StoreRefusal('run_unknown', `event for unknown run ${a.runId}`);
  const seq = RUNS.int(row, 'seq');
  // A log that keeps only its newest events (a tenant's background log) is never refused: its sequence keeps growing.
  if (a.maxEvents !== undefined && a.keepLast === undefined && seq >= a.maxEvents) throw new QuotaExceededError('events-per-run', a.maxEvents);
  const event = storedEvent(a, seq);
  await s.run(`INSERT INTO events (run_id, seq, jseq, at_ms, type, doc) VALUES (?, ?, ${journalHeadSql(s)}, ?, ?, ?)`, [a.runId, seq, a.atMs, event.type, JSON.stringify(event)]);
  if (a.keepLast !== undefined && seq >= a.keepLast) await s.run('DELETE FROM events WHERE run_id = ? AND seq <= ?', [a.runId, seq - a.keepLast]);
  return event;
}

/**
 * Forget runs: each run row with its event log, its secret registry and (for a fork) its journal anchor. Used by
 * retention and by a retired fixture. How many runs were removed.
 */
export async function removeRuns(s: SqlSession, a: { readonly runIds: readonly string[]; readonly bounds?: Readonly<Record<string, RunBound>> }): Promise<number> {
  let n = 0;
  for (const runId of a.runIds) {
    const found = await s.get('SELECT tenant, kind, ended_ms FROM runs WHERE run_id = ?', [runId]);
    if (found === undefined) continue;
    const row = { tenant: RUNS.text(found, 'tenant'), kind: RUNS.text(found, 'kind'), endedMs: RUNS.intOrNull(found, 'ended_ms') };
    await s.run('DELETE FROM events WHERE run_id = ?', [runId]);
    await s.run('DELETE FROM runs WHERE run_id = ?', [runId]);
    await forgetRegistries(s, [runId]);
    const bound = a.bounds?.[row.kind];
    if (bound !== undefined && row.endedMs === null) await bump(s, row.tenant, bound.resource, '', -1);
    if (row.endedMs !== null) await bump(s, row.tenant, QUOTA_ENDED_RUNS, '', -1);
    n++;
  }
  return n;
}

/** Drop a run's event log but keep the run (retention of a log, degraded infrastructure): a fork of it is then refused. */
export async function dropEvents(s: SqlSession, a: { readonly runId: string }): Promise<number> {
  return s.run('DELETE FROM events WHERE run_id = ?', [a.runId]);
}
