/**
 * RFC 0012 compaction: collapse source entries of one memoryRef into one new entry, then delete the sources.
 *
 * - The derived content goes through the same SR-1 chokepoint as a fresh put (carry-forward): the sources having
 *   been clean is never taken as proof the summary is. `[BYOK:…]` forms and non-canonical `<REDACTED:…>` markers
 *   are rewritten to the canonical `[REDACTED:<id>]` first (byok-forms.ts, markers.ts).
 * - The output is tagged `compacted-from:<compactionRunId>` and stays readable through `get`.
 * - `memory.compacted` is emitted every time, with `sourceIds` listed exhaustively up to 100 sources and omitted
 *   above that (sourceCount is always exact), `byteSize` the UTF-8 size of the stored content.
 * - The summariser only ever sees redacted sources (a source written before its secret was registered is
 *   redacted again on the way in), and its output is redacted again on the way out.
 * - Everything that can fail (reading, summarising, redaction, size, the event's own validity) happens before
 *   the first write is planned; the output, the sources' deletions and the event are planned into the request's
 *   writes and commit together, or not at all.
 */
import type { CompactionTrigger, HostSampleMemoryCompactResponse, MemoryCompactedPayload } from '../../generated/ts/index.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { BAD_REQUEST, capabilityNotProvided, WopkitError } from '../shared/errors.ts';
import { parseMemoryRef } from '../memory/memory-ref.ts';
import type { StoredEntry } from '../memory/stored-entry.ts';
import type { TenantReaders } from '../memory/tenant-reader.ts';
import { isExpired } from '../memory/ttl.ts';
import { MemoryWriteError, type MemoryWriter, type WriteContext } from '../memory/writer.ts';
import type { RunEventLog } from '../events/log.ts';
import type { Tx } from '../storage/index.ts';
import { validatePayload } from '../events/validate.ts';
import type { CapabilityFragment } from '../capabilities/registry.ts';
import { neutraliseByokForms } from './byok-forms.ts';
import { canonicaliseMarkers } from './markers.ts';
import { extractiveSummariser, type Summariser } from './summariser.ts';

/** The path that drives one compaction run (the advertised trigger may be `both`; a run is one or the other). */
export type CompactionRunTrigger = Exclude<CompactionTrigger, 'both'>;

/** sourceIds are listed when there are at most this many sources. */
export const SOURCE_IDS_LISTED_UP_TO = 100;
export const COMPACTED_FROM = 'compacted-from:';

export interface CompactorOptions {
  /** Sources are read through a reader of the acting tenant (CTI-1), never the raw store. */
  readonly store: TenantReaders;
  readonly writer: MemoryWriter;
  readonly clock: Clock;
  readonly ids: IdSource;
  /** Where `memory.compacted` is logged: a run of its own per compaction. */
  readonly log: Pick<RunEventLog, 'appendTask'>;
  readonly summariser?: Summariser;
  readonly maxInputEntries?: number;
  readonly maxOutputBytes?: number;
  /** The advertised trigger mode (capabilities.memory.compaction.trigger). */
  readonly trigger?: CompactionTrigger;
}

export interface CompactRequest {
  /** Which entries to collapse; default: every live entry of the ref (up to maxInputEntries). */
  readonly sourceIds?: readonly string[];
  readonly tag?: string;
  readonly trigger?: CompactionRunTrigger;
  readonly context?: WriteContext;
  readonly extraTags?: readonly string[];
}

/** What a compaction returns: exactly the seam's response shape (the new entry and its `memory.compacted` payload). */
export type CompactResult = Readonly<HostSampleMemoryCompactResponse>;

export type CompactionErrorCode = 'invalid_memory_ref' | 'no_sources' | 'too_many_sources' | 'unknown_source' | 'trigger_not_advertised' | 'invalid_event' | 'not_advertised';

/** A refused compaction: 400 on the wire, or 501 capability_not_provided when compaction is not advertised. */
export class CompactionError extends WopkitError<CompactionErrorCode> {
  constructor(code: CompactionErrorCode, message: string) {
    super(code, message, code === 'not_advertised' ? capabilityNotProvided('memory.compaction') : BAD_REQUEST);
  }
}

export class Compactor {
  readonly summarise: Summariser;
  readonly maxInputEntries: number;
  readonly maxOutputBytes: number;
  readonly trigger: CompactionTrigger;
  constructor(private readonly o: CompactorOptions) {
    this.summarise = o.summariser ?? extractiveSummariser;
    this.maxInputEntries = o.maxInputEntries ?? 1000;
    this.maxOutputBytes = Math.min(o.maxOutputBytes ?? 65536, o.writer.maxEntrySizeBytes);
    this.trigger = o.trigger ?? 'both';
  }

