/**
 * RFC 0062 distillation as the agent-memory spec restates it: distil a memoryRef's transactional entries (or,
 * recursively, its level-n archives) into one immutable archive entry under a token budget.
 *
 * 1. Input is the deterministic read snapshot of the sources (oldest first, then id).
 * 2. Budget: the requested budget clamped to the advertised maximum; absent ⇒ the maximum. Input plus output
 *    tokens count against it. If the sources do not fit with room for at least one output sentence, the run
 *    fails with `token_budget_exceeded` and nothing is written: no archive, no index change, no event.
 * 3. Content goes through the compaction carry-forward (SR-1) at every level, recursive runs included.
 * 4. The archive is byte-stable: the same sources and budget give the same content (`archiveChecksum`, the sha256 of
 *    its bytes) and the same content-addressed id (`arc_<sha256>` of the canonical input: memoryRef, budget, tokenizer, level, and each
 *    source's id and content digest), so a repeated run rewrites nothing new. The tokens counted are those of the
 *    redacted inputs plus the redacted output, so tokensUsed never exceeds the budget.
 * 5. MEMORY-INDEX.json is updated and `workspace.updated` emitted when the index is enabled.
 * 6. `memory.compacted` is emitted with trigger host-managed and the `distillation` sub-object.
 * Archives live for archiveRetention, then expire (TTL) and drop out of the index.
 */
import { createHash } from 'node:crypto';
import type { HostSampleMemoryDistillResponse, MemoryCompactedPayload, TokenBudgetExceededDetails } from '../../generated/ts/index.ts';
import type { Clock, IdSource } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import { BAD_REQUEST, capabilityNotProvided, WopkitError } from '../shared/errors.ts';
import type { StoredEntry } from '../memory/stored-entry.ts';
import type { TenantReaders } from '../memory/tenant-reader.ts';
import { TRANSACTIONAL_TAG, type MemoryWriter, type WriteContext } from '../memory/writer.ts';
import { COMPACTED_FROM, SOURCE_IDS_LISTED_UP_TO, type Compactor } from '../compaction/compactor.ts';
import type { RunEventLog } from '../events/log.ts';
import type { Tx } from '../storage/index.ts';
import { extractiveSummariser, sentencesOf, type Summariser } from '../compaction/summariser.ts';
import { validatePayload } from '../events/validate.ts';
import type { CapabilityFragment } from '../capabilities/registry.ts';
import { durationMs } from '../shared/duration.ts';
import { INDEX_PATH, isValidIndex, readIndex, withArchive, type MemoryIndex, type MemoryIndexArchive, type Workspace } from './index-manifest.ts';
import { TOKENIZER_NAME, countTokens } from '../shared/tokenizer.ts';

export const ARCHIVE_TAG = 'distilled-archive';
export const LEVEL_TAG = 'distill-level:';

export interface DistillerOptions {
  readonly store: TenantReaders;
  readonly writer: MemoryWriter;
  readonly compactor: Compactor;
  readonly workspace: Workspace;
  readonly clock: Clock;
  readonly ids: IdSource;
  /** Where `memory.compacted` and `workspace.updated` are logged: a run of its own per distillation. */
  readonly log: Pick<RunEventLog, 'appendTask'>;
  readonly maxTokenBudget: number;
  readonly indexEmitted?: boolean;
  readonly archiveRetention?: string;
  /** A DistillationScheduler runs this distiller on schedules (advertised as `scheduled: true`). */
  readonly scheduled?: boolean;
  readonly summariser?: Summariser;
  readonly tokenizerName?: string;
  readonly countTokens?: (text: string) => number;
}

export interface DistillRequest {
  readonly tokenBudget?: number;
  /** 0 (default): distil transactional entries; n ≥ 1: distil level-n archives into a level n+1 archive. */
  readonly fromLevel?: number;
  /** Distil exactly these entries of the ref (each must be live there) instead of the tier's entries. */
  readonly sourceIds?: readonly string[];
  readonly context?: WriteContext;
}

/** What a distillation returns: exactly the seam's response shape (archive id, entry, event, updated index). */
export type DistillResult = Readonly<HostSampleMemoryDistillResponse>;

/** RFC 0062: the sources do not fit the budget; nothing was written (422 token_budget_exceeded, with the counts). */
export class TokenBudgetExceededError extends WopkitError<'token_budget_exceeded'> {
  declare readonly details: TokenBudgetExceededDetails;
  constructor(details: TokenBudgetExceededDetails) {
    super('token_budget_exceeded', `sources need at least ${details.tokensRequired} tokens; the budget is ${details.tokenBudget}`, {
      error: 'token_budget_exceeded',
      message: 'the sources cannot be distilled within the token budget',
      details,
    });
  }
}

