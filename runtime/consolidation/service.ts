/**
 * Consolidation pass over one memoryRef (RFC 0068 §D): read its live long-term entries, tx (tx.ts), write
 * back only what changed, emit the content-free `agent.memory.consolidated`.
 *
 * - CTI-1: the pass is bound to one memoryRef; a malformed ref, or a caller tenant that differs from the ref's
 *   tenant, is refused before anything is read. Every read and write names that memoryRef only, and reads go
 *   through the tenant's `TenantReader`.
 * - Own-snapshot guard: a run that reads a replay snapshot (a fork) cannot trigger a pass
 *   (`consolidation_own_snapshot`); other runs' snapshots stay correct through the replay journal.
 * - Only long-term entries are considered; transactional ones (`tier:transactional`) and expired ones are left
 *   exactly as they are. A pass reads at most `maxEntries` of them.
 * - The pass's rewrites, removals and event are planned into the request's writes and commit together. Passes over
 *   one memoryRef are serialised within a process; two hosts passing over one memoryRef at once each commit a
 *   consistent pass (a removal of an entry the other removed first changes nothing).
 */
import type { AgentMemoryConsolidatedPayload, ConsolidationSchedule } from '../../generated/ts/index.ts';
import { tierOf, type MemoryWriter } from '../memory/writer.ts';
import { KeyedMutex } from '../shared/keyed-mutex.ts';
import { BAD_REQUEST, WopkitError } from '../shared/errors.ts';
import type { TenantReaders } from '../memory/tenant-reader.ts';
import type { Clock } from '../shared/clock.ts';
import type { Tx } from '../storage/index.ts';
import type { NearDuplicateOptions } from './near-duplicates.ts';
import { planConsolidation, type ConsolidationPlan } from './plan.ts';

export class ConsolidationError extends WopkitError<'consolidation_invalid_memory_ref' | 'consolidation_cross_tenant' | 'consolidation_own_snapshot'> {
  constructor(code: ConsolidationError['code'], message: string) {
    super(code, message, BAD_REQUEST);
  }
}

export interface ConsolidationServiceOptions {
  readonly clock: Clock;
  readonly store: TenantReaders;
  /** The write path: rewrites and removals go through it (the SR-1 chokepoint of the memoryRef's tenant included). */
  readonly writer: MemoryWriter;
  readonly tenantOf: (memoryRef: string) => string | undefined;
  /** Plan the pass's `agent.memory.consolidated` event; where it was logged (event id and run). */
  readonly emit: (tx: Tx, payload: AgentMemoryConsolidatedPayload, ctx: { readonly tenantId: string }) => { readonly eventId: string; readonly runId: string };
  /** Whether a run reads a replay snapshot (a fork): such a run may not trigger a pass. */
  readonly readsSnapshot?: (tx: Tx, runId: string) => Promise<boolean>;
  readonly nearDuplicates?: NearDuplicateOptions;
  /** Entries one pass reads at most (default DEFAULT_MAX_CONSOLIDATION_ENTRIES). */
  readonly maxEntries?: number;
  /** mergedIds are reported up to this many (the field is optional; large passes omit it). Default 1000. */
  readonly maxReportedMergedIds?: number;
}

export interface ConsolidateRequest {
  readonly trigger?: ConsolidationSchedule;
  /** Tenant of the caller; must equal the memoryRef's tenant when given. */
  readonly tenantId?: string;
  /** The run asking for the pass, when a run asks (refused if it holds a snapshot of this memoryRef). */
  readonly requestedByRunId?: string;
}

export interface ConsolidationResult {
  readonly payload: AgentMemoryConsolidatedPayload;
  readonly tx: ConsolidationPlan;
  readonly writes: number;
  /** Where the pass's event was logged. */
  readonly eventId: string;
  readonly runId: string;
}

export const DEFAULT_MAX_CONSOLIDATION_ENTRIES = 100_000;

export class ConsolidationService {
  readonly #o: ConsolidationServiceOptions;
  readonly #mutex = new KeyedMutex();

  constructor(o: ConsolidationServiceOptions) {
    this.#o = o;
  }

  /** One pass over `memoryRef`, planned into `writes` (committed by the caller with the request). */
  async consolidate(writes: Tx, memoryRef: string, req: ConsolidateRequest = {}): Promise<ConsolidationResult> {
    const tenantId = this.#o.tenantOf(memoryRef);
    if (tenantId === undefined) throw new ConsolidationError('consolidation_invalid_memory_ref', 'memoryRef does not resolve to a tenant (CTI-1)');
    if (req.tenantId !== undefined && req.tenantId !== tenantId) throw new ConsolidationError('consolidation_cross_tenant', 'memoryRef belongs to another tenant (CTI-1)');
    if (req.requestedByRunId !== undefined && (await this.#o.readsSnapshot?.(writes, req.requestedByRunId)) === true) {
      throw new ConsolidationError('consolidation_own_snapshot', 'a run cannot trigger a consolidation pass over its own read snapshot');
    }
    return this.#mutex.run(memoryRef, () => this.#pass(writes, memoryRef, tenantId, req));
  }

  async #pass(writes: Tx, memoryRef: string, tenantId: string, req: ConsolidateRequest): Promise<ConsolidationResult> {
    const now = this.#o.clock.now();
    // Long-term entries only (transactional working memory is distillation's input, not consolidation's), unexpired.
    // Read through the caller tenant's reader (CTI-1), never the raw store.
    const live = (await this.#o.store.readerFor(writes, tenantId).sources(memoryRef, { atMs: now, limit: this.#o.maxEntries ?? DEFAULT_MAX_CONSOLIDATION_ENTRIES }))
      .filter((e) => tierOf(e.tags) === 'long-term');
    const redact = await this.#o.writer.redactFor(writes, memoryRef, { tenant: tenantId });
    const tx = planConsolidation(live, {
      redact,
      ...(this.#o.nearDuplicates === undefined ? {} : { nearDuplicates: this.#o.nearDuplicates }),
    });
    let count = 0;
    for (const e of tx.rewrites) {
      this.#o.writer.replace(writes, memoryRef, e, { tenant: tenantId });
      count++;
    }
    for (const id of tx.mergedIds) {
      await this.#o.writer.delete(writes, memoryRef, id, { tenant: tenantId });
      count++;
    }
    const payload: AgentMemoryConsolidatedPayload = { memoryRef, inputCount: tx.inputCount, outputCount: tx.outputCount };
    if (tx.mergedIds.length > 0 && tx.mergedIds.length <= (this.#o.maxReportedMergedIds ?? 1000)) payload.mergedIds = [...tx.mergedIds];
    if (req.trigger !== undefined) payload.trigger = req.trigger;
    const where = this.#o.emit(writes, payload, { tenantId });
    writes.add('consolidation.pass', { tenant: tenantId, memoryRef, pass: { eventId: where.eventId, runId: where.runId, timestamp: new Date(now).toISOString() } });
    return { payload, tx, writes: count, ...where };
  }
}
