/**
 * Queries of the store's smaller records: workspace files, the last consolidation pass, RFC 0096 proposals, gates
 * and installed artefacts, document logs (transcripts, traces), claims, and counts.
 */
import type { JsonDoc } from '../port.ts';
import { columnsOf, type Columns } from '../sql/columns.ts';
import type { Row, SqlSession } from '../sql/session.ts';

const WORKSPACE = columnsOf('workspace_files');
const PASSES = columnsOf('consolidation_passes');
const PROPOSALS = columnsOf('proposals');
const GATES = columnsOf('approval_gates');
const INSTALLED = columnsOf('installed_artifacts');
const DOC_LOGS = columnsOf('doc_logs');
const COUNTS = columnsOf('counts');
const QUOTAS = columnsOf('quotas');
const META = columnsOf('meta');

/** The `doc` column of a row of `table`, if there is a row. */
const docOf = (table: Columns, row: Row | undefined): JsonDoc | undefined => (row === undefined ? undefined : table.doc(row, 'doc'));
/** A row's tenant and document. */
const ownedDoc = (table: Columns, r: Row): { readonly tenant: string; readonly doc: JsonDoc } => ({ tenant: table.text(r, 'tenant'), doc: table.doc(r, 'doc') });
const loggedDoc = (r: Row): LoggedDoc => ({ pos: DOC_LOGS.int(r, 'pos'), doc: DOC_LOGS.doc(r, 'doc') });

/** A workspace file of a memoryRef (its text), if written. */
export async function workspaceFile(s: SqlSession, a: { readonly tenant: string; readonly memoryRef: string; readonly path: string }): Promise<string | undefined> {
  const r = await s.get('SELECT doc FROM workspace_files WHERE tenant = ? AND memory_ref = ? AND path = ?', [a.tenant, a.memoryRef, a.path]);
  return r === undefined ? undefined : WORKSPACE.text(r, 'doc');
}

/** The last consolidation pass over a memoryRef. */
export async function lastPass(s: SqlSession, a: { readonly tenant: string; readonly memoryRef: string }): Promise<JsonDoc | undefined> {
  return docOf(PASSES, await s.get('SELECT doc FROM consolidation_passes WHERE tenant = ? AND memory_ref = ?', [a.tenant, a.memoryRef]));
}

export interface ProposalRecord {
  readonly tenant: string;
  readonly doc: JsonDoc;
}

export async function proposalGet(s: SqlSession, proposalId: string): Promise<ProposalRecord | undefined> {
  const r = await s.get('SELECT tenant, doc FROM proposals WHERE proposal_id = ?', [proposalId]);
  return r === undefined ? undefined : ownedDoc(PROPOSALS, r);
}

/** A tenant's proposals, oldest first. */
export async function proposalsOf(s: SqlSession, a: { readonly tenant: string; readonly limit: number }): Promise<JsonDoc[]> {
  return (await s.all('SELECT doc FROM proposals WHERE tenant = ? ORDER BY created_ms, proposal_id', [a.tenant], a.limit)).map((r) => PROPOSALS.doc(r, 'doc'));
}

export async function gateGet(s: SqlSession, approvalId: string): Promise<JsonDoc | undefined> {
  return docOf(GATES, await s.get('SELECT doc FROM approval_gates WHERE approval_id = ?', [approvalId]));
}

/** The gates of a proposal (a proposal has few: one per apply). */
export async function gatesOf(s: SqlSession, a: { readonly proposalId: string; readonly limit: number }): Promise<JsonDoc[]> {
  return (await s.all('SELECT doc FROM approval_gates WHERE proposal_id = ? ORDER BY approval_id', [a.proposalId], a.limit)).map((r) => GATES.doc(r, 'doc'));
}

