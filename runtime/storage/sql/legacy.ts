/**
 * The upgrade of a store written by wopkit 0.2 (SQLite schema v3, PostgreSQL schema v4) to the current schema, run
 * once by the migration that introduces it, inside its transaction: the old tables are renamed aside, the current
 * schema is created, every record is moved across — entries with their tags, runs and every event log (a log that
 * belonged to no run gets a run of its own, in the tenant its events name, or in no tenant), the replay journal with
 * the journal position of each event (the old watermarks), commitments with their fired ledger (a claim a crash had
 * left without its `commitment.fired` event is announced now, once, as the old host would have at its next start),
 * schedules with their ledger, questions, proposals, gates, installed artefacts, document logs — the counts every
 * bound is checked against are computed from what was moved, and the old tables are dropped.
 *
 * Old records are read a page at a time, in key order, so a large store moves in bounded memory.
 */
import { randomUUID } from 'node:crypto';
import type { Json, JsonDoc } from '../port.ts';
import { columnsOf, type Columns } from './columns.ts';
import type { Row, SqlSession, SqlValue } from './session.ts';
import { schemaDdl } from './schema.ts';

/** Runs SQL text as it is (several statements, DDL). */
export type Exec = (sql: string) => Promise<void>;

const PAGE = 2000;

/** The old tables of each dialect (PostgreSQL named its event table and document logs differently, and had the lease). */
const LEGACY_TABLES = {
  sqlite: ['memory_entries', 'runs', 'event_logs', 'events', 'commitments_armed', 'commitments_fired', 'schedules', 'schedule_runs', 'consolidation_passes', 'replay_journal', 'replay_watermarks', 'questions', 'question_history', 'document_logs', 'proposals', 'approval_gates', 'installed_artifacts'],
  postgres: ['memory_entries', 'runs', 'event_logs', 'run_events', 'commitments_armed', 'commitments_fired', 'schedules', 'schedule_runs', 'consolidation_passes', 'replay_journal', 'replay_watermarks', 'questions', 'question_history', 'doc_log_heads', 'doc_logs', 'proposals', 'approval_gates', 'installed_artifacts', 'cluster_lease'],
} as const;

const old = (table: string): string => `legacy_${table}`;
const tenantOfRef = (ref: string): string => /^mem:\/\/([^/]+)\//.exec(ref)?.[1] ?? '';
const msOf = (iso: unknown): number | null => (typeof iso !== 'string' ? null : Number.isNaN(Date.parse(iso)) ? 0 : Date.parse(iso));
/** The column readers of an old table (their errors name it). */
const oldColumns = (table: string): Columns => columnsOf(old(table));
/** A member of an old document, if it is an object document. */
const isDoc = (d: Json | undefined): d is JsonDoc => typeof d === 'object' && d !== null && !Array.isArray(d);
const member = (d: Json | undefined, key: string): Json | undefined => (isDoc(d) ? d[key] : undefined);
const textOr = <F>(v: Json | undefined, fallback: F): string | F => (typeof v === 'string' ? v : fallback);
const numberOr = <F>(v: Json | undefined, fallback: F): number | F => (typeof v === 'number' ? v : fallback);

/**
 * Read a table page by page in the order of its unique `key` columns (its primary key: each page is one seek),
 * handing each page to `f`.
 */
async function eachPage(s: SqlSession, table: string, columns: string, key: readonly string[], f: (rows: readonly Row[]) => Promise<void>, where = ''): Promise<void> {
  const keys = columnsOf(table);
  let after: SqlValue[] | undefined;
  const keyList = key.join(', ');
  for (;;) {
    const conditions = [...(where !== '' ? [where] : []), ...(after === undefined ? [] : [`(${keyList}) > (${key.map(() => '?').join(', ')})`])];
    const rows = await s.all(`SELECT ${columns}, ${key.map((k, i) => `${k} AS k${i}__`).join(', ')} FROM ${table}${conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : ''} ORDER BY ${keyList}`, after ?? [], PAGE);
    if (rows.length === 0) return;
    await f(rows);
    const lastRow = rows[rows.length - 1]!;
    after = key.map((_, i) => keys.key(lastRow, `k${i}__`));
  }
}

