/**
 * RFC 0080 §C, the degraded-memory projection: which of the eight §A memory dimensions a host's reconciled model
 * satisfies (read from the discovery document it serves), which ones an agent's memoryShape asks for, and what the
 * agent's inventory entry must then say.
 *
 * Rules (agent-memory spec §"Memory capability model"):
 * - An entry carries `memoryDegraded: true` and `degradedMemoryDimensions` (the §A names, not the memoryShape keys)
 *   exactly when the shape asks for a dimension the model does not satisfy; a satisfied entry carries neither
 *   (absent means satisfied). The list names each unsatisfied dimension once, in §A order.
 * - A degraded agent stays listed and may still be dispatched: the projection adds fields, it never drops an entry.
 * - read and write are gated by `memory.supported: true`; write also by `memory.writable` (absent means writable).
 *   long-term-durability is read from `agents.memoryBackends` only, never from a `memoryBackends` under `memory`.
 *   replay-snapshot is derived (long-term plus executionModel version ≥ 2).
 */
import type { Capabilities } from '../../generated/ts/capabilities.ts';
import type { AgentInventoryEntry, MemoryDimension, MemoryShape } from '../../generated/ts/agent-inventory-response.ts';

/** The eight §A dimensions, in §A order. */
export const MEMORY_DIMENSIONS: readonly MemoryDimension[] = ['read', 'write', 'search', 'long-term-durability', 'compaction', 'attribution', 'replay-snapshot', 'retention'];

type Doc = Readonly<Capabilities> | Readonly<Record<string, unknown>>;
/** Whether a value has members to read (an object or an array of the document); each one unknown until checked. */
const hasMembers = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null;
const at = (o: unknown, path: string): unknown => path.split('.').reduce<unknown>((acc, k) => (hasMembers(acc) ? acc[k] : undefined), o);
const longTerm = (d: Doc) => { const b = at(d, 'agents.memoryBackends'); return Array.isArray(b) && b.includes('long-term'); };
const blockOn = (d: Doc, path: string) => { const b = at(d, path); return typeof b === 'object' && b !== null && at(b, 'supported') !== false; };

/** How each §A dimension is advertised (RFC 0080 §A table), as a predicate over the discovery document. */
const ADVERTISED_BY: Readonly<Record<MemoryDimension, (d: Doc) => boolean>> = {
  read: (d) => at(d, 'memory.supported') === true,
  write: (d) => at(d, 'memory.supported') === true && at(d, 'memory.writable') !== false,
  search: (d) => at(d, 'memory.search.supported') === true,
  'long-term-durability': longTerm,
  compaction: (d) => at(d, 'memory.compaction.supported') === true || at(d, 'memory.distillation.supported') === true,
  attribution: (d) => blockOn(d, 'memory.attribution'),
  'replay-snapshot': (d) => longTerm(d) && Number(at(d, 'multiAgent.executionModel.version') ?? 0) >= 2,
  retention: (d) => at(d, 'memory.retention.ttl') === true || at(d, 'memory.retention.forget') === true || at(d, 'memory.ttlSupported') === true,
};

/** What each memoryShape key asks for, in §A names. */
const SHAPE_NEEDS: Readonly<Record<keyof MemoryShape, readonly MemoryDimension[]>> = {
  scratchpad: ['read', 'write'],
  conversation: ['read', 'write'],
  longTerm: ['read', 'write', 'long-term-durability'],
};

/** The dimensions the host's reconciled model satisfies, in §A order. */
export function satisfiedDimensions(capabilities: Doc): readonly MemoryDimension[] {
  return MEMORY_DIMENSIONS.filter((dim) => ADVERTISED_BY[dim](capabilities));
}

/** The dimensions a memoryShape asks for, in §A order. */
export function requestedDimensions(shape: Readonly<MemoryShape> | undefined): readonly MemoryDimension[] {
  const asked = new Set(Object.entries(shape ?? {}).flatMap(([k, on]) => (on === true ? SHAPE_NEEDS[k as keyof MemoryShape] ?? [] : [])));
  return MEMORY_DIMENSIONS.filter((d) => asked.has(d));
}

/** The degraded fields of an inventory entry: both present (list non-empty) when degraded, neither otherwise. */
export type DegradedProjection = Pick<AgentInventoryEntry, 'memoryDegraded' | 'degradedMemoryDimensions'>;

export function degradedProjection(shape: Readonly<MemoryShape> | undefined, capabilities: Doc): DegradedProjection {
  const have = new Set(satisfiedDimensions(capabilities));
  const missing = requestedDimensions(shape).filter((d) => !have.has(d));
  return missing.length === 0 ? {} : { memoryDegraded: true, degradedMemoryDimensions: [...missing] };
}

/** `entry` with its degraded fields recomputed for `capabilities` (any stale ones removed). Never drops the entry. */
export function withDegradedProjection<E extends AgentInventoryEntry>(entry: E, capabilities: Doc): E {
  const out: E = { ...entry };
  delete out.memoryDegraded;
  delete out.degradedMemoryDimensions;
  return Object.assign(out, degradedProjection(entry.memoryShape, capabilities));
}