export type DistillationErrorCode = 'no_sources' | 'invalid_budget' | 'invalid_event' | 'not_advertised';

/** A refused distillation: 400 on the wire, or 501 capability_not_provided when distillation is not advertised. */
export class DistillationError extends WopkitError<DistillationErrorCode> {
  constructor(code: DistillationErrorCode, message: string) {
    super(code, message, code === 'not_advertised' ? capabilityNotProvided('memory.distillation') : BAD_REQUEST);
  }
}

/** `sha256:<hex>` of an archive's stored content bytes: what makes "the same archive" checkable from outside. */
export const archiveChecksum = (content: string): string => `sha256:${createHash('sha256').update(content, 'utf8').digest('hex')}`;

const levelOf = (e: StoredEntry): number => {
  const t = e.tags.find((x) => x.startsWith(LEVEL_TAG));
  return t === undefined ? 0 : Number(t.slice(LEVEL_TAG.length)) || 0;
};

export class Distiller {
  readonly summarise: Summariser;
  readonly tokenizerName: string;
  readonly count: (text: string) => number;
  readonly retentionMs: number | null;
  constructor(private readonly o: DistillerOptions) {
    if (!(Number.isInteger(o.maxTokenBudget) && o.maxTokenBudget > 0)) throw new RangeError('maxTokenBudget must be a positive integer');
    this.summarise = o.summariser ?? extractiveSummariser;
    this.tokenizerName = o.tokenizerName ?? TOKENIZER_NAME;
    this.count = o.countTokens ?? countTokens;
    this.retentionMs = o.archiveRetention === undefined ? null : durationMs(o.archiveRetention);
    if (o.archiveRetention !== undefined && this.retentionMs === null) throw new RangeError('archiveRetention must be an ISO-8601 duration');
  }

  /** Clamp a requested budget to the advertised maximum; absent ⇒ the maximum. */
  budgetFor(requested: number | undefined): number {
    if (requested === undefined) return this.o.maxTokenBudget;
    if (!Number.isInteger(requested) || requested < 1) throw new DistillationError('invalid_budget', 'tokenBudget must be a positive integer');
    return Math.min(requested, this.o.maxTokenBudget);
  }

  /** What this distiller lets the host advertise (capabilities.memory.distillation), from its live configuration. */
  capability(): CapabilityFragment {
    return {
      memory: {
        distillation: {
          supported: true,
          maxTokenBudget: this.o.maxTokenBudget,
          scheduled: this.o.scheduled === true,
          indexEmitted: this.o.indexEmitted === true,
          tokenizerName: this.tokenizerName,
          ...(this.o.archiveRetention !== undefined ? { archiveRetention: this.o.archiveRetention } : {}),
        },
      },
    };
  }

