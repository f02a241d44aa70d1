/**
 * The shared in-process backing store. It is deliberately dumb: it keys raw entries by (memoryRef, id) and
 * knows nothing of tenants or TTL. Reads reach a caller only through `readerFor(tenant)` (CTI-1, tenant-reader.ts)
 * and the TTL rule each view applies, because the spec requires each adapter instance to gate by ref shape
 * rather than trust the store. The raw reads below are for the reader, the write path and tests.
 *
 * It implements the `MemoryStorePort` the consolidation, commitment and multi-agent modules use.
 */
import type { MemoryStorePort, StoredEntry } from './memory-port.ts';
import { TenantReader, type RawEntrySource } from './tenant-reader.ts';
import { isExpired } from './ttl.ts';

export type { StoredEntry } from './memory-port.ts';

/** Told about every mutation after it happened (`after` is null for a delete). */
export type StoreObserver = (memoryRef: string, memoryId: string, after: StoredEntry | null) => void;

export class SharedMemoryStore implements MemoryStorePort, RawEntrySource {
  readonly #refs = new Map<string, Map<string, StoredEntry>>();
  readonly #observers = new Set<StoreObserver>();

  /** Observe every upsert and remove (the replay journal and write attribution hang off this). */
  observe(observer: StoreObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** The only read access a view gets: entries of `tenant`'s refs. */
  readerFor(tenant: string): TenantReader {
    return new TenantReader(tenant, this);
  }
  listRawSync(memoryRef: string): readonly StoredEntry[] {
    return [...(this.#refs.get(memoryRef)?.values() ?? [])];
  }
  getRawSync(memoryRef: string, id: string): StoredEntry | undefined {
    return this.#refs.get(memoryRef)?.get(id);
  }
  async upsert(memoryRef: string, entry: StoredEntry): Promise<void> {
    this.upsertSync(memoryRef, entry);
  }
  upsertSync(memoryRef: string, entry: StoredEntry): void {
    const frozen = this.#put(memoryRef, entry);
    for (const o of this.#observers) o(memoryRef, entry.id, frozen);
  }
  /**
   * Put back an entry loaded from a durable store at start, telling no observer: it is not a mutation (nothing is
   * journaled, attributed or written back).
   */
  restore(memoryRef: string, entry: StoredEntry): void {
    this.#put(memoryRef, entry);
  }
  #put(memoryRef: string, entry: StoredEntry): StoredEntry {
    let m = this.#refs.get(memoryRef);
    if (m === undefined) this.#refs.set(memoryRef, (m = new Map()));
    // Frozen to the bone at run time; the wire type keeps `tags: string[]`, so the frozen array is typed as it.
    const frozen: StoredEntry = Object.freeze({ ...entry, tags: Object.freeze([...entry.tags]) as string[] });
    m.set(entry.id, frozen);
    return frozen;
  }
  async remove(memoryRef: string, id: string): Promise<boolean> {
    return this.removeSync(memoryRef, id);
  }
  removeSync(memoryRef: string, id: string): boolean {
    const m = this.#refs.get(memoryRef);
    if (m === undefined) return false;
    const had = m.delete(id);
    if (m.size === 0) this.#refs.delete(memoryRef);
    if (had) for (const o of this.#observers) o(memoryRef, id, null);
    return had;
  }
  /** Every memoryRef currently holding entries (for purge and forget). */
  refs(): readonly string[] {
    return [...this.#refs.keys()];
  }
  /** Drop expired entries physically. Optional: reads never depend on it. Returns how many were dropped. */
  purgeExpired(nowMs: number): number {
    let n = 0;
    for (const [ref, m] of this.#refs) {
      for (const [id, e] of m) {
        if (!isExpired(e, nowMs)) continue;
        m.delete(id);
        n++;
        for (const o of this.#observers) o(ref, id, null);
      }
      if (m.size === 0) this.#refs.delete(ref);
    }
    return n;
  }
}
