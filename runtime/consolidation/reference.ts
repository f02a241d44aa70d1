/**
 * The reference forms of near-duplicate detection and of the consolidation plan: the straightforward implementation
 * the fast path (near-duplicates.ts, plan.ts) replaced, kept so that tests and the benchmark can hold the fast path
 * to identical clusters, statistics and plans. Not used by the runtime.
 *
 * What differs from the fast path, and only this: Unicode normalisation for every text, one substring and one `Set`
 * entry per shingle, one string band key per band and entry in a `Map`, the 64 MinHash functions applied per
 * shingle, `Date.parse` inside the sort comparator, and every fixpoint iteration detecting from scratch. The hash
 * functions, seeds, verification, union-find and the plan's rules are shared.
 */
import { DEFAULT_NEAR_DUPLICATE_OPTIONS, type NearDuplicateOptions, type NearDuplicateResult } from './near-duplicates.ts';
import { UnionFind, clustersOf, jaccard } from './similarity.ts';
import { fmix32, fnv1a32, minHashSeeds, normaliseUnicode } from './text-sketch.ts';
import { planConsolidationWith, type ConsolidationEntry, type ConsolidationPlan, type PlanOptions } from './plan.ts';

/** Reference shingle set: one substring per shingle, de-duplicated by a `Set`, then sorted. */
export function referenceShingleSet(normalised: string, k: number): Uint32Array {
  if (normalised.length === 0) return new Uint32Array(0);
  if (normalised.length <= k) return Uint32Array.of(fnv1a32(normalised));
  const set = new Set<number>();
  for (let i = 0; i + k <= normalised.length; i++) set.add(fnv1a32(normalised.slice(i, i + k)));
  const arr = Uint32Array.from(set);
  arr.sort();
  return arr;
}

/** Reference detection (same contract as {@link findNearDuplicateClusters} in near-duplicates.ts). */
export function referenceFindNearDuplicateClusters(
  texts: readonly string[],
  options: NearDuplicateOptions = {},
  partition?: readonly string[],
): NearDuplicateResult {
  const o = { ...DEFAULT_NEAR_DUPLICATE_OPTIONS, ...options };
  const n = texts.length;
  const numHashes = o.bands * o.rows;
  const hashSeeds = minHashSeeds(o.seed, numHashes);
  const uf = new UnionFind(n);
  const sets: Uint32Array[] = new Array(n);
  const sig = new Uint32Array(numHashes);
  // Exact duplicates (same normalised text, same partition) are unioned up front, and only one representative
  // per exact-duplicate group enters LSH: a thousand copies never make a thousand-member bucket.
  const exact = new Map<string, number>();
  const buckets = new Map<string, number[]>();
  let candidatePairs = 0;
  let verifiedPairs = 0;
  for (let i = 0; i < n; i++) {
    const norm = normaliseUnicode(texts[i]!);
    const part = partition?.[i] ?? '';
    const exactKey = `${part}\u0000${norm}`;
    const first = exact.get(exactKey);
    if (first !== undefined) {
      uf.union(first, i);
      sets[i] = sets[first]!;
      continue;
    }
    exact.set(exactKey, i);
    const set = referenceShingleSet(norm, o.shingleSize);
    sets[i] = set;
    sig.fill(0xffffffff);
    for (let s = 0; s < set.length; s++) {
      const x = set[s]!;
      for (let h = 0; h < numHashes; h++) {
        const v = fmix32(x ^ hashSeeds[h]!);
        if (v < sig[h]!) sig[h] = v;
      }
    }
    for (let b = 0; b < o.bands; b++) {
      let key = `${b}|${part}`;
      for (let r = 0; r < o.rows; r++) key += `|${sig[b * o.rows + r]!}`;
      let bucket = buckets.get(key);
      if (bucket === undefined) {
        bucket = [];
        buckets.set(key, bucket);
      }
      // Verify i against earlier bucket members, most recent first, skipping members already in i's cluster.
      let compared = 0;
      for (let m = bucket.length - 1; m >= 0 && compared < o.maxComparisonsPerBucketMember; m--) {
        const j = bucket[m]!;
        if (uf.find(i) === uf.find(j)) continue;
        compared++;
        candidatePairs++;
        if (jaccard(set, sets[j]!) >= o.threshold) {
          verifiedPairs++;
          uf.union(i, j);
        }
      }
      bucket.push(i);
    }
  }
  return { clusters: clustersOf(uf, n), stats: { items: n, candidatePairs, verifiedPairs } };
}

const ms = (iso: string): number => {
  const v = Date.parse(iso);
  return Number.isNaN(v) ? 0 : v;
};

/** Reference canonical order: `(createdAt, id)`, parsing both timestamps in every comparison. */
export function referenceCanonicalSort(entries: readonly ConsolidationEntry[]): ConsolidationEntry[] {
  return [...entries].sort((a, b) => ms(a.createdAt) - ms(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Reference plan: the plan's rules with the reference sort and detection, each iteration detecting from scratch. */
export function referencePlanConsolidation(entries: readonly ConsolidationEntry[], o: PlanOptions): ConsolidationPlan {
  return planConsolidationWith(entries, o, {
    sort: referenceCanonicalSort,
    clusters: (texts) => referenceFindNearDuplicateClusters(texts, o.nearDuplicates),
  });
}