  /**
   * Live (unexpired) entries chosen as sources, in deterministic order (oldest first, then id). Read as the acting
   * tenant (`context.tenant`, else the ref's own tenant for host-managed work): another tenant's ref is refused
   * before anything is read, so the answer never depends on what that tenant holds.
   */
  async selectSources(tx: Tx, memoryRef: string, req: Pick<CompactRequest, 'sourceIds' | 'tag' | 'context'>): Promise<StoredEntry[]> {
    const parsed = parseMemoryRef(memoryRef);
    if (parsed === null) throw new CompactionError('invalid_memory_ref', 'malformed memoryRef');
    const reader = this.o.store.readerFor(tx, req.context?.tenant ?? parsed.tenant);
    if (!reader.owns(memoryRef)) throw new MemoryWriteError('cross_tenant', 'memoryRef belongs to another tenant');
    const now = this.o.clock.now();
    let chosen: StoredEntry[];
    if (req.sourceIds !== undefined) {
      const ids = [...new Set(req.sourceIds)];
      if (ids.length > this.maxInputEntries) throw new CompactionError('too_many_sources', `at most ${this.maxInputEntries} sources per compaction`);
      chosen = await Promise.all(ids.map(async (id) => {
        const e = await reader.entry(memoryRef, id);
        if (e === undefined || isExpired(e, now)) throw new CompactionError('unknown_source', 'a source id does not name a live entry of this memoryRef');
        return e;
      }));
      chosen.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    } else {
      chosen = await reader.sources(memoryRef, { atMs: now, limit: this.maxInputEntries + 1, ...(req.tag !== undefined ? { tag: req.tag } : {}) });
    }
    if (chosen.length === 0) throw new CompactionError('no_sources', 'nothing to compact');
    if (chosen.length > this.maxInputEntries) throw new CompactionError('too_many_sources', `at most ${this.maxInputEntries} sources per compaction`);
    return chosen;
  }

  /** What this compactor lets the host advertise (capabilities.memory.compaction), from its live configuration. */
  capability(): CapabilityFragment {
    return { memory: { compaction: { supported: true, trigger: this.trigger, maxInputEntries: this.maxInputEntries, maxOutputBytes: this.maxOutputBytes } } };
  }

  /**
   * The carry-forward of derived content into `memoryRef` within `tx`: redacted exactly as a fresh put would be,
   * after BYOK-form neutralisation and canonical markers.
   */
  async carryForward(tx: Tx, memoryRef: string, ctx: WriteContext = {}): Promise<(content: string) => string> {
    const redact = await this.o.writer.redactFor(tx, memoryRef, ctx);
    return (content) => redact(canonicaliseMarkers(neutraliseByokForms(content)));
  }

  async compact(tx: Tx, memoryRef: string, req: CompactRequest = {}): Promise<CompactResult> {
    const trigger = req.trigger ?? 'host-managed';
    if (this.trigger !== 'both' && this.trigger !== trigger) throw new CompactionError('trigger_not_advertised', `this host does not advertise ${trigger} compaction`);
    const sources = await this.selectSources(tx, memoryRef, req);
    const ctx = req.context ?? {};
    const compactionRunId = this.o.ids.next('cmp');
    const carry = await this.carryForward(tx, memoryRef, ctx);
    const inputs = sources.map((src) => carry(src.content));
    const summary = this.summarise(inputs, { maxBytes: this.maxOutputBytes });
    const content = carry(summary);
    const byteSize = Buffer.byteLength(content, 'utf8');
    if (byteSize > this.o.writer.maxEntrySizeBytes) {
      throw new MemoryWriteError('entry_too_large', 'compacted output exceeds the entry size limit');
    }
    const outputId = this.o.ids.next('mem');
    const event: MemoryCompactedPayload = {
      memoryRef,
      outputId,
      ...(sources.length <= SOURCE_IDS_LISTED_UP_TO ? { sourceIds: sources.map((s) => s.id) } : {}),
      sourceCount: sources.length,
      trigger,
      byteSize,
    };
    if (!validatePayload('memory.compacted', event).ok) throw new CompactionError('invalid_event', 'memory.compacted would not validate; nothing written');
    // Writes are planned from here; nothing below can fail on input. The sources leave before the output arrives,
    // so a memoryRef at its entry bound can still be compacted.
    for (const s of sources) await this.o.writer.delete(tx, memoryRef, s.id, ctx);
    const { entry: output } = await this.o.writer.put(tx, memoryRef, { id: outputId, content, tags: [`${COMPACTED_FROM}${compactionRunId}`, ...(req.extraTags ?? [])] }, ctx);
    const emitted: MemoryCompactedPayload = { ...event, byteSize: Buffer.byteLength(output.content, 'utf8') };
    this.o.log.appendTask(tx, { runId: compactionRunId, tenant: this.o.writer.tenantFor(memoryRef, ctx) }, { type: 'memory.compacted', payload: emitted });
    return { compactionRunId, output, event: emitted };
  }
}

/** A compactor for a runtime that does not advertise compaction: its machinery serves others, compact() refuses. */
export class UnadvertisedCompactor extends Compactor {
  override async compact(): Promise<never> {
    throw new CompactionError('not_advertised', 'this runtime does not advertise memory.compaction');
  }
  override capability(): CapabilityFragment {
    return {};
  }
}
