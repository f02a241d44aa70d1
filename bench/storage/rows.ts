/**
 * Store rows for the storage benchmarks, in the shapes the runtime writes them (runtime/storage/ops/*.ts inserts:
 * the same columns, the same document text), so a store filled by bulk inserts reads back through the runtime like
 * one a host filled request by request.
 *
 * - Entries, runs, events, journal records, commitments, schedules and quotas are built here from the generated
 *   types (MemoryEntry, RunEvent and its payload map) and the ops' column lists; `checkRows` validates samples with
 *   the generated validators.
 * - Operator questions and proposals carry records whose shape is the runtime's own business (a question's record
 *   and state DTO, a proposal's document): they are recorded once from the runtime itself (`recordTemplates`: one
 *   question proposed and one proposal synthesised on an in-memory host) and copied with their keys replaced.
 *
 * Every value is derived from a seeded generator or an index, so a store is the same on every build.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { MemoryEntry, RunEvent } from '../../generated/ts/index.ts';
import type { RunEventPayloadMap } from '../../generated/run-events/index.ts';
import { validateMemoryEntry } from '../../generated/validators/validators.js';
import { validateRunEvent } from '../../runtime/events/validate.ts';
import type { QuestionRecord } from '../../runtime/inquirium/operator-questions.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createHost } from '../../runtime/host/server.ts';
import { wireEntry } from '../../runtime/storage/ops/memory.ts';
import type { SqlValue } from '../../runtime/storage/sql/session.ts';
import { rng } from '../rng.ts';

/** One row to insert: the table, and its values in the order of TABLE_COLUMNS[table]. */
export type Row = readonly [table: TableName, values: readonly SqlValue[]];

/** The columns each bulk-filled table is written with (the ops' INSERT column lists). */
export const TABLE_COLUMNS = {
  entries: ['tenant', 'memory_ref', 'id', 'neg_created', 'expires_ms', 'bytes', 'doc'],
  entry_tags: ['tenant', 'memory_ref', 'tag', 'neg_created', 'id', 'expires_ms'],
  journal: ['jseq', 'tenant', 'memory_ref', 'memory_id', 'at_ms', 'run_id', 'before_doc', 'before_neg_created', 'before_expires_ms', 'after_doc'],
  runs: ['run_id', 'tenant', 'kind', 'status', 'created_ms', 'ended_ms', 'next_seq', 'parent_run_id', 'anchor_jseq', 'anchor_at_ms', 'fixture_ref', 'doc'],
  events: ['run_id', 'seq', 'jseq', 'at_ms', 'type', 'doc'],
  quotas: ['tenant', 'resource', 'scope', 'n'],
  commitments: ['arm_seq', 'tenant', 'commitment_id', 'kind', 'due_ms', 'predicate_id', 'state', 'pred_last', 'pred_transitions', 'doc'],
  schedules: ['schedule_id', 'tenant', 'memory_ref', 'next_at', 'created_ms', 'last_slot', 'last_outcome', 'doc'],
  questions: ['tenant', 'ref', 'state', 'deadline_ms', 'opened_ms', 'ended_ms', 'doc'],
  question_history: ['tenant', 'ref', 'n', 'doc'],
  proposals: ['proposal_id', 'tenant', 'state', 'kind', 'created_ms', 'doc'],
  meta: ['key', 'value'],
} as const satisfies Record<string, readonly string[]>;
export type TableName = keyof typeof TABLE_COLUMNS;

/** `length` hex digits derived from a name, the same on every build. */
export const hexOf = (name: string, length: number): string => createHash('sha256').update(name).digest('hex').slice(0, length);

