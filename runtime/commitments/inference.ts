/**
 * Commitment inference (RFC 0068 §C): turn a memory entry into zero or more standing commitments.
 * The inference is pluggable (`CommitmentInference`); the default is a deterministic tag rule.
 *
 * Default rule (`tagRuleInference`): an entry tagged `intent:remind` yields
 * - one time commitment per `at:<ISO-8601 instant>` tag (an unparsable instant is ignored), and
 * - one predicate commitment per `when:<predicate-id>` tag (the id is looked up in the predicate source).
 * Entries without `intent:remind`, or with it but no `at:`/`when:` tag, yield nothing. The content (the intention
 * text) is never read by the rule and never copied into the commitment.
 */
import { createHash } from 'node:crypto';
import type { StoredEntry } from '../memory/stored-entry.ts';

/** The part of a memory entry the inference reads (content deliberately optional: the tag rule ignores it). */
export type InferenceSource = Pick<StoredEntry, 'id' | 'tags'> & Partial<Pick<StoredEntry, 'content'>>;

export type FireCondition =
  | { readonly kind: 'time'; readonly at: number }
  | { readonly kind: 'predicate'; readonly predicateId: string };

/** A standing commitment; holds identifiers and the condition only, never the intention text. */
export interface Commitment {
  /** Stable, deterministic id: the same (memoryRef, memoryId, condition) always yields the same id. */
  readonly commitmentId: string;
  readonly memoryRef: string;
  readonly memoryId?: string;
  /** Tenant of `memoryRef` (CTI-1 binding), resolved when the commitment is armed. */
  readonly tenantId: string;
  readonly condition: FireCondition;
  /** Whether firing enqueues a run (the default rule sets it for entries tagged `action:run`). */
  readonly enqueueRun: boolean;
}

export type InferredCommitment = Omit<Commitment, 'tenantId'>;

export interface CommitmentInference {
  infer(memoryRef: string, entry: InferenceSource): InferredCommitment[];
}

/** Deterministic commitment id from its provenance and condition. */
export function commitmentIdFor(memoryRef: string, memoryId: string | undefined, condition: FireCondition): string {
  const spec = condition.kind === 'time' ? `time:${condition.at}` : `predicate:${condition.predicateId}`;
  const h = createHash('sha256').update(`${memoryRef}\u0000${memoryId ?? ''}\u0000${spec}`).digest('hex');
  return `cmt_${h.slice(0, 24)}`;
}

export const tagRuleInference: CommitmentInference = {
  infer(memoryRef, entry) {
    if (!entry.tags.includes('intent:remind')) return [];
    const enqueueRun = entry.tags.includes('action:run');
    const out: InferredCommitment[] = [];
    const seen = new Set<string>();
    for (const t of entry.tags) {
      let condition: FireCondition | undefined;
      if (t.startsWith('at:')) {
        const iso = t.slice(3);
        const at = /^\d{4}-\d{2}-\d{2}T/.test(iso) ? Date.parse(iso) : Number.NaN;
        if (!Number.isNaN(at)) condition = { kind: 'time', at };
      } else if (t.startsWith('when:') && t.length > 5) {
        condition = { kind: 'predicate', predicateId: t.slice(5) };
      }
      if (condition === undefined) continue;
      const commitmentId = commitmentIdFor(memoryRef, entry.id, condition);
      if (seen.has(commitmentId)) continue;
      seen.add(commitmentId);
      out.push({ commitmentId, memoryRef, memoryId: entry.id, condition, enqueueRun });
    }
    return out;
  },
};
