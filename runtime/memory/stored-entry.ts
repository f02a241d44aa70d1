/**
 * An entry as the store holds it and every runtime path passes it around: the generated wire `MemoryEntry`
 * (ISO-8601 dates), read-only. The shared store also freezes it. (Its own module: both the store port and the
 * tenant reader name it, and neither imports the other for it.)
 */
import type { MemoryEntry } from '../../generated/ts/memory-entry.ts';

export type StoredEntry = Readonly<MemoryEntry>;
