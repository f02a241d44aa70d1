/**
 * Write operations on the store's smaller records: RFC 0096 proposals, approval gates and installed artefacts;
 * the P066 document logs (transcripts, traces); distillation's workspace files; the last consolidation pass per
 * memoryRef; once-only claims by key; and test fixtures (retired oldest first past their bound).
 */
import { QuotaExceededError } from '../../shared/quota.ts';
import type { JsonDoc, StoredDoc } from '../port.ts';
import { fromWireRefusal, StoreRefusal, type WireRefusal } from '../refusal.ts';
import { columnsOf } from '../sql/columns.ts';
import type { SqlSession } from '../sql/session.ts';

const PROPOSALS = columnsOf('proposals');
const GATES = columnsOf('approval_gates');
const DOC_LOGS = columnsOf('doc_logs');
const FIXTURES = columnsOf('fixtures');
const RUNS = columnsOf('runs');
const CLAIMS = columnsOf('claims');
import { claimTaken } from './commitments.ts';
import { clearRef } from './memory.ts';
import { bump } from './quota.ts';
import { removeRuns, type RunBound } from './runs.ts';

export const QUOTA_PROPOSALS = 'proposals';

/** Approval gates one proposal may open over its life (kept for audit; one more is a 429). */
export const GATES_PER_PROPOSAL = 64;

const staleRevision = (): StoreRefusal => new StoreRefusal('stale_read', 'the record changed since it was read');

export interface PutProposalArgs {
  readonly proposalId: string;
  readonly tenant: string;
  readonly state: string;
  readonly kind: string;
  readonly createdMs: number;
  readonly doc: StoredDoc;
  /** The revision the caller read (absent: a new proposal, counted against the tenant's bound). */
  readonly revisionRead?: number;
  readonly revision: number;
  readonly limit: number;
}

/** Store a new proposal or replace the one the caller read (refused as stale when it moved). */
export async function putProposal(s: SqlSession, a: PutProposalArgs): Promise<void> {
  const doc = JSON.stringify(a.doc);
  if (a.revisionRead === undefined) {
    await s.run('INSERT INTO proposals (proposal_id, tenant, state, kind, created_ms, doc) VALUES (?, ?, ?, ?, ?, ?)', [a.proposalId, a.tenant, a.state, a.kind, a.createdMs, doc]);
    await bump(s, a.tenant, QUOTA_PROPOSALS, '', 1, a.limit);
    return;
  }
  const row = await s.get('SELECT doc FROM proposals WHERE proposal_id = ? AND tenant = ?', [a.proposalId, a.tenant]);
  if (row === undefined || PROPOSALS.doc(row, 'doc').revision !== a.revisionRead) throw staleRevision();
  await s.run('UPDATE proposals SET state = ?, doc = ? WHERE proposal_id = ?', [a.state, doc, a.proposalId]);
}

/** Store a gate, or replace one whose state the caller read (refused as stale when it moved). */
export async function putGate(s: SqlSession, a: { readonly approvalId: string; readonly proposalId: string; readonly tenant: string; readonly doc: StoredDoc; readonly stateRead?: string }): Promise<void> {
  const doc = JSON.stringify(a.doc);
  if (a.stateRead === undefined) {
    // Gates are kept for audit, whatever their state: each proposal may open GATES_PER_PROPOSAL of them (every revise
    // supersedes the pending one, so revise-then-apply could otherwise add rows without end).
    const opened = GATES.int((await s.get('SELECT count(*) AS n FROM approval_gates WHERE proposal_id = ?', [a.proposalId])) ?? {}, 'n');
    if (opened >= GATES_PER_PROPOSAL) throw new QuotaExceededError('approval-gates-per-proposal', GATES_PER_PROPOSAL);
    await s.run('INSERT INTO approval_gates (approval_id, proposal_id, tenant, doc) VALUES (?, ?, ?, ?)', [a.approvalId, a.proposalId, a.tenant, doc]);
    return;
  }
  const row = await s.get('SELECT doc FROM approval_gates WHERE approval_id = ?', [a.approvalId]);
  if (row === undefined || GATES.doc(row, 'doc').state !== a.stateRead) throw staleRevision();
  await s.run('UPDATE approval_gates SET doc = ? WHERE approval_id = ?', [doc, a.approvalId]);
}

