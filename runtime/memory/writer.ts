/**
 * The host-internal write path (RFC 0004 writes are not part of the protocol surface). Every write — a direct
 * put, a compaction output, a distillation archive, a consolidation merge, a child run's write — goes through
 * the one SR-1 chokepoint before it is planned into the request's writes. The redaction is injected (`redactor`;
 * production wires the tenant's store-backed secret registries, runtime/redaction/), so the memory module
 * depends on nothing but the store and runtime/shared/.
 *
 * A write is planned, not performed: `put` adds the entry's operation to the request's tx, which commits it
 * with the request's other writes in one transaction (the entry, its tags, its journal record and its tenant's
 * counts, refused past a bound).
 *
 * Tiers: an entry tagged `tier:transactional` is short-lived working memory (distillation's input); any other
 * entry is long-term (consolidation's input). TTL: `ttlSeconds` counts from this write's clock reading, which is
 * what makes a child run's TTL count from the child's write time (RFC 0039 MAE-2).
 */
import type { MemoryWrittenPayload } from '../../generated/ts/index.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { BAD_REQUEST, WopkitError } from '../shared/errors.ts';
import type { MemoryBounds, Pending, Tx } from '../storage/index.ts';

import { parseMemoryRef } from './memory-ref.ts';
import type { StoredEntry } from './stored-entry.ts';

export const TRANSACTIONAL_TAG = 'tier:transactional';
export type MemoryTier = 'long-term' | 'transactional';
export const tierOf = (tags: readonly string[]): MemoryTier => (tags.includes(TRANSACTIONAL_TAG) ? 'transactional' : 'long-term');

export interface WriteContext {
  /** The run performing the write: its secret registry applies. Absent for background writers. */
  readonly runId?: string;
  /** The tenant the caller acts for; when given it must be the ref's tenant. */
  readonly tenant?: string;
  readonly agentId?: string;
  readonly nodeId?: string;
}

/** The strings an entry a writer submits stores (what SR-1 covers). */
export type StoredStrings = Pick<PutInput, 'id' | 'content' | 'tags'>;

export interface PutInput {
  readonly id?: string;
  readonly content: string;
  readonly tags?: readonly string[];
  readonly tier?: MemoryTier;
  /** Lifetime in seconds from now. */
  readonly ttlSeconds?: number;
  /** Absolute expiry; ignored when ttlSeconds is given. */
  readonly expiresAt?: string;
}

/**
 * SR-1 for the writes of one request into `tenant`'s memory, by the run `runId` when a run writes: a function that
 * replaces every registered secret of the tenant's live runs by its marker. Getting it may read the tenant's
 * registries, and plans the check that they are still current when the request commits (and, for a run, that its
 * registry is still live).
 */
export type WriteRedactor = (tx: Tx, scope: { readonly tenant: string; readonly runId?: string }) => Promise<(content: string) => string>;

export type MemoryWriteErrorCode = 'invalid_memory_ref' | 'cross_tenant' | 'entry_too_large' | 'invalid_entry';

/** A refused write. Messages never include content. */
export class MemoryWriteError extends WopkitError<MemoryWriteErrorCode> {
  constructor(code: MemoryWriteErrorCode, message: string) {
    super(code, message, BAD_REQUEST);
  }
}

/** What `onWrite` hears: the `memory.written` identifiers (operation always set) and the writer's context. */
export type WrittenEvent = Readonly<Pick<MemoryWrittenPayload, 'memoryRef' | 'memoryId' | 'byteSize'> & Required<Pick<MemoryWrittenPayload, 'operation'>>> & {
  readonly context: WriteContext;
  readonly tenant: string;
};

export interface MemoryWriterOptions {
  readonly clock: Clock;
  readonly ids: IdSource;
  /** The SR-1 chokepoint every write goes through. */
  readonly redactor: WriteRedactor;
  /** The bounds every write is checked against in its transaction (entries per memoryRef, bytes per tenant). */
  readonly bounds: MemoryBounds;
  readonly maxEntrySizeBytes?: number;
  /** Called for each planned write (content-free), e.g. to plan its memory.written event. */
  readonly onWrite?: (tx: Tx, event: WrittenEvent) => void;
}

export const DEFAULT_MAX_ENTRY_SIZE_BYTES = 65536;
/** Default bounds of one tenant's memory (limits.ts lets a host set them). */
export const DEFAULT_MEMORY_BOUNDS: MemoryBounds = { entriesPerMemoryRef: 200_000, bytesPerTenant: 1 << 30 };

/** A write planned into a request: the entry as planned, and the entry as stored once the request committed. */
export interface PlannedWrite {
  readonly entry: StoredEntry;
  readonly stored: Pending<StoredEntry>;
}

export class MemoryWriter {
  readonly maxEntrySizeBytes: number;
  readonly #o: MemoryWriterOptions;

  constructor(o: MemoryWriterOptions) {
    this.#o = o;
    this.maxEntrySizeBytes = o.maxEntrySizeBytes ?? DEFAULT_MAX_ENTRY_SIZE_BYTES;
  }

  /** Resolve and check a ref for writing; returns its tenant. */
  tenantFor(memoryRef: string, ctx: WriteContext = {}): string {
    const parsed = parseMemoryRef(memoryRef);
    if (parsed === null) throw new MemoryWriteError('invalid_memory_ref', 'malformed memoryRef');
    if (ctx.tenant !== undefined && ctx.tenant !== parsed.tenant) throw new MemoryWriteError('cross_tenant', 'memoryRef belongs to another tenant');
    return parsed.tenant;
  }

