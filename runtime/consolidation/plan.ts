/**
 * The pure consolidation plan (RFC 0068 §D): given one memoryRef's long-term entries, decide which entries
 * survive, which are merged away or superseded, and what each survivor looks like afterwards.
 *
 * Rules (deterministic; documented in docs/runtime-openwop.md §Consolidation):
 * 1. Canonical order: entries are sorted by `(createdAt, id)`; "newest" means last in that order.
 * 2. Supersession: entries carrying a `fact:<key>` tag form one group per key (an entry with several fact tags
 *    uses the lexicographically smallest key). The newest entry of a group wins; every older entry is removed.
 *    An older entry whose content is a near duplicate of the winner corroborates it (adds its weight); one whose
 *    content differs is superseded (adds nothing).
 * 3. Merge: entries without a fact tag are clustered by near-duplicate content (exact duplicates included):
 *    MinHash + LSH candidates, verified with exact Jaccard ≥ threshold, union-find clusters. The newest member
 *    of a cluster survives; the others are removed.
 * 4. Strengthen: each entry weighs `n` when it carries `corroborated:<n>`, else 1. A survivor's weight is the sum
 *    of the weights it absorbed; when it exceeds 1 the survivor carries `corroborated:<weight>` (replacing any
 *    earlier one). Tags of merged entries are unioned into the survivor (survivor's tags first, then the others'
 *    in canonical order); `expiresAt` becomes the latest of the members (absent = never expires wins).
 * 5. SR-1 carry-forward: every output entry's content goes through the redaction chokepoint.
 * 6. Fixpoint: steps 1–5 are repeated on their own output until a step changes nothing, so the plan's output is
 *    a fixpoint and a second pass over it is a no-op by construction (inputCount == outputCount, no writes).
 */
import type { StoredEntry } from '../memory/stored-entry.ts';
import { NearDuplicateSketcher, type NearDuplicateOptions, type NearDuplicateResult, type NearDuplicateStats } from './near-duplicates.ts';

/** What consolidation reads and writes: the stored (generated, read-only) `MemoryEntry`. */
export type ConsolidationEntry = StoredEntry;

export interface PlanOptions {
  /** SR-1 chokepoint for derived content (must be idempotent: redact(redact(x)) === redact(x)). */
  readonly redact: (content: string) => string;
  readonly nearDuplicates?: NearDuplicateOptions;
  /** Safety bound on fixpoint iterations (each iteration that changes something removes an entry or rewrites). */
  readonly maxIterations?: number;
}

export interface ConsolidationPlan {
  readonly inputCount: number;
  readonly outputCount: number;
  /** Final entries, canonical order. */
  readonly output: readonly ConsolidationEntry[];
  /** Ids removed (merged into a survivor or superseded), in the order they were removed. */
  readonly mergedIds: readonly string[];
  /** Surviving entries whose stored form must change (content, tags or expiresAt differ from the input). */
  readonly rewrites: readonly ConsolidationEntry[];
  readonly iterations: number;
  readonly stats: { readonly superseded: number; readonly merged: number; readonly nearDuplicate: NearDuplicateStats[] };
}

const FACT = 'fact:';
const CORROBORATED = 'corroborated:';

export function factKeyOf(tags: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const t of tags) if (t.startsWith(FACT) && (best === undefined || t < best)) best = t.slice(FACT.length);
  return best;
}

export function weightOf(tags: readonly string[]): number {
  for (const t of tags) {
    if (t.startsWith(CORROBORATED)) {
      const n = Number(t.slice(CORROBORATED.length));
      if (Number.isSafeInteger(n) && n >= 1) return n;
    }
  }
  return 1;
}

const ms = (iso: string): number => {
  const v = Date.parse(iso);
  return Number.isNaN(v) ? 0 : v;
};

/** Canonical order `(createdAt, id)`; each timestamp is parsed once, not in every comparison. */
export function canonicalSort(entries: readonly ConsolidationEntry[]): ConsolidationEntry[] {
  const keyed = entries.map((e) => ({ e, t: ms(e.createdAt) }));
  keyed.sort((a, b) => a.t - b.t || (a.e.id < b.e.id ? -1 : a.e.id > b.e.id ? 1 : 0));
  return keyed.map((k) => k.e);
}

/**
 * How a plan orders entries and finds near duplicates. The rules above do not depend on it; the fast engine and the
 * reference one (reference.ts) give the same order and the same clusters.
 */
export interface PlanEngine {
  /** Canonical order `(createdAt, id)` (a new array). */
  readonly sort: (entries: readonly ConsolidationEntry[]) => ConsolidationEntry[];
  /** Near-duplicate clusters of texts given in canonical order. */
  readonly clusters: (texts: readonly string[]) => NearDuplicateResult;
}

/**
 * The runtime's engine: one {@link NearDuplicateSketcher} for the whole plan, so a fixpoint iteration over the
 * survivors of the previous one re-uses every text's shingles, signature and band buckets; and the order of the last
 * array sorted is remembered (each iteration sorts its input twice: once to process it, once to compare).
 */
function fastEngine(options: NearDuplicateOptions | undefined): PlanEngine {
  const sketcher = new NearDuplicateSketcher(options);
  let last: { readonly input: readonly ConsolidationEntry[]; readonly sorted: readonly ConsolidationEntry[] } | undefined;
  return {
    sort: (input) => {
      if (last?.input !== input) last = { input, sorted: canonicalSort(input) };
      return [...last.sorted];
    },
    clusters: (texts) => sketcher.clusters(texts),
  };
}

function latestExpiry(members: readonly ConsolidationEntry[]): string | undefined {
  let best: string | undefined;
  for (const m of members) {
    if (m.expiresAt === undefined) return undefined;
    if (best === undefined || ms(m.expiresAt) > ms(best)) best = m.expiresAt;
  }
  return best;
}

