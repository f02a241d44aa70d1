/**
 * CTI-1, once. The only way from stored entries to anything a caller sees is a `TenantReader`: a reader bound to one
 * tenant, which serves a memoryRef only when the ref is well-formed and names that tenant, and gives nothing for
 * anything else — and whose every query names its tenant in the statement as well, so even a ref that slipped past
 * the shape check could not reach another tenant's rows.
 *
 * Every read view is built on a TenantReader: the adapter (live memory), a fork's replay snapshot (a reader `at` a
 * journal position), a parent run's read of its children's writes, the sources of consolidation, compaction and
 * distillation, erasure, and the host's fixture probes. `test/security/tenancy-read-path.test.ts` fails when a runtime
 * module outside the store reads entries another way.
 *
 * The reader does not hide expired entries from `entry` (each view applies the one TTL rule, ttl.ts, at its own
 * clock); `page` and `sources` skip entries expired at the instant they are given.
 */
import type { MemoryEntry } from '../../generated/ts/index.ts';
import type { EntryPage, EntryPosition, Tx } from '../storage/index.ts';
import { parseMemoryRef } from './memory-ref.ts';

/** A replay snapshot's anchor: memory as of journal position `jseq`, TTL evaluated at `atMs`. */
export interface SnapshotAnchor {
  readonly jseq: number;
  readonly atMs: number;
}

export interface ReaderPageOptions {
  readonly atMs: number;
  readonly limit: number;
  readonly after?: EntryPosition;
  readonly tag?: string;
}

/** A reader of one tenant's memory within one unit of work (it reads through that unit's `tx`, and lives as long). */
export class TenantReader {
  readonly #tx: Tx;
  readonly #anchor: SnapshotAnchor | undefined;

  constructor(
    /** The unit of work the reader reads through. */
    tx: Tx,
    /** The tenant this reader serves; a string that is no valid tenant serves nothing. */
    readonly tenant: string,
    anchor?: SnapshotAnchor,
  ) {
    this.#tx = tx;
    this.#anchor = anchor;
  }

  /** The same tenant's memory as of a replay snapshot. */
  at(anchor: SnapshotAnchor): TenantReader {
    return new TenantReader(this.#tx, this.tenant, anchor);
  }

  get anchor(): SnapshotAnchor | undefined {
    return this.#anchor;
  }

  /** Whether `memoryRef` is a well-formed ref of this reader's tenant (the CTI-1 check). */
  owns(memoryRef: unknown): memoryRef is string {
    return parseMemoryRef(memoryRef)?.tenant === this.tenant;
  }

  /** One page of an own ref's entries unexpired at `atMs`, newest first; empty for any other ref. */
  async page(memoryRef: string, o: ReaderPageOptions): Promise<EntryPage> {
    if (!this.owns(memoryRef)) return { entries: [] };
    const args = { tenant: this.tenant, memoryRef, atMs: o.atMs, limit: o.limit, ...(o.after !== undefined ? { after: o.after } : {}), ...(o.tag !== undefined ? { tag: o.tag } : {}) };
    return this.#anchor === undefined ? this.#tx.read.entryPage(args) : this.#tx.read.snapshotPage({ ...args, jseq: this.#anchor.jseq });
  }

  /** The stored entry `id` of an own ref (expired or not); undefined for a malformed ref, another tenant's, or a missing entry. */
  async entry(memoryRef: string, id: string): Promise<MemoryEntry | undefined> {
    if (!this.owns(memoryRef) || typeof id !== 'string' || id.length === 0 || id.length > 512) return undefined;
    const args = { tenant: this.tenant, memoryRef, id };
    return this.#anchor === undefined ? this.#tx.read.entryGet(args) : this.#tx.read.snapshotGet({ ...args, jseq: this.#anchor.jseq });
  }

  /** An own live ref's entries (with `tag`, or all) unexpired at `atMs`, oldest first (then id), at most `limit`. */
  async sources(memoryRef: string, o: { readonly atMs: number; readonly tag?: string; readonly limit: number }): Promise<MemoryEntry[]> {
    if (!this.owns(memoryRef)) return [];
    if (this.#anchor !== undefined) throw new RangeError('a replay snapshot is read page by page');
    return this.#tx.read.entriesOldestFirst({ tenant: this.tenant, memoryRef, atMs: o.atMs, limit: o.limit, ...(o.tag !== undefined ? { tag: o.tag } : {}) });
  }
}

/** What a view is given instead of a store: a reader per tenant, within the request's unit of work. */
export interface TenantReaders {
  readerFor(tx: Tx, tenant: string): TenantReader;
}
