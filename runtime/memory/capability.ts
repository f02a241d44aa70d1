/**
 * What the memory module lets a host advertise, derived from what is wired (RFC 0080 §A dimensions):
 * read + write (`memory.supported`, `writable`), long-term durability (`agents.memoryBackends: ['long-term']`),
 * TTL and forget (`memory.retention`), and write attribution only when memory.written events are actually
 * emitted. Search is never claimed: list-by-tag is the plain read interface, not a query beyond list.
 */
import type { Capabilities } from '../../generated/ts/index.ts';
import type { MemoryWriter } from './writer.ts';

export interface MemoryCapabilityOptions {
  readonly writer: MemoryWriter;
  /** True only when every write emits a content-free memory.written event. */
  readonly emitsWriteEvents: boolean;
  /** True when the host exposes writer.forget (tenant-scoped delete-by-subject). */
  readonly forget: boolean;
}

export function memoryCapability(o: MemoryCapabilityOptions): Required<Pick<Capabilities, 'agents' | 'memory'>> {
  return {
    agents: { supported: true, memoryBackends: ['long-term'] },
    memory: {
      supported: true,
      maxEntrySizeBytes: o.writer.maxEntrySizeBytes,
      ttlSupported: true,
      writable: true,
      // supported: true as upstream requires it in the block (RFC 0057 as upstream's schema carries it).
      ...(o.emitsWriteEvents ? { attribution: { supported: true, emitsWriteEvents: true } } : {}),
      retention: { ttl: true, forget: o.forget },
    },
  };
}
