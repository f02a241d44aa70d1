/**
 * The spec's read interface (RFC 0004 MemoryAdapter), one instance per tenant — over live memory, or over a fork's
 * replay snapshot (the same adapter on a reader anchored at the fork point).
 *
 * CTI-1: every read goes through the adapter's `TenantReader` (tenant-reader.ts); a malformed ref, or a ref naming
 * another tenant, gives `[]` / `null`. TTL: expired entries never surface (live: at the clock's now; a snapshot: at
 * its anchor's clock), whether or not they were purged. Errors from the store are replaced by a
 * `MemoryAdapterError` that carries no entry data.
 *
 * Lists are pages: newest first, at most `limit` (default and most: MAX_LIST_LIMIT), resumed with the opaque cursor
 * the previous page returned (cursor.ts) — a page costs the same whatever the scope's size.
 */
import type { MemoryListOptions } from '../../generated/ts/memory-list-options.ts';
import type { MemoryEntry } from '../../generated/ts/index.ts';
import type { Clock } from '../shared/clock.ts';
import { WopkitError } from '../shared/errors.ts';
import { InvalidCursorError, type CursorCodec } from './cursor.ts';

import type { StoredEntry } from './stored-entry.ts';
import type { TenantReader } from './tenant-reader.ts';
import { isExpired } from './ttl.ts';
import type { EntryPosition } from '../storage/index.ts';

/** The spec's read interface: entries are the generated `MemoryEntry`, options the generated `MemoryListOptions`. */
export interface MemoryAdapter {
  list(memoryRef: string, options?: Readonly<MemoryListOptions>): Promise<readonly StoredEntry[]>;
  get(memoryRef: string, memoryId: string): Promise<StoredEntry | null>;
}

/** The largest page a list returns, and the size of a page when none is asked for. */
export const MAX_LIST_LIMIT = 1000;

/** One page of a list and, when more follow, the cursor that resumes it. */
export interface MemoryPage {
  readonly entries: readonly MemoryEntry[];
  readonly nextCursor?: string;
}

/** A store failure, stripped of anything the store said (CTI-1 rule 3: errors don't leak entry data). */
export class MemoryAdapterError extends WopkitError<'memory_unavailable'> {
  constructor(operation: 'list' | 'get') {
    super('memory_unavailable', `memory ${operation} failed`);
  }
}

/** A limit that is not a positive integer gives 0 results for 0/negative, the maximum for absent or huge. */
export function normaliseLimit(limit: unknown): number {
  if (limit === undefined) return MAX_LIST_LIMIT;
  if (typeof limit !== 'number' || !Number.isFinite(limit)) return 0;
  return Math.max(0, Math.min(MAX_LIST_LIMIT, Math.floor(limit)));
}

/** A store error stays a WopkitError when it is one (a refusal the host answers), else becomes the content-free adapter error. */
const guarded = async <T>(operation: 'list' | 'get', f: () => Promise<T>): Promise<T> => {
  try {
    return await f();
  } catch (err) {
    if (err instanceof WopkitError) throw err;
    throw new MemoryAdapterError(operation);
  }
};

export class TenantMemoryAdapter implements MemoryAdapter {
  readonly #reader: TenantReader;
  readonly #clock: Clock;
  readonly #cursors: CursorCodec | undefined;
  readonly #view: string | undefined;

  /**
   * `cursors`: the host's cursor codec (absent: pages cannot be resumed); `view`: the fork run whose snapshot the
   * reader is anchored on, bound into its cursors.
   */
  constructor(reader: TenantReader, clock: Clock, o: { readonly cursors?: CursorCodec; readonly view?: string } = {}) {
    this.#reader = reader;
    this.#clock = clock;
    this.#cursors = o.cursors;
    this.#view = o.view;
  }

  get tenant(): string {
    return this.#reader.tenant;
  }

  /** The instant TTL is evaluated at: now for live memory, the anchor's clock for a snapshot. */
  #at(): number {
    return this.#reader.anchor?.atMs ?? this.#clock.now();
  }

  async list(memoryRef: string, options: Readonly<MemoryListOptions> = {}): Promise<readonly StoredEntry[]> {
    return (await this.page(memoryRef, options)).entries;
  }

  /** One page of the list; `cursor` resumes where the page that returned it ended. */
  async page(memoryRef: string, options: Readonly<MemoryListOptions> & { readonly cursor?: string } = {}): Promise<MemoryPage> {
    const limit = normaliseLimit(options.limit);
    const tag = typeof options.tag === 'string' ? options.tag : undefined;
    const scope = { tenant: this.tenant, memoryRef, ...(tag !== undefined ? { tag } : {}), ...(this.#view !== undefined ? { view: this.#view } : {}) };
    let after: EntryPosition | undefined;
    if (options.cursor !== undefined) {
      if (this.#cursors === undefined) throw new InvalidCursorError('this host does not resume lists');
      after = this.#cursors.decode(options.cursor, scope);
    }
    if (limit === 0 || !this.#reader.owns(memoryRef)) return { entries: [] };
    const page = await guarded('list', () => this.#reader.page(memoryRef, { atMs: this.#at(), limit, ...(after !== undefined ? { after } : {}), ...(tag !== undefined ? { tag } : {}) }));
    return page.next === undefined || this.#cursors === undefined ? { entries: page.entries } : { entries: page.entries, nextCursor: this.#cursors.encode(scope, page.next) };
  }

  async get(memoryRef: string, memoryId: string): Promise<StoredEntry | null> {
    const e = await guarded('get', () => this.#reader.entry(memoryRef, memoryId));
    return e === undefined || isExpired(e, this.#at()) ? null : e;
  }
}