export async function upgradeLegacy(s: SqlSession, exec: Exec): Promise<void> {
  const dialect = s.dialect;
  for (const table of LEGACY_TABLES[dialect]) {
    await exec(`ALTER TABLE ${table} RENAME TO ${old(table)}`);
    if (dialect === 'postgres') {
      // PostgreSQL keeps index names across a rename: move them aside too, so the new tables can take theirs.
      for (const row of await s.all('SELECT indexname FROM pg_indexes WHERE tablename = ?', [old(table)], 1000)) {
        const indexname = columnsOf('pg_indexes').text(row, 'indexname');
        await exec(`ALTER INDEX "${indexname}" RENAME TO "legacy_${indexname}"`);
      }
    }
  }
  await exec(schemaDdl(dialect));
  await moveEntries(s);
  const tenants = await moveRuns(s, dialect);
  await moveJournal(s);
  await moveCommitments(s, tenants);
  await moveSchedules(s);
  await moveRest(s, dialect);
  await countQuotas(s);
  for (const table of LEGACY_TABLES[dialect]) await exec(`DROP TABLE ${old(table)}`);
}

async function moveEntries(s: SqlSession): Promise<void> {
  const c = oldColumns('memory_entries');
  await eachPage(s, old('memory_entries'), 'tenant, memory_ref, id, doc', ['memory_ref', 'id'], async (rows) => {
    for (const row of rows) {
      const r = { tenant: c.text(row, 'tenant'), memoryRef: c.text(row, 'memory_ref'), id: c.text(row, 'id'), doc: c.text(row, 'doc') };
      const e = c.doc(row, 'doc');
      const tags = Array.isArray(e.tags) ? e.tags.filter((t) => typeof t === 'string') : [];
      const neg = -(msOf(e.createdAt) ?? 0);
      const expires = msOf(e.expiresAt);
      await s.run('INSERT INTO entries (tenant, memory_ref, id, neg_created, expires_ms, bytes, doc) VALUES (?, ?, ?, ?, ?, ?, ?)', [r.tenant, r.memoryRef, r.id, neg, expires, Buffer.byteLength(r.doc, 'utf8'), r.doc]);
      for (const tag of new Set(tags)) await s.run('INSERT INTO entry_tags (tenant, memory_ref, tag, neg_created, id, expires_ms) VALUES (?, ?, ?, ?, ?, ?)', [r.tenant, r.memoryRef, tag, neg, r.id, expires]);
    }
  });
}

