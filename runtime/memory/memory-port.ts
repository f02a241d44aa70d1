/**
 * The smallest memory surface the multi-agent and consolidation modules need: a writable store keyed by
 * `(memoryRef, id)` that hands out tenant-bound readers (CTI-1) and nothing raw. This is an adapter seam, not a
 * second memory implementation: production wiring passes the memory module's shared store; tests may use
 * `InMemoryStorePort`.
 *
 * Entries are stored raw (expired entries included) — TTL filtering belongs to each read view; the journal needs
 * the raw before-images to project snapshots.
 */
import type { StoredEntry } from './stored-entry.ts';
import { TenantReader, type RawEntrySource, type TenantReaders } from './tenant-reader.ts';

export type { StoredEntry } from './stored-entry.ts';


export interface MemoryStorePort extends TenantReaders {
  /** Insert or replace an entry. The caller has already passed content through the SR-1 chokepoint. */
  upsert(memoryRef: string, entry: StoredEntry): Promise<void>;
  /** Delete an entry; returns whether it existed. */
  remove(memoryRef: string, id: string): Promise<boolean>;
}

/** In-memory store port for tests and the embedded default. */
export class InMemoryStorePort implements MemoryStorePort, RawEntrySource {
  readonly refs = new Map<string, Map<string, StoredEntry>>();
  readerFor(tenant: string): TenantReader {
    return new TenantReader(tenant, this);
  }
  listRawSync(memoryRef: string): readonly StoredEntry[] {
    return [...(this.refs.get(memoryRef)?.values() ?? [])];
  }
  getRawSync(memoryRef: string, id: string): StoredEntry | undefined {
    return this.refs.get(memoryRef)?.get(id);
  }
  /** Raw entries of one memoryRef (including expired ones), any order: for tests that inspect the backing. */
  async listRaw(memoryRef: string): Promise<readonly StoredEntry[]> {
    return this.listRawSync(memoryRef);
  }
  async upsert(memoryRef: string, entry: StoredEntry): Promise<void> {
    let m = this.refs.get(memoryRef);
    if (m === undefined) this.refs.set(memoryRef, (m = new Map()));
    m.set(entry.id, entry);
  }
  async remove(memoryRef: string, id: string): Promise<boolean> {
    return this.refs.get(memoryRef)?.delete(id) ?? false;
  }
}