/** Install an applied proposal's artefact (once per proposal). */
export async function installArtifact(s: SqlSession, a: { readonly tenant: string; readonly proposalId: string; readonly kind: string; readonly doc: StoredDoc }): Promise<void> {
  const existing = await s.get('SELECT seq FROM installed_artifacts WHERE proposal_id = ?', [a.proposalId]);
  if (existing !== undefined) throw claimTaken();
  await s.run('INSERT INTO installed_artifacts (tenant, proposal_id, kind, doc) VALUES (?, ?, ?, ?)', [a.tenant, a.proposalId, a.kind, JSON.stringify(a.doc)]);
}

/**
 * Append a document to a log; its position. `item` names it uniquely under its key (a second one of the same item is
 * refused, `duplicate_item`); `grp` files it in a group under its key that can be counted by index (a transcript's
 * turns of one session). `readAbsent`: the caller read that the item was not there and decided on that read, so a
 * second one means the read went stale (`stale_read`: the unit of work runs the request again, which then finds it).
 */
export async function appendDoc(s: SqlSession, a: { readonly log: string; readonly tenant?: string; readonly key?: string; readonly item?: string; readonly grp?: string; readonly readAbsent?: true; readonly atMs: number; readonly doc: StoredDoc }): Promise<number> {
  const head = await s.get('INSERT INTO doc_log_heads (log, next_pos) VALUES (?, 1) ON CONFLICT (log) DO UPDATE SET next_pos = doc_log_heads.next_pos + 1 RETURNING next_pos - 1 AS pos', [a.log]);
  const pos = DOC_LOGS.int(head ?? {}, 'pos');
  const n = await s.run('INSERT INTO doc_logs (log, pos, tenant, doc_key, item, grp, at_ms, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING', [a.log, pos, a.tenant ?? null, a.key ?? null, a.item ?? null, a.grp ?? null, a.atMs, JSON.stringify(a.doc)]);
  if (n !== 1 && a.readAbsent === true) throw new StoreRefusal('stale_read', `${a.log} gained ${JSON.stringify((a.item ?? '').slice(0, 80))} under this key since it was read as absent`);
  if (n !== 1) throw new StoreRefusal('duplicate_item', `${a.log} already holds ${JSON.stringify((a.item ?? '').slice(0, 80))} under this key: it is append-only`);
  return pos;
}

/**
 * Replace a logged document (a transcript line whose fact was excised): it keeps its item (an excised fact's id stays
 * taken) and leaves its group (it is counted no more); whether it existed.
 */
export async function replaceDoc(s: SqlSession, a: { readonly log: string; readonly pos: number; readonly doc: StoredDoc }): Promise<boolean> {
  return (await s.run('UPDATE doc_logs SET doc = ?, grp = NULL WHERE log = ? AND pos = ?', [JSON.stringify(a.doc), a.log, a.pos])) === 1;
}

/** Drop a log's documents older than `beforeMs` (retention), at most `limit`; how many. */
export async function pruneDocs(s: SqlSession, a: { readonly log: string; readonly beforeMs: number; readonly limit: number }): Promise<number> {
  const rows = await s.all('SELECT pos FROM doc_logs WHERE log = ? AND at_ms < ? ORDER BY pos', [a.log, a.beforeMs], a.limit);
  if (rows.length === 0) return 0;
  return s.run('DELETE FROM doc_logs WHERE log = ? AND pos <= ?', [a.log, DOC_LOGS.int(rows[rows.length - 1]!, 'pos')]);
}

/** Write a workspace file of a memoryRef. */
export async function putWorkspaceFile(s: SqlSession, a: { readonly tenant: string; readonly memoryRef: string; readonly path: string; readonly contents: string }): Promise<void> {
  await s.run('INSERT INTO workspace_files (tenant, memory_ref, path, doc) VALUES (?, ?, ?, ?) ON CONFLICT (tenant, memory_ref, path) DO UPDATE SET doc = excluded.doc', [a.tenant, a.memoryRef, a.path, a.contents]);
}

/** Record the last consolidation pass over a memoryRef. */
export async function recordPass(s: SqlSession, a: { readonly tenant: string; readonly memoryRef: string; readonly pass: StoredDoc }): Promise<void> {
  await s.run('INSERT INTO consolidation_passes (tenant, memory_ref, doc) VALUES (?, ?, ?) ON CONFLICT (tenant, memory_ref) DO UPDATE SET doc = excluded.doc', [a.tenant, a.memoryRef, JSON.stringify(a.pass)]);
}