/** Runs and event logs; the tenant of every run (for the commitments' announcements). */
async function moveRuns(s: SqlSession, dialect: 'sqlite' | 'postgres'): Promise<Map<string, string>> {
  const upgradedMs = Date.now();
  const tenantOfRun = new Map<string, string>();
  const runs = oldColumns('runs');
  const marks = oldColumns('replay_watermarks');
  const markAt = async (runId: string, seq: number): Promise<{ readonly jseq: number; readonly at: number } | undefined> => {
    const m = await s.get(`SELECT jseq, at FROM ${old('replay_watermarks')} WHERE run_id = ? AND seq = ?`, [runId, seq]);
    return m === undefined ? undefined : { jseq: marks.int(m, 'jseq'), at: marks.int(m, 'at') };
  };
  await eachPage(s, old('runs'), 'run_id, tenant, doc', ['run_id'], async (rows) => {
    for (const row of rows) {
      const r = { run_id: runs.text(row, 'run_id'), tenant: runs.text(row, 'tenant'), doc: runs.text(row, 'doc') };
      const forkedFrom = runs.doc(row, 'doc').forkedFrom;
      const fromRun = member(forkedFrom, 'runId');
      const fromSeq = member(forkedFrom, 'fromSeq');
      const anchor = typeof fromRun === 'string' && typeof fromSeq === 'number' ? await markAt(fromRun, fromSeq) : undefined;
      // A fork stays open (it may still be replayed); any other run is over — 0.2 kept a run's progress in memory, so
      // after a restart it answered every run as completed, and so does the upgraded store (retention retires it).
      const fork = forkedFrom !== undefined;
      await s.run(
        // Created "now" (0.2 kept no creation time): a fork lives its full liveRunRetentionMs from the upgrade on.
        'INSERT INTO runs (run_id, tenant, kind, status, created_ms, ended_ms, next_seq, parent_run_id, anchor_jseq, anchor_at_ms, fixture_ref, doc) VALUES (?, ?, ?, ?, ?, ?, 0, NULL, ?, ?, NULL, ?)',
        [r.run_id, r.tenant, fork ? 'fork' : 'run', fork ? 'created' : 'completed', upgradedMs, fork ? null : upgradedMs, anchor?.jseq ?? null, anchor?.at ?? null, r.doc],
      );
      tenantOfRun.set(r.run_id, r.tenant);
    }
  });
  const eventTable = dialect === 'sqlite' ? 'events' : 'run_events';
  const logsOf = oldColumns('event_logs');
  const events = oldColumns(eventTable);
  await eachPage(s, old('event_logs'), 'run_id, next_seq', ['run_id'], async (rows) => {
    for (const row of rows) {
      const log = { run_id: logsOf.text(row, 'run_id'), next_seq: logsOf.int(row, 'next_seq') };
      if (!tenantOfRun.has(log.run_id)) {
        // A log of host work (the old shared background log, a consolidation pass): a run of its own, in the tenant
        // its events name, ended now (retention retires it).
        const first = await s.get(`SELECT doc FROM ${old(eventTable)} WHERE run_id = ? ORDER BY seq LIMIT 1`, [log.run_id]);
        const ref = first === undefined ? undefined : member(events.doc(first, 'doc').payload, 'memoryRef');
        const tenant = typeof ref === 'string' ? tenantOfRef(ref) : '';
        await s.run("INSERT INTO runs (run_id, tenant, kind, status, created_ms, ended_ms, next_seq, parent_run_id, anchor_jseq, anchor_at_ms, fixture_ref, doc) VALUES (?, ?, 'task', 'completed', ?, ?, 0, NULL, NULL, NULL, NULL, ?)", [log.run_id, tenant, upgradedMs, upgradedMs, JSON.stringify({ runId: log.run_id, tenant })]);
        tenantOfRun.set(log.run_id, tenant);
      }
      await s.run('UPDATE runs SET next_seq = ? WHERE run_id = ?', [log.next_seq, log.run_id]);
      let after = -1;
      for (;;) {
        const page = await s.all(`SELECT seq, doc FROM ${old(eventTable)} WHERE run_id = ? AND seq > ? ORDER BY seq`, [log.run_id, after], PAGE);
        if (page.length === 0) break;
        for (const row of page) {
          const seq = events.int(row, 'seq');
          const mark = await markAt(log.run_id, seq);
          const ev = events.doc(row, 'doc');
          await s.run('INSERT INTO events (run_id, seq, jseq, at_ms, type, doc) VALUES (?, ?, ?, ?, ?, ?)', [log.run_id, seq, mark?.jseq ?? 0, mark?.at ?? msOf(ev.timestamp) ?? 0, textOr(ev.type, ''), events.text(row, 'doc')]);
        }
        after = events.int(page[page.length - 1]!, 'seq');
      }
    }
  });
  return tenantOfRun;
}

