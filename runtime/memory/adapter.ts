/**
 * The spec's read interface (RFC 0004 MemoryAdapter), one instance per tenant.
 *
 * CTI-1: every read goes through the adapter's `TenantReader` (tenant-reader.ts); a malformed ref, or a ref naming
 * another tenant, gives `[]` / `null` even when the shared store holds entries under that exact key. TTL: expired entries never surface, whether or
 * not they were purged. Errors from the store are replaced by a `MemoryAdapterError` that carries no entry data.
 */
import type { MemoryListOptions } from '../../generated/ts/memory-list-options.ts';
import type { Clock } from '../shared/clock.ts';
import { WopkitError } from '../shared/errors.ts';
import type { StoredEntry } from './memory-port.ts';
import type { TenantReader, TenantReaders } from './tenant-reader.ts';
import { isExpired } from './ttl.ts';

/** The spec's read interface: entries are the generated `MemoryEntry`, options the generated `MemoryListOptions`. */
export interface MemoryAdapter {
  list(memoryRef: string, options?: Readonly<MemoryListOptions>): Promise<readonly StoredEntry[]>;
  get(memoryRef: string, memoryId: string): Promise<StoredEntry | null>;
}

/** Largest page a list returns, whatever limit asks (the host may bound it further). */
export const MAX_LIST_LIMIT = 1000;

/** A store failure, stripped of anything the store said (CTI-1 rule 3: errors don't leak entry data). */
export class MemoryAdapterError extends WopkitError<'memory_unavailable'> {
  constructor(operation: 'list' | 'get') {
    super('memory_unavailable', `memory ${operation} failed`);
  }
}

/** A fresh copy carrying the spec's fields only (whatever else a stored entry holds stays in the store). */
const toWire = (e: StoredEntry): StoredEntry =>
  e.expiresAt === undefined
    ? { id: e.id, content: e.content, tags: [...e.tags], createdAt: e.createdAt }
    : { id: e.id, content: e.content, tags: [...e.tags], createdAt: e.createdAt, expiresAt: e.expiresAt };

/** Stable order for list: newest first, then id. */
const byNewest = (a: StoredEntry, b: StoredEntry): number =>
  a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

export class TenantMemoryAdapter implements MemoryAdapter {
  readonly #reader: TenantReader;

  constructor(
    readonly tenant: string,
    store: TenantReaders,
    private readonly clock: Clock,
  ) {
    this.#reader = store.readerFor(tenant);
  }

  async list(memoryRef: string, options: Readonly<MemoryListOptions> = {}): Promise<readonly StoredEntry[]> {
    if (!this.#reader.owns(memoryRef)) return [];
    const limit = normaliseLimit(options.limit);
    if (limit === 0) return [];
    const tag = typeof options.tag === 'string' ? options.tag : undefined;
    let raw: readonly StoredEntry[];
    try {
      raw = this.#reader.entries(memoryRef);
    } catch {
      throw new MemoryAdapterError('list');
    }
    const now = this.clock.now();
    return raw
      .filter((e) => !isExpired(e, now) && (tag === undefined || e.tags.includes(tag)))
      .sort(byNewest)
      .slice(0, limit)
      .map(toWire);
  }

  async get(memoryRef: string, memoryId: string): Promise<StoredEntry | null> {
    if (!this.#reader.owns(memoryRef) || typeof memoryId !== 'string' || memoryId.length === 0 || memoryId.length > 512) return null;
    let e: StoredEntry | undefined;
    try {
      e = this.#reader.entry(memoryRef, memoryId);
    } catch {
      throw new MemoryAdapterError('get');
    }
    if (e === undefined || isExpired(e, this.clock.now())) return null;
    return toWire(e);
  }
}

/** A limit that is not a positive integer gives 0 results for 0/negative, the maximum for absent or huge. */
function normaliseLimit(limit: unknown): number {
  if (limit === undefined) return MAX_LIST_LIMIT;
  if (typeof limit !== 'number' || !Number.isFinite(limit)) return 0;
  return Math.max(0, Math.min(MAX_LIST_LIMIT, Math.floor(limit)));
}
