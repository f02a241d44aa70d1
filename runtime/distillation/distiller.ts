/**
 * RFC 0062 distillation as the agent-memory spec restates it: distil a memoryRef's transactional entries (or,
 * recursively, its level-n archives) into one immutable archive entry under a token budget.
 *
 * 1. Input is the deterministic read snapshot of the sources (oldest first, then id).
 * 2. Budget: the requested budget clamped to the advertised maximum; absent ⇒ the maximum. Input plus output
 *    tokens count against it. If the sources do not fit with room for at least one output sentence, the run
 *    fails with `token_budget_exceeded` and nothing is written: no archive, no index change, no event.
 * 3. Content goes through the compaction carry-forward (SR-1) at every level, recursive runs included.
 * 4. The archive is byte-stable: the same sources and budget give the same content and the same
 *    content-addressed id (`arc_<sha256>`), so a repeated run rewrites nothing new.
 * 5. MEMORY-INDEX.json is updated and `workspace.updated` emitted when the index is enabled.
 * 6. `memory.compacted` is emitted with trigger host-managed and the `distillation` sub-object.
 * Archives live for archiveRetention, then expire (TTL) and drop out of the index.
 */
import { createHash } from 'node:crypto';
import type { Clock, IdSource } from '../shared/clock.ts';
import { toIso } from '../shared/clock.ts';
import type { SharedMemoryStore, StoredEntry } from '../memory/store.ts';
import { TRANSACTIONAL_TAG, type MemoryWriter, type WriteContext } from '../memory/writer.ts';
import { COMPACTED_FROM, SOURCE_IDS_LISTED_UP_TO, type Compactor, type EmitFn, type MemoryCompactedPayload } from '../compaction/compactor.ts';
import { extractiveSummariser, sentencesOf, type Summariser } from '../compaction/summariser.ts';
import { durationMs } from './duration.ts';
import { INDEX_PATH, readIndex, withArchive, type MemoryIndex, type MemoryIndexArchive, type Workspace } from './index-manifest.ts';
import { TOKENIZER_NAME, countTokens } from './tokenizer.ts';

export const ARCHIVE_TAG = 'distilled-archive';
export const LEVEL_TAG = 'distill-level:';

export interface DistillerOptions {
  readonly store: SharedMemoryStore;
  readonly writer: MemoryWriter;
  readonly compactor: Compactor;
  readonly workspace: Workspace;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly emit: EmitFn;
  readonly maxTokenBudget: number;
  readonly indexEmitted?: boolean;
  readonly archiveRetention?: string;
  readonly summariser?: Summariser;
  readonly tokenizerName?: string;
  readonly countTokens?: (text: string) => number;
}

export interface DistillRequest {
  readonly tokenBudget?: number;
  /** 0 (default): distil transactional entries; n ≥ 1: distil level-n archives into a level n+1 archive. */
  readonly fromLevel?: number;
  readonly context?: WriteContext;
}

export interface DistillResult {
  readonly archiveId: string;
  readonly entry: StoredEntry;
  readonly event: MemoryCompactedPayload;
  readonly index?: MemoryIndex;
}

export class TokenBudgetExceededError extends Error {
  readonly code = 'token_budget_exceeded';
  constructor(readonly details: { tokenBudget: number; tokensRequired: number; memoryRef: string }) {
    super(`sources need at least ${details.tokensRequired} tokens; the budget is ${details.tokenBudget}`);
    this.name = 'TokenBudgetExceededError';
  }
}

export class DistillationError extends Error {
  constructor(readonly code: 'no_sources' | 'invalid_budget', message: string) {
    super(message);
    this.name = 'DistillationError';
  }
}

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

  distill(memoryRef: string, req: DistillRequest = {}): DistillResult {
    const tokenBudget = this.budgetFor(req.tokenBudget);
    const fromLevel = req.fromLevel ?? 0;
    const sources = this.o.compactor
      .selectSources(memoryRef, { tag: fromLevel === 0 ? TRANSACTIONAL_TAG : `${LEVEL_TAG}${fromLevel}` })
      .filter((e) => levelOf(e) === fromLevel);
    if (sources.length === 0) throw new DistillationError('no_sources', 'nothing to distil');
    const ctx = req.context ?? {};
    const inputTokens = sources.reduce((n, s) => n + this.count(s.content), 0);
    const outputBudget = tokenBudget - inputTokens;
    const summary = outputBudget > 0 ? this.summarise(sources.map((s) => s.content), { maxTokens: outputBudget, countTokens: this.count, maxBytes: this.o.compactor.maxOutputBytes }) : '';
    if (summary.length === 0) {
      const shortest = Math.min(...sources.flatMap((s) => sentencesOf(s.content).map((x) => this.count(x))));
      throw new TokenBudgetExceededError({ tokenBudget, tokensRequired: inputTokens + (Number.isFinite(shortest) ? shortest : 1), memoryRef });
    }
    const content = this.o.compactor.carryForward(memoryRef, summary, ctx);
    const tokensUsed = inputTokens + this.count(content);
    const archiveId = `arc_${createHash('sha256')
      .update(JSON.stringify({ memoryRef, tokenBudget, tokenizer: this.tokenizerName, level: fromLevel + 1, sources: sources.map((s) => [s.id, createHash('sha256').update(s.content).digest('hex')]) }))
      .digest('hex')}`;
    const now = this.o.clock.now();
    const expiresAt = this.retentionMs === null ? undefined : toIso(now + this.retentionMs);
    const compactionRunId = this.o.ids.next('dst');

    // All checks passed; writes start here.
    const entry = this.o.writer.put(
      memoryRef,
      {
        id: `mem_${archiveId}`,
        content,
        tags: [ARCHIVE_TAG, `${LEVEL_TAG}${fromLevel + 1}`, `${COMPACTED_FROM}${compactionRunId}`],
        ...(expiresAt !== undefined ? { expiresAt } : {}),
      },
      ctx,
    );
    for (const s of sources) this.o.writer.delete(memoryRef, s.id, ctx);

    let index: MemoryIndex | undefined;
    if (this.o.indexEmitted === true) {
      const archive: MemoryIndexArchive = {
        archiveId,
        entryId: entry.id,
        createdAt: entry.createdAt,
        ...(expiresAt !== undefined ? { expiresAt } : {}),
        sourceCount: sources.length,
        tokenBudget,
        tokensUsed,
        byteSize: Buffer.byteLength(content, 'utf8'),
        level: fromLevel + 1,
      };
      index = withArchive(readIndex(this.o.workspace, memoryRef), memoryRef, this.tokenizerName, archive, toIso(now));
      const written = this.o.workspace.write(memoryRef, INDEX_PATH, `${JSON.stringify(index, null, 2)}\n`);
      this.o.emit(compactionRunId, 'workspace.updated', { path: INDEX_PATH, ...written });
    }
    const event: MemoryCompactedPayload = {
      memoryRef,
      outputId: entry.id,
      ...(sources.length <= SOURCE_IDS_LISTED_UP_TO ? { sourceIds: sources.map((s) => s.id) } : {}),
      sourceCount: sources.length,
      trigger: 'host-managed',
      byteSize: Buffer.byteLength(entry.content, 'utf8'),
      distillation: { tokenBudget, tokensUsed, indexUpdated: index !== undefined },
    };
    this.o.emit(compactionRunId, 'memory.compacted', event as unknown as Record<string, unknown>);
    return { archiveId, entry, event, ...(index !== undefined ? { index } : {}) };
  }
}