  /**
   * The SR-1 chokepoint for writes into `memoryRef` within `tx`: the tenant's live registries (so a background
   * writer still honours secrets resolved by the tenant's runs), and the writing run's registry must be live.
   */
  async redactFor(tx: Tx, memoryRef: string, ctx: WriteContext = {}): Promise<(content: string) => string> {
    const tenant = this.tenantFor(memoryRef, ctx);
    return this.#o.redactor(tx, ctx.runId === undefined ? { tenant } : { tenant, runId: ctx.runId });
  }

  /**
   * SR-1 over every string an entry stores: content and tags come back redacted; identifiers are never rewritten,
   * so an id or memoryRef that carries a registered secret is refused (MemoryWriteError, nothing stored).
   */
  async redactStored<T extends StoredStrings>(tx: Tx, memoryRef: string, input: T, ctx: WriteContext = {}): Promise<T> {
    if (typeof input.content !== 'string') throw new MemoryWriteError('invalid_entry', 'content must be a string');
    if (input.tags !== undefined && !input.tags.every((t) => typeof t === 'string')) throw new MemoryWriteError('invalid_entry', 'tags must be strings');
    const redact = await this.redactFor(tx, memoryRef, ctx);
    if (redact(memoryRef) !== memoryRef) throw new MemoryWriteError('invalid_memory_ref', 'memoryRef carries a registered secret');
    if (input.id !== undefined && redact(input.id) !== input.id) throw new MemoryWriteError('invalid_entry', 'id carries a registered secret');
    return { ...input, content: redact(input.content), ...(input.tags !== undefined ? { tags: input.tags.map(redact) } : {}) };
  }

  /** Tx one entry's write through {@link redactStored}. */
  async put(tx: Tx, memoryRef: string, raw: PutInput, ctx: WriteContext = {}): Promise<PlannedWrite> {
    const tenant = this.tenantFor(memoryRef, ctx);
    const input = await this.redactStored(tx, memoryRef, raw, ctx);
    const byteSize = Buffer.byteLength(input.content, 'utf8');
    if (byteSize > this.maxEntrySizeBytes) throw new MemoryWriteError('entry_too_large', `entry is ${byteSize} bytes; the limit is ${this.maxEntrySizeBytes}`);
    const now = this.#o.clock.now();
    const tags = [...new Set([...(input.tags ?? []), ...(input.tier === 'transactional' ? [TRANSACTIONAL_TAG] : [])])];
    const entry: StoredEntry = {
      id: input.id ?? this.#o.ids.next('mem'),
      content: input.content,
      tags,
      createdAt: toIso(now),
      ...expiry(now, input),
    };
    if (entry.id.length === 0 || entry.id.length > 512) throw new MemoryWriteError('invalid_entry', 'id must be 1-512 characters');
    const stored = tx.add('memory.put', { tenant, memoryRef, entry, atMs: now, ...(ctx.runId !== undefined ? { runId: ctx.runId } : {}), bounds: this.#o.bounds });
    this.#o.onWrite?.(tx, { memoryRef, memoryId: entry.id, operation: 'put', byteSize, context: ctx, tenant });
    return { entry, stored };
  }

  /**
   * Plan the replacement of an entry by `entry` exactly as given — its strings already through this request's
   * redaction (`redactFor`): a consolidation pass rewriting a survivor.
   */
  replace(tx: Tx, memoryRef: string, entry: StoredEntry, ctx: WriteContext = {}): Pending<StoredEntry> {
    const tenant = this.tenantFor(memoryRef, ctx);
    const stored = tx.add('memory.put', { tenant, memoryRef, entry, atMs: this.#o.clock.now(), ...(ctx.runId !== undefined ? { runId: ctx.runId } : {}), bounds: this.#o.bounds });
    this.#o.onWrite?.(tx, { memoryRef, memoryId: entry.id, operation: 'put', byteSize: Buffer.byteLength(entry.content, 'utf8'), context: ctx, tenant });
    return stored;
  }

  /** Plan one entry's deletion (nothing when it does not exist now: it is looked up through `tx` first, so only a real deletion is attributed); whether it is planned. */
  async delete(tx: Tx, memoryRef: string, id: string, ctx: WriteContext = {}): Promise<boolean> {
    const tenant = this.tenantFor(memoryRef, ctx);
    if ((await tx.read.entryGet({ tenant, memoryRef, id })) === undefined) return false;
    tx.add('memory.delete', { tenant, memoryRef, id, atMs: this.#o.clock.now(), ...(ctx.runId !== undefined ? { runId: ctx.runId } : {}) });
    this.#o.onWrite?.(tx, { memoryRef, memoryId: id, operation: 'delete', context: ctx, tenant });
    return true;
  }

  /**
   * RFC 0080 forget: erase from live memory up to `limit` entries of `tenant` carrying `subjectTag`. Tenant-scoped by
   * construction (the store's statement names the tenant). The erased entries, once the request committed.
   */
  forget(tx: Tx, tenant: string, subjectTag: string, limit = 1000): Pending<{ memoryRef: string; id: string }[]> {
    return tx.add('memory.forget', { tenant, tag: subjectTag, atMs: this.#o.clock.now(), limit });
  }
}

function expiry(now: number, input: PutInput): { expiresAt?: string } {
  if (input.ttlSeconds !== undefined) {
    if (!(input.ttlSeconds > 0) || !Number.isFinite(input.ttlSeconds)) throw new MemoryWriteError('invalid_entry', 'ttlSeconds must be a positive number');
    return { expiresAt: toIso(now + Math.round(input.ttlSeconds * 1000)) };
  }
  if (input.expiresAt !== undefined) {
    if (Number.isNaN(Date.parse(input.expiresAt))) throw new MemoryWriteError('invalid_entry', 'expiresAt must be an ISO-8601 instant');
    return { expiresAt: new Date(Date.parse(input.expiresAt)).toISOString() };
  }
  return {};
}