async function moveJournal(s: SqlSession): Promise<void> {
  let first: number | undefined;
  let last = 0;
  const c = oldColumns('replay_journal');
  await eachPage(s, old('replay_journal'), 'jseq, memory_ref, doc', ['jseq'], async (rows) => {
    for (const row of rows) {
      const r = { jseq: c.int(row, 'jseq'), memory_ref: c.text(row, 'memory_ref') };
      const j = c.doc(row, 'doc');
      const before = j.before ?? null;
      const after = j.after ?? null;
      await s.run(
        'INSERT INTO journal (jseq, tenant, memory_ref, memory_id, at_ms, run_id, before_doc, before_neg_created, before_expires_ms, after_doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [r.jseq, tenantOfRef(r.memory_ref), r.memory_ref, textOr(j.memoryId, ''), numberOr(j.at, 0), textOr(j.runId, null), before === null ? null : JSON.stringify(before), before === null ? null : -(msOf(member(before, 'createdAt')) ?? 0), before === null ? null : msOf(member(before, 'expiresAt')), after === null ? null : JSON.stringify(after)],
      );
      first ??= r.jseq;
      last = r.jseq;
    }
  });
  const highest = await s.get(`SELECT max(jseq) AS j FROM ${old('replay_watermarks')}`);
  const head = Math.max(last, (highest === undefined ? null : oldColumns('replay_watermarks').intOrNull(highest, 'j')) ?? 0);
  // Everything before the first retained record was pruned; the journal's head continues after the highest position.
  await s.run("INSERT INTO meta (key, value) VALUES ('journal_pruned_through', ?)", [String(first === undefined ? head : first - 1)]);
  if (s.dialect === 'sqlite') await s.run("INSERT INTO sqlite_sequence (name, seq) SELECT 'journal', ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'journal')", [head]);
  else await s.get("SELECT setval(pg_get_serial_sequence('journal', 'jseq'), ?, true)", [Math.max(1, head)]);
}

/** 0.2 named the predicate columns differently per back-end (pred_* in SQLite, predicate_* in PostgreSQL). */
async function moveCommitments(s: SqlSession, tenantOfRun: Map<string, string>): Promise<void> {
  const armed = oldColumns('commitments_armed');
  await eachPage(
    s, old('commitments_armed'), s.dialect === 'sqlite' ? 'tenant, commitment_id, doc, pred_last, pred_transitions' : 'tenant, commitment_id, doc, predicate_last AS pred_last, predicate_transitions AS pred_transitions', ['tenant', 'commitment_id'], async (rows) => {
      for (const row of rows) {
        const tenant = armed.text(row, 'tenant');
        const condition = armed.doc(row, 'doc').condition;
        const kind = textOr(member(condition, 'kind'), 'time');
        const predicateId = kind === 'predicate' ? textOr(member(condition, 'predicateId'), '') : null;
        // PostgreSQL kept the predicate's last value as a boolean: 0/1 either way.
        const last = row.pred_last;
        await s.run(
          "INSERT INTO commitments (tenant, commitment_id, kind, due_ms, predicate_id, state, pred_last, pred_transitions, doc) VALUES (?, ?, ?, ?, ?, 'armed', ?, ?, ?)",
          [tenant, armed.text(row, 'commitment_id'), kind, kind === 'time' ? numberOr(member(condition, 'at'), 0) : null, predicateId, last === true || last === 1 ? 1 : 0, armed.optInt(row, 'pred_transitions') ?? 0, armed.text(row, 'doc')],
        );
        if (predicateId !== null) await s.run('INSERT INTO predicates (tenant, predicate_id, value, dirty) VALUES (?, ?, 0, 1) ON CONFLICT (tenant, predicate_id) DO NOTHING', [tenant, predicateId]);
      }
    },
  );
  // Fires the logs announce, so a claim a crash left unannounced can be announced now.
  const announced = new Set<string>();
  const moved = columnsOf('events');
  await eachPage(s, 'events', 'doc', ['run_id', 'seq'], async (rows) => {
    for (const r of rows) {
      const p = moved.doc(r, 'doc').payload;
      announced.add(`${String(member(p, 'commitmentId'))}#${String(member(p, 'conditionInstance'))}`);
    }
  }, "type = 'commitment.fired'");
  const fired = oldColumns('commitments_fired');
  await eachPage(
    s, old('commitments_fired'), 'tenant, commitment_id, instance, fired_at, doc', ['tenant', 'commitment_id', 'instance'], async (rows) => {
      for (const row of rows) {
        const f = { tenant: fired.text(row, 'tenant'), commitment_id: fired.text(row, 'commitment_id'), instance: fired.text(row, 'instance'), fired_at: fired.int(row, 'fired_at'), doc: fired.textOrNull(row, 'doc') };
        await s.run('INSERT INTO commitment_fires (tenant, commitment_id, instance, fired_ms, run_id) VALUES (?, ?, ?, ?, NULL)', [f.tenant, f.commitment_id, f.instance, f.fired_at]);
        // A time commitment that fired is in the ledger for good: it is not armed any more.
        if (f.instance.startsWith('time:')) {
          await s.run(
            "INSERT INTO commitments (tenant, commitment_id, kind, due_ms, predicate_id, state, pred_last, pred_transitions, doc) VALUES (?, ?, 'time', ?, NULL, 'fired', 0, 0, ?) ON CONFLICT (tenant, commitment_id) DO UPDATE SET state = 'fired'",
            [f.tenant, f.commitment_id, Number(f.instance.slice(5)) || 0, f.doc ?? JSON.stringify({ commitmentId: f.commitment_id, tenantId: f.tenant })],
          );
        }
        if (f.doc === null || announced.has(`${f.commitment_id}#${f.instance}`)) continue;
        await announce(s, f.tenant, f.instance, fired.doc(row, 'doc'), f.fired_at, tenantOfRun);
      }
    },
  );
}

