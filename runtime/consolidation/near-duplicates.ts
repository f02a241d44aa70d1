/**
 * Near-duplicate detection for consolidation (RFC 0068 §D): MinHash signatures over normalised character
 * shingles, LSH banding to find candidate pairs without comparing all pairs, exact Jaccard verification of every
 * candidate, and union-find to turn verified pairs into clusters.
 *
 * Deterministic by construction: hash seeds come from a fixed seeded generator, the input order is the caller's
 * (consolidation sorts by `(createdAt, id)` before calling), buckets are visited in first-insertion order and
 * union-find always keeps the smaller index as the root.
 */

/** Tuning knobs; the defaults suit short memory entries (a sentence or a paragraph). */
export interface NearDuplicateOptions {
  /** Exact Jaccard similarity (over shingle sets) at or above which two entries are near duplicates. */
  readonly threshold?: number;
  /** Character shingle length after normalisation. */
  readonly shingleSize?: number;
  /** LSH bands; `bands * rows` MinHash functions are used. */
  readonly bands?: number;
  /** Rows per band. */
  readonly rows?: number;
  /** Seed for the MinHash family (fixed so that runs are reproducible). */
  readonly seed?: number;
  /**
   * Upper bound on verifications a single entry triggers inside one bucket. Keeps the worst case (many
   * dissimilar entries colliding in one bucket) linear; clusters stay deterministic because bucket order is.
   */
  readonly maxComparisonsPerBucketMember?: number;
}

export const DEFAULT_NEAR_DUPLICATE_OPTIONS: Required<NearDuplicateOptions> = {
  threshold: 0.8,
  shingleSize: 4,
  bands: 16,
  rows: 4,
  seed: 0x5eed_0068,
  maxComparisonsPerBucketMember: 16,
};

/** Lower-case, Unicode-normalise (NFKC), drop punctuation, collapse whitespace. */
export function normaliseContent(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** 32-bit FNV-1a over the UTF-16 code units of `s`. */
export function fnv1a32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** MurmurHash3 finaliser: a cheap, well-mixing 32-bit permutation. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** splitmix32: seeded generator for the MinHash seeds. */
function seeds(seed: number, n: number): Uint32Array {
  const out = new Uint32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    out[i] = (z ^ (z >>> 16)) >>> 0;
  }
  return out;
}

/**
 * The sorted, de-duplicated set of shingle hashes of `normalised`. Text shorter than one shingle is a single
 * shingle (so two short identical texts still compare equal, and the empty text has the empty set).
 */
export function shingleSet(normalised: string, k: number): Uint32Array {
  if (normalised.length === 0) return new Uint32Array(0);
  if (normalised.length <= k) return Uint32Array.of(fnv1a32(normalised));
  const set = new Set<number>();
  for (let i = 0; i + k <= normalised.length; i++) set.add(fnv1a32(normalised.slice(i, i + k)));
  const arr = Uint32Array.from(set);
  arr.sort();
  return arr;
}

/** Exact Jaccard similarity of two sorted sets (two empty sets are identical: 1). */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      inter++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

/** Union-find with path halving; the smaller index always becomes the root (stable, order-derived). */
export class UnionFind {
  readonly #parent: Int32Array;
  constructor(n: number) {
    this.#parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.#parent[i] = i;
  }
  find(x: number): number {
    const p = this.#parent;
    while (p[x]! !== x) {
      p[x] = p[p[x]!]!;
      x = p[x]!;
    }
    return x;
  }
  union(a: number, b: number): boolean {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return false;
    if (ra < rb) this.#parent[rb] = ra;
    else this.#parent[ra] = rb;
    return true;
  }
}

/** Statistics about one detection run (useful for benchmarks and for asserting sub-quadratic behaviour). */
export interface NearDuplicateStats {
  readonly items: number;
  readonly candidatePairs: number;
  readonly verifiedPairs: number;
}

export interface NearDuplicateResult {
  /** Clusters of input indices with at least two members, each sorted ascending, ordered by first member. */
  readonly clusters: number[][];
  readonly stats: NearDuplicateStats;
}

/**
 * Cluster `texts` (already in the caller's canonical order) into near-duplicate groups.
 * `partition[i]`, when given, restricts merging to items with the same partition key (e.g. the same fact key).
 */
export function findNearDuplicateClusters(
  texts: readonly string[],
  options: NearDuplicateOptions = {},
  partition?: readonly string[],
): NearDuplicateResult {
  const o = { ...DEFAULT_NEAR_DUPLICATE_OPTIONS, ...options };
  const n = texts.length;
  const numHashes = o.bands * o.rows;
  const hashSeeds = seeds(o.seed, numHashes);
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
    const norm = normaliseContent(texts[i]!);
    const part = partition?.[i] ?? '';
    const exactKey = `${part}\u0000${norm}`;
    const first = exact.get(exactKey);
    if (first !== undefined) {
      uf.union(first, i);
      sets[i] = sets[first]!;
      continue;
    }
    exact.set(exactKey, i);
    const set = shingleSet(norm, o.shingleSize);
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
  const byRoot = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = uf.find(i);
    let c = byRoot.get(r);
    if (c === undefined) {
      c = [];
      byRoot.set(r, c);
    }
    c.push(i);
  }
  const clusters = [...byRoot.values()].filter((c) => c.length > 1).sort((a, b) => a[0]! - b[0]!);
  return { clusters, stats: { items: n, candidatePairs, verifiedPairs } };
}
