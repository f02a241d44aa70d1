/**
 * The host-internal write path (RFC 0004 writes are not part of the protocol surface). Every write — a direct
 * put, a compaction output, a distillation archive, a consolidation merge — goes through `redactFor`, the one
 * SR-1 chokepoint, before it reaches the store. The redaction itself is injected (`redact`; production wires
 * `writeRedactor` from runtime/redaction/), so the memory module depends on nothing but runtime/shared/.
 *
 * Tiers: an entry tagged `tier:transactional` is short-lived working memory (distillation's input); any other
 * entry is long-term (consolidation's input). TTL: `ttlSeconds` counts from this write's clock reading, which is
 * what makes a child run's TTL count from the child's write time (RFC 0039 MAE-2).
 */
import type { MemoryWrittenPayload } from '../../generated/ts/index.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { BAD_REQUEST, WopkitError } from '../shared/errors.ts';
import { parseMemoryRef } from './memory-ref.ts';
import type { SharedMemoryStore, StoredEntry } from './store.ts';

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
 * SR-1 for one write into `tenant`'s memory, by the run `runId` when a run writes: returns the content with every
 * registered secret of that run and of the tenant's other live runs replaced by its marker.
 */
export type WriteRedactor = (content: string, scope: { readonly tenant: string; readonly runId?: string }) => string;

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
};

export interface MemoryWriterOptions {
  readonly store: SharedMemoryStore;
  readonly clock: Clock;
  readonly ids: IdSource;
  /** The SR-1 chokepoint every write goes through. */
  readonly redact: WriteRedactor;
  readonly maxEntrySizeBytes?: number;
  /** Called after each successful write (content-free), e.g. to emit memory.written. */
  readonly onWrite?: (event: WrittenEvent) => void;
}

export const DEFAULT_MAX_ENTRY_SIZE_BYTES = 65536;

export class MemoryWriter {
  readonly maxEntrySizeBytes: number;
  constructor(private readonly o: MemoryWriterOptions) {
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
   * The SR-1 chokepoint for a write into `memoryRef`: the writing run's registry, plus every live run registry
   * of the same tenant (so a background writer still honours secrets resolved by the tenant's runs).
   */
  redactFor(memoryRef: string, ctx: WriteContext = {}): (content: string) => string {
    const tenant = this.tenantFor(memoryRef, ctx);
    const scope = ctx.runId === undefined ? { tenant } : { tenant, runId: ctx.runId };
    return (content: string) => this.o.redact(content, scope);
  }

  /**
   * SR-1 over every string an entry stores: content and tags come back redacted; identifiers are never rewritten,
   * so an id or memoryRef that carries a registered secret is refused (MemoryWriteError, nothing stored).
   */
  redactStored<T extends StoredStrings>(memoryRef: string, input: T, ctx: WriteContext = {}): T {
    if (typeof input.content !== 'string') throw new MemoryWriteError('invalid_entry', 'content must be a string');
    if (input.tags !== undefined && !input.tags.every((t) => typeof t === 'string')) throw new MemoryWriteError('invalid_entry', 'tags must be strings');
    const redact = this.redactFor(memoryRef, ctx);
    if (redact(memoryRef) !== memoryRef) throw new MemoryWriteError('invalid_memory_ref', 'memoryRef carries a registered secret');
    if (input.id !== undefined && redact(input.id) !== input.id) throw new MemoryWriteError('invalid_entry', 'id carries a registered secret');
    return { ...input, content: redact(input.content), ...(input.tags !== undefined ? { tags: input.tags.map(redact) } : {}) };
  }

  /** Write one entry through {@link redactStored}. Returns the stored entry. */
  put(memoryRef: string, raw: PutInput, ctx: WriteContext = {}): StoredEntry {
    this.tenantFor(memoryRef, ctx);
    const input = this.redactStored(memoryRef, raw, ctx);
    const content = input.content;
    const byteSize = Buffer.byteLength(content, 'utf8');
    if (byteSize > this.maxEntrySizeBytes) throw new MemoryWriteError('entry_too_large', `entry is ${byteSize} bytes; the limit is ${this.maxEntrySizeBytes}`);
    const now = this.o.clock.now();
    const tags = [...new Set([...(input.tags ?? []), ...(input.tier === 'transactional' ? [TRANSACTIONAL_TAG] : [])])];
    const entry: StoredEntry = {
      id: input.id ?? this.o.ids.next('mem'),
      content,
      tags,
      createdAt: toIso(now),
      ...expiry(now, input),
    };
    if (entry.id.length === 0 || entry.id.length > 512) throw new MemoryWriteError('invalid_entry', 'id must be 1-512 characters');
    this.o.store.upsertSync(memoryRef, entry);
    this.o.onWrite?.({ memoryRef, memoryId: entry.id, operation: 'put', byteSize, context: ctx });
    return entry;
  }

  /** Delete one entry; returns whether it existed. */
  delete(memoryRef: string, id: string, ctx: WriteContext = {}): boolean {
    this.tenantFor(memoryRef, ctx);
    const had = this.o.store.removeSync(memoryRef, id);
    if (had) this.o.onWrite?.({ memoryRef, memoryId: id, operation: 'delete', context: ctx });
    return had;
  }

  /**
   * RFC 0080 forget: erase from live memory every entry of `tenant` carrying `subjectTag`. Tenant-scoped by
   * construction (only refs that parse to that tenant are touched). Returns the number erased.
   */
  forget(tenant: string, subjectTag: string): number {
    let n = 0;
    const reader = this.o.store.readerFor(tenant);
    for (const ref of this.o.store.refs()) {
      if (!reader.owns(ref)) continue;
      for (const e of reader.entries(ref)) {
        if (e.tags.includes(subjectTag) && this.o.store.removeSync(ref, e.id)) {
          n++;
          this.o.onWrite?.({ memoryRef: ref, memoryId: e.id, operation: 'delete', context: { tenant } });
        }
      }
    }
    return n;
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