/** What a proposal installed, if it was applied. */
export async function installedFor(s: SqlSession, proposalId: string): Promise<{ readonly tenant: string; readonly doc: JsonDoc } | undefined> {
  const r = await s.get('SELECT tenant, doc FROM installed_artifacts WHERE proposal_id = ?', [proposalId]);
  return r === undefined ? undefined : ownedDoc(INSTALLED, r);
}

/** A tenant's installed artefacts (of one kind, or all), in install order. */
export async function installedOf(s: SqlSession, a: { readonly tenant: string; readonly kind?: string; readonly limit: number }): Promise<JsonDoc[]> {
  const rows = a.kind === undefined
    ? await s.all('SELECT doc FROM installed_artifacts WHERE tenant = ? ORDER BY seq', [a.tenant], a.limit)
    : await s.all('SELECT doc FROM installed_artifacts WHERE tenant = ? AND kind = ? ORDER BY seq', [a.tenant, a.kind], a.limit);
  return rows.map((r) => INSTALLED.doc(r, 'doc'));
}

export interface LoggedDoc {
  readonly pos: number;
  readonly doc: JsonDoc;
}

/**
 * A page of a document log from position `fromPos` on (with `key`, only the documents filed under it), oldest
 * first — or, with `newestFirst`, the newest ones first.
 */
export async function docsPage(s: SqlSession, a: { readonly log: string; readonly key?: string; readonly tenant?: string; readonly fromPos: number; readonly limit: number; readonly newestFirst?: boolean }): Promise<LoggedDoc[]> {
  const where = ['log = ?', 'pos >= ?', ...(a.key !== undefined ? ['doc_key = ?'] : []), ...(a.tenant !== undefined ? ['tenant = ?'] : [])];
  const params = [a.log, a.fromPos, ...(a.key !== undefined ? [a.key] : []), ...(a.tenant !== undefined ? [a.tenant] : [])];
  const rows = await s.all(`SELECT pos, doc FROM doc_logs WHERE ${where.join(' AND ')} ORDER BY pos${a.newestFirst === true ? ' DESC' : ''}`, params, a.limit);
  return rows.map(loggedDoc);
}

/** The document filed as `item` under `key` in a log, with its position. */
export async function docByItem(s: SqlSession, a: { readonly log: string; readonly key: string; readonly item: string }): Promise<LoggedDoc | undefined> {
  const r = await s.get('SELECT pos, doc FROM doc_logs WHERE log = ? AND doc_key = ? AND item = ?', [a.log, a.key, a.item]);
  return r === undefined ? undefined : loggedDoc(r);
}

/** How many documents are filed in group `grp` under `key` in a log (an index range: the group's size, not the log's). */
export async function docCount(s: SqlSession, a: { readonly log: string; readonly key: string; readonly grp: string }): Promise<number> {
  const r = await s.get('SELECT count(*) AS n FROM doc_logs WHERE log = ? AND doc_key = ? AND grp = ?', [a.log, a.key, a.grp]);
  return r === undefined ? 0 : COUNTS.int(r, 'n');
}

/** Whether a once-only claim was taken. */
export async function claimTaken(s: SqlSession, key: string): Promise<boolean> {
  return (await s.get('SELECT 1 AS x FROM claims WHERE claim_key = ?', [key])) !== undefined;
}

/** The count (tenant, resource, scope) holds (0 when never counted). */
export async function quotaCount(s: SqlSession, a: { readonly tenant: string; readonly resource: string; readonly scope?: string }): Promise<number> {
  const r = await s.get('SELECT n FROM quotas WHERE tenant = ? AND resource = ? AND scope = ?', [a.tenant, a.resource, a.scope ?? '']);
  return r === undefined ? 0 : QUOTAS.int(r, 'n');
}

/** One of the store's own settings (`meta`), if set. */
export async function metaValue(s: SqlSession, key: string): Promise<string | undefined> {
  const r = await s.get('SELECT value FROM meta WHERE key = ?', [key]);
  return r === undefined ? undefined : META.text(r, 'value');
}