/** A runtime-shaped id (`mem_<uuid>`, `run_<uuid>`…) derived from a name, the same on every build. */
export function idOf(prefix: string, name: string): string {
  const h = hexOf(name, 32);
  return `${prefix}_${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const WORDS = ('customer prefers email follow-up refund order invoice approved window ticket shipping free over contract ' +
  'renewal meeting notes summary escalation priority billing address changed support request resolved pending review ' +
  'delivery delayed warehouse tracking number account settings language timezone reminder deadline quarterly report').split(' ');
/** Tags entries carry (one to three each); `k:0`…`k:9` spread evenly. */
export const TAGS = ['note', 'pref', 'billing', 'support', 'followup', ...Array.from({ length: 10 }, (_, i) => `k:${i}`)];

/** Content of entry `n`: 40 to 400 characters of words, the same for the same `n` on every build. */
export function contentOf(n: number): string {
  const r = rng(0x5eed0000 ^ n);
  const target = 40 + Math.floor(r() * 360);
  let s = `Note ${n}:`;
  while (s.length < target) s += ` ${WORDS[Math.floor(r() * WORDS.length)]}`;
  return s;
}

/** One to three distinct tags of entry `n`. */
export function tagsOf(n: number): string[] {
  const r = rng(0x7a950000 ^ n);
  const count = 1 + Math.floor(r() * 3);
  const tags = new Set<string>();
  while (tags.size < count) tags.add(TAGS[Math.floor(r() * TAGS.length)]!);
  return [...tags];
}

const iso = (ms: number): string => new Date(ms).toISOString();

export interface EntrySpec {
  readonly tenant: string;
  readonly memoryRef: string;
  readonly id: string;
  readonly content: string;
  readonly tags: readonly string[];
  readonly createdMs: number;
  readonly expiresMs?: number;
}

/** The entry as the runtime stores and serves it. */
export const entryOf = (e: EntrySpec): MemoryEntry =>
  wireEntry({ id: e.id, content: e.content, tags: [...e.tags], createdAt: iso(e.createdMs), ...(e.expiresMs !== undefined ? { expiresAt: iso(e.expiresMs) } : {}) });

/** The entry's row and its tag rows (memory.put of a new entry); `doc` is the stored text, `bytes` its size. */
export function entryRows(e: EntrySpec): { readonly rows: Row[]; readonly doc: string; readonly bytes: number } {
  const doc = JSON.stringify(entryOf(e));
  const bytes = Buffer.byteLength(doc, 'utf8');
  const expires = e.expiresMs ?? null;
  const rows: Row[] = [['entries', [e.tenant, e.memoryRef, e.id, -e.createdMs, expires, bytes, doc]]];
  for (const tag of new Set(e.tags)) rows.push(['entry_tags', [e.tenant, e.memoryRef, tag, -e.createdMs, e.id, expires]]);
  return { rows, doc, bytes };
}

/** A journal record of an entry's creation (no before-image). */
export const journalRow = (jseq: number, e: EntrySpec, runId: string | null, doc: string): Row => ['journal', [jseq, e.tenant, e.memoryRef, e.id, e.createdMs, runId, null, null, null, doc]];

/** The record a run a client started keeps (runtime/openwop/runs.ts RunRecord). */
export interface RunSpec {
  readonly runId: string;
  readonly tenant: string;
  readonly memoryRef: string;
  readonly workflowId: string;
  readonly createdMs: number;
  readonly endedMs: number;
  readonly events: number;
}

/** An ended run's row (kind `run`, completed). */
export const runRow = (r: RunSpec): Row => [
  'runs',
  [r.runId, r.tenant, 'run', 'completed', r.createdMs, r.endedMs, r.events, null, null, null, null, JSON.stringify({ runId: r.runId, tenant: r.tenant, memoryRef: r.memoryRef, workflowId: r.workflowId })],
];

/** An event row: the event as the log stores it, with the journal position it was appended at. */
export function eventRow<T extends keyof RunEventPayloadMap>(runId: string, seq: number, jseq: number, atMs: number, type: T, payload: RunEventPayloadMap[T]): Row {
  const event: RunEvent = { eventId: idOf('evt', `${runId}/${seq}`), runId, type, payload, timestamp: iso(atMs), sequence: seq } as RunEvent;
  return ['events', [runId, seq, jseq, atMs, type, JSON.stringify(event)]];
}

export const quotaRow = (tenant: string, resource: string, scope: string, n: number): Row => ['quotas', [tenant, resource, scope, n]];

/** An armed time commitment on an entry (commitment.arm), due at `dueMs`. */
export function commitmentRow(armSeq: number, tenant: string, commitmentId: string, memoryRef: string, memoryId: string, dueMs: number): Row {
  const doc = { commitmentId, memoryRef, memoryId, condition: { kind: 'time', at: dueMs }, enqueueRun: true, tenantId: tenant };
  return ['commitments', [armSeq, tenant, commitmentId, 'time', dueMs, null, 'armed', 0, 0, JSON.stringify(doc)]];
}

/** A distillation schedule (schedule.put), next due at `nextAt`. */
export function scheduleRow(scheduleId: string, tenant: string, memoryRef: string, every: string, periodMs: number, nextAt: number, createdMs: number): Row {
  return ['schedules', [scheduleId, tenant, memoryRef, nextAt, createdMs, null, null, JSON.stringify({ scheduleId, memoryRef, tenant, periodMs, every, nextAt })]];
}

// ── Templates recorded from the runtime ────────────────────────────────────────────────────────────────────────

/** A question and a proposal as the runtime stored them: the rows copied for every bulk question and proposal. */
export interface Templates {
  readonly question: { readonly record: QuestionRecord; readonly stateDto: Record<string, unknown> };
  readonly proposal: { readonly doc: Record<string, unknown>; readonly kind: string; readonly state: string };
}

const TEMPLATE_TOKEN = 'bench-templates-operator-token';
const example = (family: string, target: string, file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../schemas/${family}/v1/examples/${target}/valid/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** The operator question every bulk question copies (the schema's example with a timeout), as a request body. */
export function questionRequest(ref: string, key: string): Record<string, unknown> {
  const { $schema: _, ...q } = example('inquirium', 'inquirium.operator-question.request.v1', 'multi-choice-sources.json');
  return { ...q, 'question/ref': ref, response: { ...(q.response as object), 'idempotency/key': key } };
}

/** Propose one question and synthesise one proposal on an in-memory host, and read the rows it stored. */
export async function recordTemplates(): Promise<Templates> {
  const { app, store } = await createHost({ token: TEMPLATE_TOKEN });
  try {
    const headers = { authorization: `Bearer ${TEMPLATE_TOKEN}`, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) => {
      const res = await app.inject({ method: 'POST', url: path, headers, payload: JSON.stringify(body) });
      if (res.statusCode >= 300) throw new Error(`recording a template: POST ${path} answered ${res.statusCode}: ${res.body}`);
    };
    await post(ROUTES.questionPropose.path, questionRequest('question/bench/template', 'bench:template'));
    const { $schema: _, ...proposal } = example('openwop', 'host-sample-proposal-synthesize-request', 'prompt-template.json');
    await post(ROUTES.proposalSynthesize.path, proposal);
    const q = await store.reads.get('SELECT doc FROM questions');
    const h = await store.reads.get('SELECT doc FROM question_history');
    const p = await store.reads.get('SELECT doc, kind, state FROM proposals');
    if (q === undefined || h === undefined || p === undefined) throw new Error('recording a template: the host stored no question or proposal');
    return {
      question: { record: JSON.parse(String(q.doc)) as QuestionRecord, stateDto: JSON.parse(String(h.doc)) as Record<string, unknown> },
      proposal: { doc: JSON.parse(String(p.doc)) as Record<string, unknown>, kind: String(p.kind), state: String(p.state) },
    };
  } finally {
    await app.close();
  }
}

/** The shape of a value (its keys and value types, not its values): what a cached store's templates depend on. */
export const shapeOf = (x: unknown): unknown =>
  Array.isArray(x) ? x.map(shapeOf) : typeof x === 'object' && x !== null ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, shapeOf(v)])) : typeof x;

/** An open question of `tenant` (question.open): its record and first state, copied from the template. */
export function questionRows(t: Templates, tenant: string, ref: string, openedMs: number, deadlineMs: number): Row[] {
  const request = { ...(t.question.record.request as Record<string, unknown>), 'question/ref': ref };
  const record: QuestionRecord = { ...t.question.record, tenant, ref, request: request as QuestionRecord['request'], updatedAt: iso(openedMs), deadline: deadlineMs };
  const state = { ...t.question.stateDto, 'question/ref': ref, 'updated/at': iso(openedMs) };
  return [
    ['questions', [tenant, ref, 'pending', deadlineMs, openedMs, null, JSON.stringify(record)]],
    ['question_history', [tenant, ref, 0, JSON.stringify(state)]],
  ];
}

/** A draft proposal of `tenant` (proposal.put), copied from the template. */
export function proposalRow(t: Templates, proposalId: string, tenant: string, createdMs: number): Row {
  const doc = { ...t.proposal.doc, id: proposalId, owner: { ...(t.proposal.doc.owner as object), tenant }, createdAt: iso(createdMs), updatedAt: iso(createdMs) };
  return ['proposals', [proposalId, tenant, t.proposal.state, t.proposal.kind, createdMs, JSON.stringify(doc)]];
}

/** Validate a sample of the built documents with the generated validators (every `every`-th entry and event). */
export function checkRows(): { check(row: Row): void; readonly checked: number } {
  let seen = 0;
  let checked = 0;
  return {
    check(row) {
      const [table, values] = row;
      if (table !== 'entries' && table !== 'events') return;
      if (seen++ % 97 !== 0) return;
      checked++;
      const doc: unknown = JSON.parse(values[table === 'entries' ? 6 : 5] as string);
      if (table === 'entries' && !validateMemoryEntry(doc)) throw new Error(`a built entry is not a MemoryEntry: ${JSON.stringify(validateMemoryEntry.errors)}`);
      if (table === 'events') {
        const v = validateRunEvent(doc);
        if (!v.ok || !v.known) throw new Error(`a built event is not a valid RunEvent: ${JSON.stringify(v.failures)}`);
      }
    },
    get checked() {
      return checked;
    },
  };
}