  /**
   * Summarise within the output budget, measured on the redacted output (a marker can take more tokens than the
   * secret it replaces). Shrinks the summariser's budget by the overshoot until the redacted output fits; ''
   * when nothing fits.
   */
  #fit(carry: (content: string) => string, inputs: readonly string[], outputBudget: number): string {
    let budget = outputBudget;
    for (let attempt = 0; attempt < 64 && budget > 0; attempt++) {
      const summary = this.summarise(inputs, { maxTokens: budget, countTokens: this.count, maxBytes: this.o.compactor.maxOutputBytes });
      if (summary.length === 0) return '';
      const content = carry(summary);
      const used = this.count(content);
      if (used <= outputBudget) return content;
      budget -= Math.max(1, used - outputBudget);
    }
    return '';
  }

  async distill(tx: Tx, memoryRef: string, req: DistillRequest = {}): Promise<DistillResult> {
    const tokenBudget = this.budgetFor(req.tokenBudget);
    const fromLevel = req.fromLevel ?? 0;
    if (!Number.isInteger(fromLevel) || fromLevel < 0) throw new DistillationError('invalid_budget', 'fromLevel must be a non-negative integer');
    const ctx = req.context ?? {};
    const sources = req.sourceIds !== undefined
      ? await this.o.compactor.selectSources(tx, memoryRef, { sourceIds: req.sourceIds, context: ctx })
      : (await this.o.compactor.selectSources(tx, memoryRef, { tag: fromLevel === 0 ? TRANSACTIONAL_TAG : `${LEVEL_TAG}${fromLevel}`, context: ctx }))
        .filter((e) => levelOf(e) === fromLevel);
    if (sources.length === 0) throw new DistillationError('no_sources', 'nothing to distil');
    // SR-1 on the way in too: the summariser never sees a plaintext the run has registered since the source was
    // written, and every level of recursive distillation re-checks.
    const carry = await this.o.compactor.carryForward(tx, memoryRef, ctx);
    const inputs = sources.map((s) => carry(s.content));
    const inputTokens = inputs.reduce((n, s) => n + this.count(s), 0);
    const content = this.#fit(carry, inputs, tokenBudget - inputTokens);
    if (content.length === 0) {
      const shortest = Math.min(...inputs.flatMap((s) => sentencesOf(s).map((x) => this.count(x))));
      throw new TokenBudgetExceededError({ tokenBudget, tokensRequired: inputTokens + (Number.isFinite(shortest) ? shortest : 1), memoryRef });
    }
    const tokensUsed = inputTokens + this.count(content);
    const level = fromLevel + 1;
    const archiveId = `arc_${createHash('sha256')
      .update(JSON.stringify({ memoryRef, tokenBudget, tokenizer: this.tokenizerName, level, sources: sources.map((s) => [s.id, createHash('sha256').update(s.content).digest('hex')]) }))
      .digest('hex')}`;
    const entryId = `mem_${archiveId}`;
    const now = this.o.clock.now();
    const expiresAt = this.retentionMs === null ? undefined : toIso(now + this.retentionMs);
    const byteSize = Buffer.byteLength(content, 'utf8');
    const indexed = this.o.indexEmitted === true;
    const archiveRecord = (createdAt: string): MemoryIndexArchive => ({
      archiveId,
      entryId,
      createdAt,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      sourceCount: sources.length,
      tokenBudget,
      tokensUsed,
      byteSize,
      level,
    });
    const event: MemoryCompactedPayload = {
      memoryRef,
      outputId: entryId,
      ...(sources.length <= SOURCE_IDS_LISTED_UP_TO ? { sourceIds: sources.map((s) => s.id) } : {}),
      sourceCount: sources.length,
      trigger: 'host-managed',
      byteSize,
      distillation: { tokenBudget, tokensUsed, indexUpdated: indexed },
    };
    // Everything that could refuse is checked before the first write (atomic: no archive, no index, no event).
    if (!validatePayload('memory.compacted', event).ok) throw new DistillationError('invalid_event', 'memory.compacted would not validate; nothing written');
    const tenant = this.o.writer.tenantFor(memoryRef, ctx);
    // An archive distilled before from the same sources keeps its entry, and so its creation time.
    const existing = await this.o.store.readerFor(tx, tenant).entry(memoryRef, entryId);
    const createdAt = existing?.createdAt ?? toIso(now);
    const before = indexed ? await readIndex(tx, this.o.workspace, tenant, memoryRef) : undefined;
    const index = indexed ? withArchive(before, memoryRef, this.tokenizerName, archiveRecord(createdAt), toIso(now)) : undefined;
    if (index !== undefined && !isValidIndex(index)) throw new DistillationError('invalid_event', 'MEMORY-INDEX.json would not validate; nothing written');
    const compactionRunId = this.o.ids.next('dst');

    // All checks passed; writes are planned from here (and commit with the request, or not at all). The sources
    // leave before the archive arrives, so a memoryRef at its entry bound can still be distilled.
    for (const s of sources) if (s.id !== entryId) await this.o.writer.delete(tx, memoryRef, s.id, ctx);
    const planned = await this.o.writer.put(
      tx,
      memoryRef,
      { id: entryId, content, tags: [ARCHIVE_TAG, `${LEVEL_TAG}${level}`, `${COMPACTED_FROM}${compactionRunId}`], ...(expiresAt !== undefined ? { expiresAt } : {}) },
      ctx,
    );
    const entry = { ...planned.entry, createdAt };

    const task = { runId: compactionRunId, tenant };
    if (index !== undefined) {
      const written = this.o.workspace.write(tx, tenant, memoryRef, INDEX_PATH, `${JSON.stringify(index, null, 2)}\n`);
      this.o.log.appendTask(tx, task, { type: 'workspace.updated', payload: { path: INDEX_PATH, ...written } });
    }
    this.o.log.appendTask(tx, task, { type: 'memory.compacted', payload: event });
    return { archiveId, archiveChecksum: archiveChecksum(entry.content), indexUpdated: indexed, entry, event, ...(index !== undefined ? { index, indexFile: { path: INDEX_PATH, content: index } } : {}) };
  }
}

/** A distiller for a runtime that does not advertise distillation: distill() refuses, nothing is claimed. */
export class UnadvertisedDistiller extends Distiller {
  override async distill(): Promise<never> {
    throw new DistillationError('not_advertised', 'this runtime does not advertise memory.distillation');
  }
  override capability(): CapabilityFragment {
    return {};
  }
}
