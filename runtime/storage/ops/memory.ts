/**
 * Write operations on memory entries. Each keeps, in one transaction: the entry row, its tag rows, the replay
 * journal record (before- and after-image: what a fork undoes) and the tenant's counts (entries per memoryRef,
 * stored bytes per tenant), refusing past a bound before anything of the request stays.
 *
 * `createdAt` of an entry that is replaced is kept: an entry keeps its place in every list while it lives, so a
 * cursor walk sees it once.
 */
import type { MemoryEntry } from '../../../generated/ts/index.ts';
import { columnsOf } from '../sql/columns.ts';
import type { Row, SqlSession } from '../sql/session.ts';
import { bump, bumpAll, type QuotaMove } from './quota.ts';

/** The bounds a memory write is checked against. */
export interface MemoryBounds {
  readonly entriesPerMemoryRef: number;
  readonly bytesPerTenant: number;
}

export interface StoredRow {
  readonly neg_created: number;
  readonly expires_ms: number | null;
  readonly bytes: number;
  readonly doc: string;
}

const ENTRIES = columnsOf('entries');
const TAGS = columnsOf('entry_tags');
const RUNS = columnsOf('runs');
const JOURNAL = columnsOf('journal');

/** An entry's stored row (neg_created, expires_ms, bytes, doc; its doc kept as the text the journal copies). */
const storedRowOf = (r: Row): StoredRow => ({ neg_created: ENTRIES.int(r, 'neg_created'), expires_ms: ENTRIES.intOrNull(r, 'expires_ms'), bytes: ENTRIES.int(r, 'bytes'), doc: ENTRIES.text(r, 'doc') });
/** The entry a stored row holds. */
const storedEntry = (row: StoredRow): MemoryEntry => ENTRIES.entry({ doc: row.doc }, 'doc');

const QUOTA_ENTRIES = 'memory-entries';
const QUOTA_BYTES = 'memory-bytes';

/** Epoch ms of an ISO instant, or null for an absent one (an unreadable one counts as already expired: 0). */
export const msOf = (iso: string | undefined): number | null => (iso === undefined ? null : Number.isNaN(Date.parse(iso)) ? 0 : Date.parse(iso));

/** The entry in the wire's key order (id, content, tags, createdAt, expiresAt), as it is stored and served. */
export function wireEntry(e: Readonly<MemoryEntry>): MemoryEntry {
  return e.expiresAt === undefined
    ? { id: e.id, content: e.content, tags: [...e.tags], createdAt: e.createdAt }
    : { id: e.id, content: e.content, tags: [...e.tags], createdAt: e.createdAt, expiresAt: e.expiresAt };
}

/** The columns an entry is stored with: the entry as served, its document text, size, expiry and list position. */
export interface EntryColumns {
  readonly stored: MemoryEntry;
  readonly doc: string;
  readonly bytes: number;
  readonly expiresMs: number | null;
  readonly negCreated: number;
}

/** The stored form of `entry` (its createdAt as given). */
export function entryColumns(entry: Readonly<MemoryEntry>): EntryColumns {
  const stored = wireEntry(entry);
  const doc = JSON.stringify(stored);
  return { stored, doc, bytes: Buffer.byteLength(doc, 'utf8'), expiresMs: msOf(stored.expiresAt), negCreated: -Date.parse(stored.createdAt) };
}

/** The count moves of writing an entry of `bytes` over `before` (none: a new entry), checked against `bounds`. */
export const entryMoves = (memoryRef: string, bytes: number, before: Pick<StoredRow, 'bytes'> | undefined, bounds: MemoryBounds): QuotaMove[] => [
  { resource: QUOTA_ENTRIES, scope: memoryRef, delta: before === undefined ? 1 : 0, limit: bounds.entriesPerMemoryRef },
  { resource: QUOTA_BYTES, scope: '', delta: bytes - (before?.bytes ?? 0), limit: bounds.bytesPerTenant },
];

/**
 * The stored row an operation is about to replace or delete, locked until its transaction ends on PostgreSQL: a
 * concurrent replace or delete of the same entry waits, then reads what this one wrote (without the lock both read the
 * same before-image, and the byte count and the journal lost one of the two changes). SQLite has one writer.
 */
async function current(s: SqlSession, tenant: string, memoryRef: string, id: string): Promise<StoredRow | undefined> {
  const r = await s.get(`SELECT neg_created, expires_ms, bytes, doc FROM entries WHERE tenant = ? AND memory_ref = ? AND id = ?${s.dialect === 'postgres' ? ' FOR UPDATE' : ''}`, [tenant, memoryRef, id]);
  return r === undefined ? undefined : storedRowOf(r);
}

