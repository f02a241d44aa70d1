/**
 * Near-duplicate detection for consolidation (RFC 0068 §D): MinHash signatures over normalised character
 * shingles, LSH banding to find candidate pairs without comparing all pairs, exact Jaccard verification of every
 * candidate, and union-find to turn verified pairs into clusters.
 *
 * Deterministic by construction: hash seeds come from a fixed seeded generator, the input order is the caller's
 * (consolidation sorts by `(createdAt, id)` before calling), each bucket is scanned most recent member first and
 * union-find always keeps the smaller index as the root.
 *
 * This is the fast form of the algorithm kept in reference.ts: same hashes, same candidates in the same order, so the
 * same clusters and statistics on every input (a property test holds it to that). What makes it fast:
 * - ASCII text is normalised in one pass (text-sketch.ts), shingles are hashed in place into a scratch buffer, and the
 *   MinHash minima are computed with WebAssembly SIMD, eight functions per pass over the set (minhash-simd.ts);
 * - every distinct (partition, normalised text) is sketched once per {@link NearDuplicateSketcher}: its shingle set
 *   goes into one pooled array, its band keys become integer bucket ids (bucket-ids.ts) instead of strings in a Map;
 *   a later call over the same texts (the plan's fixpoint iteration) only re-scans buckets;
 * - a bucket is a linked list of nodes in typed arrays, and verification stops as soon as the answer is known.
 */
import { BucketIds, grow } from './bucket-ids.ts';
import { UnionFind, clustersOf, similarRanges } from './similarity.ts';
import { simdMinHash, type SignatureFunction } from './minhash-simd.ts';
import { minHashSeeds, minHashSignature, normaliseContent, shingleHashes } from './text-sketch.ts';

export { normaliseContent, shingleSet, fnv1a32 } from './text-sketch.ts';
export { jaccard, similarAtLeast, UnionFind } from './similarity.ts';

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

/** Initial length of the growable arrays (they double as needed; a small plan stays small). */
const INITIAL = 64;

/**
 * Near-duplicate detection with memory: each distinct normalised text gets its shingle set once, and each distinct
 * (partition, normalised text) its band bucket ids once; every later {@link clusters} call reuses them. One sketcher
 * serves one option set.
 */
export class NearDuplicateSketcher {
  readonly #o: Required<NearDuplicateOptions>;
  readonly #seeds: Uint32Array;
  /** The MinHash signature: WebAssembly SIMD where available, else the JavaScript loop (same values). */
  readonly #signature: SignatureFunction;
  /** One bucket-id table per band; the bucket of (band `b`, local id `k`) is `k * bands + b`. */
  readonly #bands: BucketIds[];
  /** Raw text → normalised-text id. */
  readonly #normOfRaw = new Map<string, number>();
  /** Normalised text → normalised-text id. */
  readonly #normIds = new Map<string, number>();
  /** Shingle sets of the normalised texts, one after another: set `k` is `#pool[#setStart[k] .. +#setLength[k])`. */
  #pool = new Uint32Array(INITIAL * 16);
  #poolUsed = 0;
  #setStart = new Int32Array(INITIAL);
  #setLength = new Int32Array(INITIAL);
  /** Partition name → id (the empty partition is 0). */
  readonly #partIds = new Map<string, number>([['', 0]]);
  /** Per partition: text id + 1 of each normalised-text id (0: none yet). */
  readonly #textOfNorm: Int32Array[] = [new Int32Array(INITIAL)];
  /** Per text id: its normalised-text id, and `bands` bucket ids from `textId * bands`. */
  #normOfText = new Int32Array(INITIAL);
  #bucketsOfText = new Int32Array(INITIAL);
  #textCount = 0;
  /** Per text id: the first index of the current call holding it (valid while `#textStamp` is the call's stamp). */
  #firstOfText = new Int32Array(INITIAL);
  #textStamp = new Uint32Array(INITIAL);
  /** Per bucket id: the newest node of the current call (valid while `#bucketStamp` is the call's stamp). */
  #head = new Int32Array(INITIAL);
  #bucketStamp = new Uint32Array(INITIAL);
  #stamp = 0;
  /** Scratch space reused by every call: bucket list nodes, and the signature rows of new texts. */
  #nodeItem = new Int32Array(INITIAL);
  #nodePrev = new Int32Array(INITIAL);
  #rowsByBand = new Uint32Array(INITIAL);