/** The `commitment.fired` event of a claim a crash left without one, in its tenant's background log. */
async function announce(s: SqlSession, tenant: string, instance: string, c: JsonDoc, firedAt: number, runs: Map<string, string>): Promise<void> {
  const runId = `bg-${tenant}`;
  if (!runs.has(runId)) {
    await s.run("INSERT INTO runs (run_id, tenant, kind, status, created_ms, ended_ms, next_seq, parent_run_id, anchor_jseq, anchor_at_ms, fixture_ref, doc) VALUES (?, ?, 'background', 'running', ?, NULL, 0, NULL, NULL, NULL, NULL, ?)", [runId, tenant, firedAt, JSON.stringify({ runId, tenant })]);
    runs.set(runId, tenant);
  }
  const seq = columnsOf('runs').int((await s.get('UPDATE runs SET next_seq = next_seq + 1 WHERE run_id = ? RETURNING next_seq - 1 AS seq', [runId])) ?? {}, 'seq');
  const event = {
    eventId: `evt_${randomUUID()}`, runId, type: 'commitment.fired',
    payload: { commitmentId: c.commitmentId ?? null, memoryRef: c.memoryRef ?? null, ...(c.memoryId !== undefined ? { memoryId: c.memoryId } : {}), condition: member(c.condition, 'kind') ?? null, conditionInstance: instance },
    timestamp: new Date(firedAt).toISOString(), sequence: seq,
  };
  await s.run('INSERT INTO events (run_id, seq, jseq, at_ms, type, doc) VALUES (?, ?, 0, ?, ?, ?)', [runId, seq, firedAt, event.type, JSON.stringify(event)]);
}