async function putTags(s: SqlSession, tenant: string, memoryRef: string, id: string, tags: readonly string[], negCreated: number, expiresMs: number | null): Promise<void> {
  for (const tag of new Set(tags)) {
    await s.run('INSERT INTO entry_tags (tenant, memory_ref, tag, neg_created, id, expires_ms) VALUES (?, ?, ?, ?, ?, ?)', [tenant, memoryRef, tag, negCreated, id, expiresMs]);
  }
}

async function dropTags(s: SqlSession, tenant: string, memoryRef: string, id: string, row: StoredRow): Promise<void> {
  for (const tag of new Set(storedEntry(row).tags)) {
    await s.run('DELETE FROM entry_tags WHERE tenant = ? AND memory_ref = ? AND tag = ? AND neg_created = ? AND id = ?', [tenant, memoryRef, tag, row.neg_created, id]);
  }
}

async function journal(s: SqlSession, a: { tenant: string; memoryRef: string; id: string; atMs: number; runId: string | undefined; before: StoredRow | undefined; after: string | null }): Promise<void> {
  await s.run(
    'INSERT INTO journal (tenant, memory_ref, memory_id, at_ms, run_id, before_doc, before_neg_created, before_expires_ms, after_doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [a.tenant, a.memoryRef, a.id, a.atMs, a.runId ?? null, a.before?.doc ?? null, a.before?.neg_created ?? null, a.before?.expires_ms ?? null, a.after],
  );
}

export interface PutEntryArgs {
  readonly tenant: string;
  readonly memoryRef: string;
  /** The entry as written (already redacted, createdAt = the write's clock reading). */
  readonly entry: MemoryEntry;
  readonly atMs: number;
  /** The run the write is attributed to (journal provenance). */
  readonly runId?: string;
  readonly bounds: MemoryBounds;
}

/** Insert or replace an entry; the stored entry (createdAt kept on a replace). */
export async function putEntry(s: SqlSession, a: PutEntryArgs): Promise<MemoryEntry> {
  // A new entry is inserted straight away (the common case: one statement); only when the id exists is the old row
  // read — its createdAt is kept, its tags replaced, and the journal keeps it as the before-image.
  let c = entryColumns(a.entry);
  const inserted = await s.run('INSERT INTO entries (tenant, memory_ref, id, neg_created, expires_ms, bytes, doc) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING', [a.tenant, a.memoryRef, c.stored.id, c.negCreated, c.expiresMs, c.bytes, c.doc]);
  let before: StoredRow | undefined;
  if (inserted === 0) {
    before = (await current(s, a.tenant, a.memoryRef, a.entry.id))!;
    c = { ...entryColumns({ ...a.entry, createdAt: storedEntry(before).createdAt }), negCreated: before.neg_created };
    await dropTags(s, a.tenant, a.memoryRef, c.stored.id, before);
    await s.run('UPDATE entries SET expires_ms = ?, bytes = ?, doc = ? WHERE tenant = ? AND memory_ref = ? AND id = ?', [c.expiresMs, c.bytes, c.doc, a.tenant, a.memoryRef, c.stored.id]);
  }
  await putTags(s, a.tenant, a.memoryRef, c.stored.id, c.stored.tags, c.negCreated, c.expiresMs);
  await journal(s, { tenant: a.tenant, memoryRef: a.memoryRef, id: c.stored.id, atMs: a.atMs, runId: a.runId, before, after: c.doc });
  await bumpAll(s, a.tenant, entryMoves(a.memoryRef, c.bytes, before, a.bounds));
  return c.stored;
}

export interface DeleteEntryArgs {
  readonly tenant: string;
  readonly memoryRef: string;
  readonly id: string;
  readonly atMs: number;
  readonly runId?: string;
}

/** Delete an entry; whether it existed. */
export async function deleteEntry(s: SqlSession, a: DeleteEntryArgs): Promise<boolean> {
  const before = await current(s, a.tenant, a.memoryRef, a.id);
  if (before === undefined) return false;
  await removeRow(s, a.tenant, a.memoryRef, a.id, before);
  await journal(s, { tenant: a.tenant, memoryRef: a.memoryRef, id: a.id, atMs: a.atMs, runId: a.runId, before, after: null });
  return true;
}