  constructor(options: NearDuplicateOptions = {}) {
    this.#o = { ...DEFAULT_NEAR_DUPLICATE_OPTIONS, ...options };
    const seeds = (this.#seeds = minHashSeeds(this.#o.seed, this.#o.bands * this.#o.rows));
    this.#signature = simdMinHash(seeds) ?? ((set, from, len, sig) => minHashSignature(set, from, len, seeds, sig));
    this.#bands = Array.from({ length: this.#o.bands }, () => new BucketIds(this.#o.rows));
  }

  /**
   * Cluster `texts` (already in the caller's canonical order) into near-duplicate groups. `partition[i]`, when
   * given, restricts merging to items with the same partition key (e.g. the same fact key).
   */
  clusters(texts: readonly string[], partition?: readonly string[]): NearDuplicateResult {
    const { bands, threshold, maxComparisonsPerBucketMember: cap } = this.#o;
    const n = texts.length;
    const textIds = this.#textIds(texts, partition);
    this.#newStamp();
    const stamp = this.#stamp;
    const pool = this.#pool;
    const setStart = this.#setStart;
    const setLength = this.#setLength;
    const normOfText = this.#normOfText;
    const bucketsOfText = this.#bucketsOfText;
    const firstOfText = this.#firstOfText;
    const textStamp = this.#textStamp;
    const head = this.#head;
    const bucketStamp = this.#bucketStamp;
    // A bucket is a list of nodes, newest first: node `k` holds item `nodeItem[k]` and links to `nodePrev[k]`.
    const nodeItem = (this.#nodeItem = grow(this.#nodeItem, n * bands, Int32Array));
    const nodePrev = (this.#nodePrev = grow(this.#nodePrev, n * bands, Int32Array));
    let nodes = 0;
    const uf = new UnionFind(n);
    let candidatePairs = 0;
    let verifiedPairs = 0;
    for (let i = 0; i < n; i++) {
      const t = textIds[i]!;
      // Exact duplicates (same normalised text, same partition) join the first copy; only that copy enters LSH,
      // so a thousand copies never make a thousand-member bucket.
      if (textStamp[t] === stamp) {
        uf.union(firstOfText[t]!, i);
        continue;
      }
      textStamp[t] = stamp;
      firstOfText[t] = i;
      const norm = normOfText[t]!;
      const start = setStart[norm]!;
      const length = setLength[norm]!;
      for (let b = 0; b < bands; b++) {
        const bucket = bucketsOfText[t * bands + b]!;
        const newest = bucketStamp[bucket] === stamp ? head[bucket]! : -1;
        // Verify i against earlier bucket members, most recent first, skipping members already in i's cluster.
        for (let node = newest, compared = 0; node !== -1 && compared < cap; node = nodePrev[node]!) {
          const j = nodeItem[node]!;
          if (uf.find(i) === uf.find(j)) continue;
          compared++;
          candidatePairs++;
          const other = normOfText[textIds[j]!]!;
          if (similarRanges(pool, start, length, pool, setStart[other]!, setLength[other]!, threshold)) {
            verifiedPairs++;
            uf.union(i, j);
          }
        }
        nodeItem[nodes] = i;
        nodePrev[nodes] = newest;
        bucketStamp[bucket] = stamp;
        head[bucket] = nodes++;
      }
    }
    return { clusters: clustersOf(uf, n), stats: { items: n, candidatePairs, verifiedPairs } };
  }

  /** The text id of every text; the new ones are sketched now. */
  #textIds(texts: readonly string[], partition: readonly string[] | undefined): Int32Array {
    const n = texts.length;
    const ids = new Int32Array(n);
    const fresh: number[] = [];
    const freshParts: number[] = [];
    for (let i = 0; i < n; i++) {
      const norm = this.#normId(texts[i]!);
      const part = this.#partId(partition?.[i] ?? '');
      const textOfNorm = (this.#textOfNorm[part] = grow(this.#textOfNorm[part]!, norm + 1, Int32Array));
      let id = textOfNorm[norm]! - 1;
      if (id === -1) {
        id = this.#textCount++;
        textOfNorm[norm] = id + 1;
        this.#normOfText = grow(this.#normOfText, this.#textCount, Int32Array);
        this.#normOfText[id] = norm;
        fresh.push(id);
        freshParts.push(part);
      }
      ids[i] = id;
    }
    if (fresh.length > 0) this.#sketch(fresh, freshParts);
    return ids;
  }

  /**
   * MinHash signatures and band bucket ids of new texts. Signatures are computed first, stored band by band, and then
   * each band's keys are interned for all the texts in one go (one small table at a time).
   */
  #sketch(fresh: readonly number[], parts: readonly number[]): void {
    const { bands, rows } = this.#o;
    const m = fresh.length;
    const all = this.#seeds.length;
    const sig = new Uint32Array(all);
    // rowsByBand[(b * m + k) * rows + r]: row r of band b of the k-th new text.
    const rowsByBand = (this.#rowsByBand = grow(this.#rowsByBand, m * all, Uint32Array));
    for (let k = 0; k < m; k++) {
      const norm = this.#normOfText[fresh[k]!]!;
      this.#signature(this.#pool, this.#setStart[norm]!, this.#setLength[norm]!, sig);
      for (let b = 0; b < bands; b++) for (let r = 0; r < rows; r++) rowsByBand[(b * m + k) * rows + r] = sig[b * rows + r]!;
    }
    this.#bucketsOfText = grow(this.#bucketsOfText, this.#textCount * bands, Int32Array);
    const bucketsOfText = this.#bucketsOfText;
    for (let b = 0; b < bands; b++) {
      const table = this.#bands[b]!;
      table.reserve(m);
      for (let k = 0; k < m; k++) bucketsOfText[fresh[k]! * bands + b] = table.idOf(parts[k]!, rowsByBand, (b * m + k) * rows) * bands + b;
    }
  }

  /** The normalised-text id of `raw`; a new normalised text gets its shingle set now. */
  #normId(raw: string): number {
    let id = this.#normOfRaw.get(raw);
    if (id !== undefined) return id;
    const norm = normaliseContent(raw);
    id = this.#normIds.get(norm);
    if (id === undefined) {
      id = this.#normIds.size;
      this.#normIds.set(norm, id);
      const set = shingleHashes(norm, this.#o.shingleSize);
      this.#pool = grow(this.#pool, this.#poolUsed + set.length, Uint32Array);
      this.#pool.set(set, this.#poolUsed);
      this.#setStart = grow(this.#setStart, id + 1, Int32Array);
      this.#setLength = grow(this.#setLength, id + 1, Int32Array);
      this.#setStart[id] = this.#poolUsed;
      this.#setLength[id] = set.length;
      this.#poolUsed += set.length;
    }
    this.#normOfRaw.set(raw, id);
    return id;
  }

  #partId(part: string): number {
    let id = this.#partIds.get(part);
    if (id === undefined) {
      id = this.#partIds.size;
      this.#partIds.set(part, id);
      this.#textOfNorm.push(new Int32Array(INITIAL));
    }
    return id;
  }

  /** Size the per-text and per-bucket scratch arrays and start a new call stamp (so nothing is cleared per call). */
  #newStamp(): void {
    const buckets = Math.max(...this.#bands.map((t) => t.count)) * this.#o.bands;
    this.#firstOfText = grow(this.#firstOfText, this.#textCount, Int32Array);
    this.#textStamp = grow(this.#textStamp, this.#textCount, Uint32Array);
    this.#head = grow(this.#head, buckets, Int32Array);
    this.#bucketStamp = grow(this.#bucketStamp, buckets, Uint32Array);
    this.#stamp++;
  }
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
  return new NearDuplicateSketcher(options).clusters(texts, partition);
}
