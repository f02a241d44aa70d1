/**
 * CTI-1, once. The only way from raw stored entries to anything a caller sees is a `TenantReader`: a reader bound
 * to one tenant, which serves a memoryRef only when the ref is well-formed and names that tenant, and gives
 * `[]` / `undefined` for anything else — even when the backing holds entries under that exact key.
 *
 * Every read view is built on a TenantReader, never on a raw backing: the adapter (`TenantMemoryAdapter`), a fork's
 * replay snapshot (`ForkMemoryView`), a parent run's read of its children's writes (`SubRunMemory`), consolidation,
 * compaction and distillation sources, erasure (`MemoryWriter.forget`) and the host's fixture probes. Their
 * constructors and options take a `TenantReader` or a `TenantReaders` factory, whose types expose no raw access;
 * `test/security/tenancy-read-path.test.ts` fails when a runtime module outside the backings reads raw entries.
 *
 * The reader does not apply TTL: each view evaluates the one TTL rule (`ttl.ts`) at its own clock (now, or a
 * snapshot's anchor).
 */
import type { StoredEntry } from './stored-entry.ts';
import { parseMemoryRef } from './memory-ref.ts';

/**
 * A backing of raw entries (expired ones included): the live store, a replay snapshot. Implemented by the backings
 * and read only by `TenantReader`; never handed to a view.
 */
export interface RawEntrySource {
  /** Every stored entry of the ref, any order. */
  listRawSync(memoryRef: string): readonly StoredEntry[];
  /** The stored entry `id` of the ref, if any. */
  getRawSync(memoryRef: string, id: string): StoredEntry | undefined;
}

/** What a view is given instead of a store: a reader per tenant. */
export interface TenantReaders {
  readerFor(tenant: string): TenantReader;
}

export class TenantReader {
  readonly #source: RawEntrySource;

  constructor(
    /** The tenant this reader serves; a string that is no valid tenant serves nothing. */
    readonly tenant: string,
    source: RawEntrySource,
  ) {
    this.#source = source;
  }

  /** Whether `memoryRef` is a well-formed ref of this reader's tenant (the CTI-1 check). */
  owns(memoryRef: unknown): memoryRef is string {
    return parseMemoryRef(memoryRef)?.tenant === this.tenant;
  }

  /** Raw entries of an own ref, expired ones included; `[]` for a malformed ref or another tenant's. */
  entries(memoryRef: string): readonly StoredEntry[] {
    return this.owns(memoryRef) ? this.#source.listRawSync(memoryRef) : [];
  }

  /** The raw entry `id` of an own ref; `undefined` for a malformed ref, another tenant's, or a missing entry. */
  entry(memoryRef: string, id: string): StoredEntry | undefined {
    return this.owns(memoryRef) ? this.#source.getRawSync(memoryRef, id) : undefined;
  }
}