/**
 * Take a once-only claim; refused when someone took it first — with `refuseAs` when given (the caller's own error,
 * as data so it crosses the writer thread), `claim_taken` otherwise — unless `ifTaken: 'ignore'` (then false).
 */
export async function claim(s: SqlSession, a: { readonly key: string; readonly tenant?: string; readonly atMs: number; readonly ifTaken?: 'refuse' | 'ignore'; readonly refuseAs?: WireRefusal }): Promise<boolean> {
  const n = await s.run('INSERT INTO claims (claim_key, tenant, at_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [a.key, a.tenant ?? null, a.atMs]);
  if (n === 1) return true;
  if (a.ifTaken === 'ignore') return false;
  throw a.refuseAs !== undefined ? fromWireRefusal(a.refuseAs) : claimTaken();
}

export interface AddFixtureArgs {
  readonly tenant: string;
  readonly memoryRef: string;
  readonly createdMs: number;
  /** Fixtures a tenant keeps: past it the oldest are retired (runs, logs, registries and entries). */
  readonly limit: number;
  readonly runBounds?: Readonly<Record<string, RunBound>>;
}

/** Count a new fixture for its tenant, retiring the oldest past the bound; the retired memoryRefs. */
export async function addFixture(s: SqlSession, a: AddFixtureArgs): Promise<string[]> {
  const n = await s.run('INSERT INTO fixtures (tenant, memory_ref, created_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [a.tenant, a.memoryRef, a.createdMs]);
  if (n === 0) return [];
  const held = await bump(s, a.tenant, 'fixtures', '', 1);
  if (held <= a.limit) return [];
  const old = (await s.all('SELECT memory_ref FROM fixtures WHERE tenant = ? AND memory_ref <> ? ORDER BY created_ms, memory_ref', [a.tenant, a.memoryRef], held - a.limit)).map((r) => FIXTURES.text(r, 'memory_ref'));
  for (const memory_ref of old) {
    const runs = await s.all('SELECT run_id FROM runs WHERE tenant = ? AND fixture_ref = ?', [a.tenant, memory_ref], 10_000);
    await removeRuns(s, { runIds: runs.map((r) => RUNS.text(r, 'run_id')), ...(a.runBounds !== undefined ? { bounds: a.runBounds } : {}) });
    await clearRef(s, { tenant: a.tenant, memoryRef: memory_ref, atMs: a.createdMs, limit: 100_000 });
    await s.run('DELETE FROM fixtures WHERE tenant = ? AND memory_ref = ?', [a.tenant, memory_ref]);
  }
  await bump(s, a.tenant, 'fixtures', '', -old.length);
  return old;
}

/** Drop claims taken before `beforeMs` (their work is long done; a run's interrupt claims go with the run's retention). */
export async function pruneClaims(s: SqlSession, a: { readonly beforeMs: number; readonly limit: number }): Promise<number> {
  const rows = await s.all('SELECT claim_key FROM claims WHERE at_ms < ? ORDER BY at_ms', [a.beforeMs], a.limit);
  for (const r of rows) await s.run('DELETE FROM claims WHERE claim_key = ?', [CLAIMS.text(r, 'claim_key')]);
  return rows.length;
}

/**
 * Set one of the store's own settings (`meta`): a probe write after the disk was full, the fleet's credential
 * fingerprints. Only the keys below may be set.
 */
export async function setMeta(s: SqlSession, a: { readonly key: string; readonly value: string; readonly when?: MetaCondition }): Promise<boolean> {
  if (!META_KEYS.test(a.key)) throw new StoreRefusal('invalid_meta_key', `meta key ${JSON.stringify(a.key.slice(0, 40))} is not one a caller may set`);
  const when = a.when ?? { always: true };
  if ('absent' in when) return (await s.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [a.key, a.value])) === 1;
  if ('was' in when) {
    if ((await s.run('UPDATE meta SET value = ? WHERE key = ? AND value = ?', [a.value, a.key, when.was])) === 1) return true;
    throw new StoreRefusal('stale_read', `meta ${a.key} changed since it was read`);
  }
  await s.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [a.key, a.value]);
  return true;
}

/** When a meta value is set: always, only when the key has none yet (whether it did: the result), or only over `was`. */
export type MetaCondition = { readonly always: true } | { readonly absent: true } | { readonly was: string };

/** The meta keys callers may set: `probe`, and the `fleet.` and `fixtures.` namespaces. */
const META_KEYS = /^(probe|(fleet|fixtures)\.[a-z0-9_.-]{1,60})$/;