async function removeRow(s: SqlSession, tenant: string, memoryRef: string, id: string, row: StoredRow): Promise<void> {
  await dropTags(s, tenant, memoryRef, id, row);
  await s.run('DELETE FROM entries WHERE tenant = ? AND memory_ref = ? AND id = ?', [tenant, memoryRef, id]);
  await bump(s, tenant, QUOTA_ENTRIES, memoryRef, -1);
  await bump(s, tenant, QUOTA_BYTES, '', -row.bytes);
}

/**
 * Physically remove up to `limit` entries expired at `atMs` (they stopped surfacing when they expired; this only
 * frees their space). Each removal is journaled, so a fork anchored before the expiry still reads the entry. How
 * many were removed.
 */
export async function purgeExpired(s: SqlSession, a: { readonly atMs: number; readonly limit: number }): Promise<number> {
  const rows = await s.all(
    'SELECT tenant, memory_ref, id, neg_created, expires_ms, bytes, doc FROM entries WHERE expires_ms IS NOT NULL AND expires_ms <= ? ORDER BY expires_ms',
    [a.atMs],
    a.limit,
  );
  for (const r of rows) {
    const tenant = ENTRIES.text(r, 'tenant');
    const memoryRef = ENTRIES.text(r, 'memory_ref');
    const id = ENTRIES.text(r, 'id');
    const before = storedRowOf(r);
    await removeRow(s, tenant, memoryRef, id, before);
    await journal(s, { tenant, memoryRef, id, atMs: a.atMs, runId: undefined, before, after: null });
  }
  return rows.length;
}

/**
 * RFC 0080 forget: remove up to `limit` of the tenant's entries carrying `tag`, whatever their memoryRef (erasure
 * from live memory; each removal journaled and attributed to no run). The ids removed, with their refs.
 */
export async function forgetTagged(s: SqlSession, a: { readonly tenant: string; readonly tag: string; readonly atMs: number; readonly limit: number }): Promise<{ memoryRef: string; id: string }[]> {
  const hits = await s.all('SELECT memory_ref, id FROM entry_tags WHERE tenant = ? AND tag = ?', [a.tenant, a.tag], a.limit);
  const removed: { memoryRef: string; id: string }[] = [];
  for (const h of hits) {
    const hit = { memoryRef: TAGS.text(h, 'memory_ref'), id: TAGS.text(h, 'id') };
    if (await deleteEntry(s, { tenant: a.tenant, ...hit, atMs: a.atMs })) removed.push(hit);
  }
  return removed;
}

/** Remove every entry of a memoryRef (a retired fixture), up to `limit`; how many. Journaled like any delete. */
export async function clearRef(s: SqlSession, a: { readonly tenant: string; readonly memoryRef: string; readonly atMs: number; readonly limit: number }): Promise<number> {
  const rows = await s.all('SELECT id FROM entries WHERE tenant = ? AND memory_ref = ?', [a.tenant, a.memoryRef], a.limit);
  for (const r of rows) await deleteEntry(s, { tenant: a.tenant, memoryRef: a.memoryRef, id: ENTRIES.text(r, 'id'), atMs: a.atMs });
  return rows.length;
}

/**
 * Drop journal records older than `beforeMs`, never one a live fork still reads (at or after the lowest fork anchor),
 * at most `limit` at a time; records how far the journal was pruned. How many were dropped.
 */
export async function pruneJournal(s: SqlSession, a: { readonly beforeMs: number; readonly limit: number }): Promise<number> {
  const held = await s.get('SELECT min(anchor_jseq) AS j FROM runs WHERE anchor_jseq IS NOT NULL');
  const hold = held === undefined ? null : RUNS.intOrNull(held, 'j');
  const rows = await s.all(
    `SELECT jseq FROM journal WHERE at_ms < ?${hold === null ? '' : ' AND jseq <= ?'} ORDER BY jseq`,
    hold === null ? [a.beforeMs] : [a.beforeMs, hold],
    a.limit,
  );
  if (rows.length === 0) return 0;
  // Pruned in jseq order from the front: everything up to the last one goes (a record newer than beforeMs below it
  // cannot exist, since jseq grows with time on one store).
  const through = JOURNAL.int(rows[rows.length - 1]!, 'jseq');
  const n = await s.run('DELETE FROM journal WHERE jseq <= ?', [through]);
  await s.run(
    "INSERT INTO meta (key, value) VALUES ('journal_pruned_through', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    [String(through)],
  );
  return n;
}
