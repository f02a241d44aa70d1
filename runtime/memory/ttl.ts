/**
 * The one TTL rule. The spec: once `expiresAt` has passed, the entry never surfaces from list or get, whether or
 * not it was purged (millisecond granularity). Every path that reads memory applies this function and nothing
 * else: the adapter's list/get, physical purge, compaction and distillation sources, consolidation, a parent
 * run's read of its children's writes, replay snapshots (evaluated at the snapshot's clock) and the
 * MEMORY-INDEX.json archive list.
 *
 * An `expiresAt` that does not parse as an instant counts as expired: an entry whose lifetime cannot be read is
 * hidden, never kept forever (the restrictive reading; the write path refuses such values in the first place).
 */
import type { MemoryEntry } from '../../generated/ts/memory-entry.ts';

/** True when the entry must not surface at `nowMs`: `nowMs >= expiresAt`, or `expiresAt` is unreadable. */
export function isExpired(entry: Readonly<Pick<MemoryEntry, 'expiresAt'>>, nowMs: number): boolean {
  if (entry.expiresAt === undefined) return false;
  const t = Date.parse(entry.expiresAt);
  return Number.isNaN(t) || nowMs >= t;
}
