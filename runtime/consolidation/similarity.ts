/**
 * Verification and grouping for near-duplicate detection: exact Jaccard similarity of sorted shingle sets, the
 * early-exit form of "at least the threshold", and union-find clusters.
 */

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

/**
 * `jaccard(A, B) >= threshold` for the sorted sets `A = a[as..as+la)` and `B = b[bs..bs+lb)`, decided as soon as the
 * intersection is large enough or can no longer become large enough (often before reading either set, from the sizes
 * alone). Exact: for a fixed `la + lb`, the computed `k / (la + lb - k)` never decreases as `k` grows, so the least
 * sufficient `k` decides the answer just as the full intersection would.
 */
export function similarRanges(a: Uint32Array, as: number, la: number, b: Uint32Array, bs: number, lb: number, threshold: number): boolean {
  if (la === 0 && lb === 0) return 1 >= threshold;
  if (threshold <= 0) return true; // every ratio is at least 0
  const total = la + lb;
  const most = la < lb ? la : lb;
  // The least sufficient intersection: start just below the exact bound t·total/(1+t) and step up with the very
  // expression jaccard computes. None (or a NaN threshold): not similar, whatever the sets hold.
  let need = Math.max(0, Math.min(most + 1, Math.floor((threshold * total) / (1 + threshold)) - 2));
  while (need <= most && !(need / (total - need) >= threshold)) need++;
  if (!(need <= most)) return false;
  if (need === 0) return true;
  const ea = as + la;
  const eb = bs + lb;
  let i = as;
  let j = bs;
  let inter = 0;
  while (i < ea && j < eb) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      if (++inter >= need) return true;
      i++;
      j++;
    } else {
      if (x < y) i++;
      else j++;
      if (inter + Math.min(ea - i, eb - j) < need) return false;
    }
  }
  return false;
}

/** `jaccard(a, b) >= threshold`, with the early exits of `similarRanges` (below). */
export const similarAtLeast = (a: Uint32Array, b: Uint32Array, threshold: number): boolean =>
  similarRanges(a, 0, a.length, b, 0, b.length, threshold);

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

/**
 * Group `0..n-1` by union-find root: clusters of two or more, each ascending, ordered by first member. The root of a
 * set is its smallest index, so the clusters come out in first-member order as the indices are walked.
 */
export function clustersOf(uf: UnionFind, n: number): number[][] {
  const roots = new Int32Array(n);
  const sizes = new Int32Array(n);
  for (let i = 0; i < n; i++) sizes[(roots[i] = uf.find(i))]!++;
  const clusters: number[][] = [];
  const byRoot: number[][] = [];
  for (let i = 0; i < n; i++) {
    const r = roots[i]!;
    if (sizes[r]! < 2) continue;
    if (r === i) clusters.push((byRoot[r] = [i]));
    else byRoot[r]!.push(i);
  }
  return clusters;
}
