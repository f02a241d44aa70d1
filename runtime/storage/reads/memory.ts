/**
 * Queries of memory entries, live and as of a replay snapshot. Every one names the tenant (CTI-1 in the statement,
 * besides the reader's own check) and is one indexed statement: a page costs the same whatever the scope's size —
 * newest first, resumed after a position (neg_created, id) that never changes while the entry lives, expired
 * entries skipped in the index.
 */
import type { MemoryEntry } from '../../../generated/ts/index.ts';
import { columnsOf } from '../sql/columns.ts';
import type { Row, SqlSession, SqlValue } from '../sql/session.ts';

/** Where a page ends: the list resumes after this entry. */
export interface EntryPosition {
  readonly negCreated: number;
  readonly id: string;
}

export interface EntryPage {
  readonly entries: MemoryEntry[];
  /** Present when more entries follow. */
  readonly next?: EntryPosition;
}

export interface PageArgs {
  readonly tenant: string;
  readonly memoryRef: string;
  /** Entries expired at this instant are skipped. */
  readonly atMs: number;
  readonly limit: number;
  readonly after?: EntryPosition;
  readonly tag?: string;
}

const ENTRIES = columnsOf('entries');
const JOURNAL = columnsOf('journal');

/** The entry a row's `doc` column holds. */
const entryOf = (r: Row): MemoryEntry => ENTRIES.entry(r, 'doc');

/** A page of rows (neg_created, id, doc), one more than `limit` read to know whether more follow. */
function paged(rows: readonly Row[], limit: number): EntryPage {
  const n = Math.min(rows.length, limit);
  const entries = new Array<MemoryEntry>(n);
  for (let i = 0; i < n; i++) entries[i] = entryOf(rows[i]!);
  if (rows.length <= limit) return { entries };
  const last = rows[limit - 1]!;
  return { entries, next: { negCreated: ENTRIES.int(last, 'neg_created'), id: ENTRIES.text(last, 'id') } };
}

/** A page of entries already decoded (a snapshot's tag filter). */
function pagedEntries(kept: readonly MemoryEntry[], limit: number): EntryPage {
  const entries = kept.slice(0, limit);
  if (kept.length <= limit) return { entries };
  const last = kept[limit - 1]!;
  return { entries, next: { negCreated: -Date.parse(last.createdAt), id: last.id } };
}

/** One page of a memoryRef's live (unexpired) entries, newest first; with `tag`, only entries carrying it. */
export async function entryPage(s: SqlSession, a: PageArgs): Promise<EntryPage> {
  const keys = a.tag === undefined ? 'entries' : 'entry_tags';
  // The page's conditions on the key rows (`x.` when they are joined to their documents).
  const conditions = (x: string) => [`${x}tenant = ?`, `${x}memory_ref = ?`, ...(a.tag === undefined ? [] : [`${x}tag = ?`]), `(${x}expires_ms IS NULL OR ${x}expires_ms > ?)`, ...(a.after === undefined ? [] : [`(${x}neg_created, ${x}id) > (?, ?)`])];
  const params: SqlValue[] = [a.tenant, a.memoryRef, ...(a.tag === undefined ? [] : [a.tag]), a.atMs, ...(a.after === undefined ? [] : [a.after.negCreated, a.after.id])];
  if (s.dialect === 'postgres') {
    // Two steps in one statement: the page's keys from the index alone (an index-only scan: expired entries are
    // skipped on the index entries, not by fetching their rows), then the documents of just those keys.
    const rows = await s.all(
      `SELECT k.neg_created, k.id, e.doc FROM (SELECT neg_created, id FROM ${keys} WHERE ${conditions('').join(' AND ')} ORDER BY neg_created, id LIMIT ?) k ` +
        'JOIN entries e ON e.tenant = ? AND e.memory_ref = ? AND e.id = k.id ORDER BY k.neg_created, k.id',
      [...params, a.limit + 1, a.tenant, a.memoryRef],
      a.limit + 1,
    );
    return paged(rows, a.limit);
  }
  // SQLite: one pass down the index (in process, a row fetch costs little; the two-step form doubled a page's cost).
  const from = a.tag === undefined ? 'entries x' : 'entry_tags x JOIN entries e ON e.tenant = x.tenant AND e.memory_ref = x.memory_ref AND e.id = x.id';
  const rows = await s.all(
    `SELECT x.neg_created, x.id, ${a.tag === undefined ? 'x.doc' : 'e.doc'} AS doc FROM ${from} WHERE ${conditions('x.').join(' AND ')} ORDER BY x.neg_created, x.id`,
    params,
    a.limit + 1,
  );
  return paged(rows, a.limit);
}

/** The stored entry `id` of a memoryRef, expired or not (each view applies the TTL rule itself). */
export async function entryGet(s: SqlSession, a: { readonly tenant: string; readonly memoryRef: string; readonly id: string }): Promise<MemoryEntry | undefined> {
  const row = await s.get('SELECT doc FROM entries WHERE tenant = ? AND memory_ref = ? AND id = ?', [a.tenant, a.memoryRef, a.id]);
  return row === undefined ? undefined : entryOf(row);
}

