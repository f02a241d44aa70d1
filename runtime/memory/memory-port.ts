/**
 * The smallest memory surface the multi-agent and consolidation modules need: a tenant-scoped, writable store
 * keyed by `(memoryRef, id)`. This is an adapter seam, not a second memory implementation: production wiring
 * passes the memory module's adapter (runtime/memory/) wrapped to this shape; tests may use `InMemoryStorePort`.
 *
 * Entries are stored raw (expired entries included) — read-side TTL filtering belongs to the adapter's list/get;
 * the journal needs the raw before-images to project snapshots.
 */
import type { MemoryEntry } from '../../generated/ts/memory-entry.ts';

/**
 * An entry as the store holds it and every runtime path passes it around: the generated wire `MemoryEntry`
 * (ISO-8601 dates), read-only. The shared store also freezes it.
 */
export type StoredEntry = Readonly<MemoryEntry>;

export interface MemoryStorePort {
  /** Raw entries of one memoryRef (including expired ones), any order. */
  listRaw(memoryRef: string): Promise<readonly StoredEntry[]>;
  /** Insert or replace an entry. The caller has already passed content through the SR-1 chokepoint. */
  upsert(memoryRef: string, entry: StoredEntry): Promise<void>;
  /** Delete an entry; returns whether it existed. */
  remove(memoryRef: string, id: string): Promise<boolean>;
}

/** In-memory store port for tests and the embedded default. */
export class InMemoryStorePort implements MemoryStorePort {
  readonly refs = new Map<string, Map<string, StoredEntry>>();
  async listRaw(memoryRef: string): Promise<readonly StoredEntry[]> {
    return [...(this.refs.get(memoryRef)?.values() ?? [])];
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
