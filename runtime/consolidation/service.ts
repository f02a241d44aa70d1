/**
 * Consolidation pass over one memoryRef (RFC 0068 §D): read its live long-term entries, plan (plan.ts), write
 * back only what changed, emit the content-free `agent.memory.consolidated`.
 *
 * - CTI-1: the pass is bound to one memoryRef; a malformed ref, or a caller tenant that differs from the ref's
 *   tenant, is refused before anything is read. Every read and write names that memoryRef only, and reads go
 *   through the tenant's `TenantReader`.
 * - Own-snapshot guard: a run that holds a read snapshot of the memoryRef cannot trigger a pass over it
 *   (`consolidation_own_snapshot`); other runs' snapshots stay correct through the replay journal.
 * - Only long-term entries are considered; transactional ones (`tier:transactional`) and expired ones are left
 *   exactly as they are.
 * - Passes over the same memoryRef are serialised.
 */
import type { AgentMemoryConsolidatedPayload, ConsolidationSchedule } from '../../generated/ts/index.ts';
import { tierOf } from '../memory/writer.ts';
import { KeyedMutex } from '../shared/keyed-mutex.ts';
import { BAD_REQUEST, WopkitError } from '../shared/errors.ts';
import { isExpired } from '../memory/ttl.ts';
import type { MemoryStorePort } from '../memory/memory-port.ts';
import type { ReadSnapshotHolds } from '../memory/read-snapshots.ts';
import type { Clock } from '../shared/clock.ts';
import type { NearDuplicateOptions } from './near-duplicates.ts';
import { planConsolidation, type ConsolidationPlan } from './plan.ts';

export class ConsolidationError extends WopkitError<'consolidation_invalid_memory_ref' | 'consolidation_cross_tenant' | 'consolidation_own_snapshot'> {
  constructor(code: ConsolidationError['code'], message: string) {
    super(code, message, BAD_REQUEST);
  }
}

export interface ConsolidationServiceOptions {
  readonly clock: Clock;
  readonly store: MemoryStorePort;
  readonly tenantOf: (memoryRef: string) => string | undefined;
  /** SR-1 chokepoint (the same one a fresh put goes through), bound to the memoryRef's tenant. */
  readonly redact: (content: string, ctx: { readonly memoryRef: string; readonly tenantId: string }) => string;
  readonly emit: (
    type: 'agent.memory.consolidated',
    payload: AgentMemoryConsolidatedPayload,
    ctx: { readonly tenantId: string },
  ) => void | Promise<void>;
  readonly holds?: ReadSnapshotHolds;
  readonly nearDuplicates?: NearDuplicateOptions;
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
  readonly plan: ConsolidationPlan;
  readonly writes: number;
}

export class ConsolidationService {
  readonly #o: ConsolidationServiceOptions;
  readonly #mutex = new KeyedMutex();

  constructor(o: ConsolidationServiceOptions) {
    this.#o = o;
  }

  consolidate(memoryRef: string, req: ConsolidateRequest = {}): Promise<ConsolidationResult> {
    const tenantId = this.#o.tenantOf(memoryRef);
    if (tenantId === undefined) {
      return Promise.reject(new ConsolidationError('consolidation_invalid_memory_ref', 'memoryRef does not resolve to a tenant (CTI-1)'));
    }
    if (req.tenantId !== undefined && req.tenantId !== tenantId) {
      return Promise.reject(new ConsolidationError('consolidation_cross_tenant', 'memoryRef belongs to another tenant (CTI-1)'));
    }
    if (req.requestedByRunId !== undefined && this.#o.holds?.holds(req.requestedByRunId, memoryRef) === true) {
      return Promise.reject(
        new ConsolidationError('consolidation_own_snapshot', 'a run cannot trigger a consolidation pass over its own read snapshot'),
      );
    }
    return this.#mutex.run(memoryRef, () => this.#pass(memoryRef, tenantId, req));
  }

  async #pass(memoryRef: string, tenantId: string, req: ConsolidateRequest): Promise<ConsolidationResult> {
    const now = this.#o.clock.now();
    // Long-term entries only (transactional working memory is distillation's input, not consolidation's), unexpired.
    // Read through the caller tenant's reader (CTI-1), never the raw store.
    const live = this.#o.store.readerFor(tenantId).entries(memoryRef).filter((e) => tierOf(e.tags) === 'long-term' && !isExpired(e, now));
    const plan = planConsolidation(live, {
      redact: (c) => this.#o.redact(c, { memoryRef, tenantId }),
      ...(this.#o.nearDuplicates === undefined ? {} : { nearDuplicates: this.#o.nearDuplicates }),
    });
    let writes = 0;
    for (const e of plan.rewrites) {
      await this.#o.store.upsert(memoryRef, e);
      writes++;
    }
    for (const id of plan.mergedIds) {
      await this.#o.store.remove(memoryRef, id);
      writes++;
    }
    const payload: AgentMemoryConsolidatedPayload = { memoryRef, inputCount: plan.inputCount, outputCount: plan.outputCount };
    if (plan.mergedIds.length > 0 && plan.mergedIds.length <= (this.#o.maxReportedMergedIds ?? 1000)) payload.mergedIds = [...plan.mergedIds];
    if (req.trigger !== undefined) payload.trigger = req.trigger;
    await this.#o.emit('agent.memory.consolidated', payload, { tenantId });
    return { payload, plan, writes };
  }
}