/** A memoryRef's entries (with `tag`, or all) unexpired at `atMs`, oldest first (then id) — at most `limit`. */
export async function entriesOldestFirst(s: SqlSession, a: { readonly tenant: string; readonly memoryRef: string; readonly atMs: number; readonly tag?: string; readonly limit: number }): Promise<MemoryEntry[]> {
  const rows = a.tag === undefined
    ? await s.all('SELECT doc FROM entries WHERE tenant = ? AND memory_ref = ? AND (expires_ms IS NULL OR expires_ms > ?) ORDER BY neg_created DESC, id', [a.tenant, a.memoryRef, a.atMs], a.limit)
    : await s.all(
      'SELECT e.doc AS doc FROM entry_tags x JOIN entries e ON e.tenant = x.tenant AND e.memory_ref = x.memory_ref AND e.id = x.id WHERE x.tenant = ? AND x.memory_ref = ? AND x.tag = ? AND (x.expires_ms IS NULL OR x.expires_ms > ?) ORDER BY x.neg_created DESC, x.id',
      [a.tenant, a.memoryRef, a.tag, a.atMs],
      a.limit,
    );
  return rows.map(entryOf);
}

// ── Replay snapshots (RFC 0039 §B) ──────────────────────────────────────────────────────────────────────────────

/** How far the journal has been pruned: a snapshot at or before this position cannot be served. */
export async function journalPrunedThrough(s: SqlSession): Promise<number> {
  const row = await s.get("SELECT value FROM meta WHERE key = 'journal_pruned_through'");
  return row === undefined ? 0 : Number(columnsOf('meta').text(row, 'value'));
}

/**
 * The entries of a memoryRef as they were at journal position `jseq`: the live rows no mutation after `jseq` touched,
 * and for each entry a later mutation did touch, its before-image in the first such mutation (absent when it did
 * not exist then). Entries expired at the snapshot's clock `atMs` are skipped. Newest first, one page.
 */
export async function snapshotPage(s: SqlSession, a: PageArgs & { readonly jseq: number }): Promise<EntryPage> {
  const snapshot = `
    WITH changed AS (SELECT memory_id, min(jseq) AS first FROM journal WHERE tenant = ? AND memory_ref = ? AND jseq > ? GROUP BY memory_id),
    snap AS (
      SELECT e.neg_created AS neg_created, e.id AS id, e.expires_ms AS expires_ms, e.doc AS doc FROM entries e
        WHERE e.tenant = ? AND e.memory_ref = ? AND NOT EXISTS (SELECT 1 FROM changed c WHERE c.memory_id = e.id)
      UNION ALL
      SELECT j.before_neg_created, j.memory_id, j.before_expires_ms, j.before_doc FROM journal j JOIN changed c ON j.jseq = c.first
        WHERE j.before_doc IS NOT NULL
    )
    SELECT neg_created, id, doc FROM snap WHERE (expires_ms IS NULL OR expires_ms > ?)${a.after === undefined ? '' : ' AND (neg_created, id) > (?, ?)'} ORDER BY neg_created, id`;
  const params: SqlValue[] = [a.tenant, a.memoryRef, a.jseq, a.tenant, a.memoryRef, a.atMs, ...(a.after === undefined ? [] : [a.after.negCreated, a.after.id])];
  if (a.tag === undefined) return paged(await s.all(snapshot, params, a.limit + 1), a.limit);
  // A tag filter on a snapshot reads the snapshot in pages and keeps the entries carrying the tag (a fork's view is
  // bounded by the journal's retention, not by the scope's history).
  const kept: MemoryEntry[] = [];
  let after = a.after;
  for (let pages = 0; pages < 64 && kept.length <= a.limit; pages++) {
    const page = await snapshotPage(s, { ...a, tag: undefined, limit: 256, ...(after !== undefined ? { after } : {}) });
    for (const e of page.entries) if (e.tags.includes(a.tag)) kept.push(e);
    if (page.next === undefined) break;
    after = page.next;
  }
  return pagedEntries(kept, a.limit);
}

/** The entry `id` as it was at journal position `jseq` (expired or not), or undefined when it did not exist then. */
export async function snapshotGet(s: SqlSession, a: { readonly tenant: string; readonly memoryRef: string; readonly id: string; readonly jseq: number }): Promise<MemoryEntry | undefined> {
  const undo = await s.get('SELECT before_doc FROM journal WHERE tenant = ? AND memory_ref = ? AND memory_id = ? AND jseq > ? ORDER BY jseq LIMIT 1', [a.tenant, a.memoryRef, a.id, a.jseq]);
  if (undo !== undefined) return JOURNAL.textOrNull(undo, 'before_doc') === null ? undefined : JOURNAL.entry(undo, 'before_doc');
  return entryGet(s, a);
}