async function moveSchedules(s: SqlSession): Promise<void> {
  const c = oldColumns('schedules');
  const slots = oldColumns('schedule_runs');
  await eachPage(s, old('schedules'), 'schedule_id, tenant, doc', ['schedule_id'], async (rows) => {
    for (const row of rows) {
      const scheduleId = c.text(row, 'schedule_id');
      const d = c.doc(row, 'doc');
      const kept = (await s.all(`SELECT slot, outcome FROM ${old('schedule_runs')} WHERE schedule_id = ? ORDER BY slot DESC`, [scheduleId], 64))
        .map((k) => ({ slot: slots.int(k, 'slot'), outcome: slots.textOrNull(k, 'outcome') }));
      const last = kept[0];
      await s.run('INSERT INTO schedules (schedule_id, tenant, memory_ref, next_at, created_ms, last_slot, last_outcome, doc) VALUES (?, ?, ?, ?, 0, ?, ?, ?)', [scheduleId, c.text(row, 'tenant'), textOr(d.memoryRef, ''), numberOr(d.nextAt, 0), last?.slot ?? null, last?.outcome ?? null, c.text(row, 'doc')]);
      for (const k of kept) await s.run('INSERT INTO schedule_runs (schedule_id, slot, outcome) VALUES (?, ?, ?)', [scheduleId, k.slot, k.outcome]);
    }
  });
}

async function moveRest(s: SqlSession, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const passes = oldColumns('consolidation_passes');
  await eachPage(s, old('consolidation_passes'), 'tenant, memory_ref, doc', ['memory_ref'], async (rows) => {
    for (const r of rows) await s.run('INSERT INTO consolidation_passes (tenant, memory_ref, doc) VALUES (?, ?, ?)', [passes.text(r, 'tenant'), passes.text(r, 'memory_ref'), passes.text(r, 'doc')]);
  });
  const questions = oldColumns('questions');
  const history = oldColumns('question_history');
  await eachPage(s, old('questions'), 'tenant, ref, doc', ['tenant', 'ref'], async (rows) => {
    for (const row of rows) {
      const r = { tenant: questions.text(row, 'tenant'), ref: questions.text(row, 'ref') };
      const q = questions.doc(row, 'doc');
      const state = textOr(q.state, 'pending');
      const ended = state === 'pending' ? null : msOf(q.updatedAt);
      await s.run('INSERT INTO questions (tenant, ref, state, deadline_ms, opened_ms, ended_ms, doc) VALUES (?, ?, ?, ?, ?, ?, ?)', [r.tenant, r.ref, state, numberOr(q.deadline, 0), ended ?? 0, ended, questions.text(row, 'doc')]);
      const order = dialect === 'sqlite' ? 'n' : 'pos';
      const kept = await s.all(`SELECT doc FROM ${old('question_history')} WHERE tenant = ? AND ref = ? ORDER BY ${order}`, [r.tenant, r.ref], 64);
      for (const [n, h] of kept.entries()) await s.run('INSERT INTO question_history (tenant, ref, n, doc) VALUES (?, ?, ?, ?)', [r.tenant, r.ref, n, history.text(h, 'doc')]);
    }
  });
  const docTable = dialect === 'sqlite' ? 'document_logs' : 'doc_logs';
  const docs = oldColumns(docTable);
  await eachPage(s, old(docTable), 'log, pos, doc', ['log', 'pos'], async (rows) => {
    for (const row of rows) {
      const r = { log: docs.text(row, 'log'), pos: docs.int(row, 'pos'), doc: docs.text(row, 'doc') };
      const body = docs.doc(row, 'doc');
      const key = r.log === 'traces' ? member(body.body, 'trace/id') : body.participant;
      // A transcript fact is filed by its id (unique under its participant) and its session's kind (counted); an
      // excision record names the id it removed and takes its place.
      const transcript = r.log === 'transcripts' || r.log === 'transcript';
      const item = transcript && typeof body.id === 'string' && body.kind !== 'excision' ? body.id : null;
      const grp = item !== null && typeof body.session === 'string' ? `${body.session}\u001f${String(body.kind)}` : null;
      await s.run('INSERT INTO doc_logs (log, pos, tenant, doc_key, item, grp, at_ms, doc) VALUES (?, ?, NULL, ?, ?, ?, 0, ?) ON CONFLICT DO NOTHING', [transcript ? 'transcript' : r.log, r.pos, typeof key === 'string' ? key : null, item, grp, r.doc]);
    }
  });
  await s.run('INSERT INTO doc_log_heads (log, next_pos) SELECT log, max(pos) + 1 FROM doc_logs GROUP BY log');
  const proposals = oldColumns('proposals');
  await eachPage(s, old('proposals'), 'proposal_id, tenant, doc', ['proposal_id'], async (rows) => {
    for (const r of rows) {
      const p = proposals.doc(r, 'doc');
      await s.run('INSERT INTO proposals (proposal_id, tenant, state, kind, created_ms, doc) VALUES (?, ?, ?, ?, ?, ?)', [proposals.text(r, 'proposal_id'), proposals.text(r, 'tenant'), textOr(p.state, ''), textOr(p.kind, ''), msOf(p.createdAt) ?? 0, proposals.text(r, 'doc')]);
    }
  });
  const gates = oldColumns('approval_gates');
  const moved = columnsOf('proposals');
  await eachPage(s, old('approval_gates'), 'approval_id, proposal_id, doc', ['approval_id'], async (rows) => {
    for (const r of rows) {
      const proposalId = gates.text(r, 'proposal_id');
      const owner = await s.get('SELECT tenant FROM proposals WHERE proposal_id = ?', [proposalId]);
      const tenant = owner === undefined ? '' : moved.text(owner, 'tenant');
      await s.run('INSERT INTO approval_gates (approval_id, proposal_id, tenant, doc) VALUES (?, ?, ?, ?)', [gates.text(r, 'approval_id'), proposalId, tenant, gates.text(r, 'doc')]);
    }
  });
  const installed = oldColumns('installed_artifacts');
  await eachPage(s, old('installed_artifacts'), 'tenant, proposal_id, doc', ['ord'], async (rows) => {
    for (const r of rows) await s.run('INSERT INTO installed_artifacts (tenant, proposal_id, kind, doc) VALUES (?, ?, ?, ?)', [installed.text(r, 'tenant'), installed.text(r, 'proposal_id'), textOr(installed.doc(r, 'doc').kind, ''), installed.text(r, 'doc')]);
  });
}