function mergeInto(survivor: ConsolidationEntry, absorbed: readonly ConsolidationEntry[], weight: number): ConsolidationEntry {
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const e of [survivor, ...absorbed]) {
    for (const t of e.tags) {
      if (t.startsWith(CORROBORATED) || seen.has(t)) continue;
      seen.add(t);
      tags.push(t);
    }
  }
  if (weight > 1) tags.push(`${CORROBORATED}${weight}`);
  const expiresAt = latestExpiry([survivor, ...absorbed]);
  const { expiresAt: _drop, ...rest } = survivor;
  return expiresAt === undefined ? { ...rest, tags } : { ...rest, tags, expiresAt };
}

function sameEntry(a: ConsolidationEntry, b: ConsolidationEntry): boolean {
  return (
    a.id === b.id &&
    a.content === b.content &&
    a.createdAt === b.createdAt &&
    a.expiresAt === b.expiresAt &&
    a.tags.length === b.tags.length &&
    a.tags.every((t, i) => t === b.tags[i])
  );
}

interface StepResult {
  readonly output: ConsolidationEntry[];
  readonly removed: string[];
  readonly superseded: number;
  readonly merged: number;
  readonly stats: NearDuplicateStats;
}

function step(input: readonly ConsolidationEntry[], o: PlanOptions, engine: PlanEngine): StepResult {
  const sorted = engine.sort(input).map((e) => {
    const content = o.redact(e.content);
    const tags = e.tags.map(o.redact); // SR-1 covers every stored string, tags included
    return content === e.content && tags.every((t, i) => t === e.tags[i]) ? e : { ...e, content, tags };
  });
  const removed: string[] = [];
  let superseded = 0;
  let merged = 0;
  const replaced = new Map<string, ConsolidationEntry>();
  const drop = new Set<string>();

  // Partition: fact entries by key; the rest go to near-duplicate clustering.
  const facts = new Map<string, ConsolidationEntry[]>();
  const plain: ConsolidationEntry[] = [];
  for (const e of sorted) {
    const k = factKeyOf(e.tags);
    if (k === undefined) plain.push(e);
    else {
      let g = facts.get(k);
      if (g === undefined) facts.set(k, (g = []));
      g.push(e);
    }
  }

  // Supersession within a fact group (newest wins; near-duplicate losers corroborate).
  for (const group of facts.values()) {
    if (group.length < 2) continue;
    const winner = group[group.length - 1]!;
    const texts = group.map((e) => e.content);
    const { clusters } = engine.clusters(texts);
    const winnerIdx = group.length - 1;
    const dupOfWinner = new Set<number>(clusters.find((c) => c.includes(winnerIdx)) ?? []);
    let weight = weightOf(winner.tags);
    const absorbed: ConsolidationEntry[] = [];
    for (let i = 0; i < winnerIdx; i++) {
      const e = group[i]!;
      drop.add(e.id);
      removed.push(e.id);
      if (dupOfWinner.has(i)) {
        weight += weightOf(e.tags);
        absorbed.push(e);
        merged++;
      } else superseded++;
    }
    replaced.set(winner.id, mergeInto(winner, absorbed, weight));
  }

  // Merge near duplicates among the plain entries.
  const { clusters, stats } = engine.clusters(plain.map((e) => e.content));
  for (const c of clusters) {
    const survivor = plain[c[c.length - 1]!]!;
    const absorbed = c.slice(0, -1).map((i) => plain[i]!);
    let weight = weightOf(survivor.tags);
    for (const e of absorbed) {
      weight += weightOf(e.tags);
      drop.add(e.id);
      removed.push(e.id);
      merged++;
    }
    replaced.set(survivor.id, mergeInto(survivor, absorbed, weight));
  }

  const output = sorted.filter((e) => !drop.has(e.id)).map((e) => replaced.get(e.id) ?? e);
  return { output, removed, superseded, merged, stats };
}

/** Compute the consolidation of `entries` (pure; nothing is written). */
export function planConsolidation(entries: readonly ConsolidationEntry[], o: PlanOptions): ConsolidationPlan {
  return planConsolidationWith(entries, o, fastEngine(o.nearDuplicates));
}

/** {@link planConsolidation} with a given engine (the reference plan in reference.ts uses the reference engine). */
export function planConsolidationWith(entries: readonly ConsolidationEntry[], o: PlanOptions, engine: PlanEngine): ConsolidationPlan {
  const maxIterations = o.maxIterations ?? 16;
  const original = new Map(entries.map((e) => [e.id, e] as const));
  let current: readonly ConsolidationEntry[] = entries;
  const mergedIds: string[] = [];
  let superseded = 0;
  let merged = 0;
  const nd: NearDuplicateStats[] = [];
  let iterations = 0;
  for (;;) {
    iterations++;
    const r = step(current, o, engine);
    nd.push(r.stats);
    superseded += r.superseded;
    merged += r.merged;
    for (const id of r.removed) mergedIds.push(id);
    const before = engine.sort(current);
    const changed =
      r.removed.length > 0 || r.output.length !== before.length || r.output.some((e, i) => !sameEntry(e, before[i]!));
    current = r.output;
    if (!changed) break;
    if (iterations >= maxIterations) throw new Error(`consolidation did not reach a fixpoint in ${maxIterations} iterations`);
  }
  const rewrites = current.filter((e) => {
    const before = original.get(e.id);
    return before === undefined || !sameEntry(before, e);
  });
  return {
    inputCount: entries.length,
    outputCount: current.length,
    output: current,
    mergedIds,
    rewrites,
    iterations,
    stats: { superseded, merged, nearDuplicate: nd },
  };
}