/** Every count a bound is checked against, computed from the records moved. */
async function countQuotas(s: SqlSession): Promise<void> {
  const counts = [
    "SELECT tenant, 'memory-entries', memory_ref, count(*) FROM entries GROUP BY tenant, memory_ref",
    "SELECT tenant, 'memory-bytes', '', sum(bytes) FROM entries GROUP BY tenant",
    "SELECT tenant, 'armed-commitments', '', count(*) FROM commitments WHERE state = 'armed' GROUP BY tenant",
    "SELECT tenant, 'commitment-ledger', '', count(*) FROM commitments GROUP BY tenant",
    "SELECT tenant, 'distillation-schedules', '', count(*) FROM schedules GROUP BY tenant",
    "SELECT tenant, 'open-operator-questions', '', count(*) FROM questions WHERE state = 'pending' GROUP BY tenant",
    "SELECT tenant, 'ended-operator-questions', '', count(*) FROM questions WHERE state <> 'pending' GROUP BY tenant",
    "SELECT tenant, 'proposals', '', count(*) FROM proposals GROUP BY tenant",
    "SELECT tenant, 'forks', '', count(*) FROM runs WHERE kind = 'fork' AND ended_ms IS NULL GROUP BY tenant",
    "SELECT tenant, 'ended-runs', '', count(*) FROM runs WHERE ended_ms IS NOT NULL GROUP BY tenant",
  ];
  for (const q of counts) await s.run(`INSERT INTO quotas (tenant, resource, scope, n) ${q}`);
}
