/**
 * Text → set of shingle hashes, for near-duplicate detection: normalisation, FNV-1a shingle hashes, and the MinHash
 * family (`fmix32(x ^ seed)` with seeds from a fixed generator). The functions here define the hashes; the detection
 * (near-duplicates.ts) and its reference (reference.ts) both use them.
 */

/** The general (Unicode) normalisation: NFKC, lower case, punctuation to spaces, whitespace collapsed, trimmed. */
export function normaliseUnicode(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

let asciiBuffer = new Uint16Array(256);

/**
 * {@link normaliseUnicode} for text made of ASCII code units only (NFKC leaves ASCII as it is), in one pass: letters
 * are lower-cased, digits kept, and every run of other characters (punctuation, whitespace, controls) becomes one
 * space between words. `undefined` when the text has a non-ASCII code unit.
 */
function normaliseAscii(text: string): string | undefined {
  const n = text.length;
  if (asciiBuffer.length < n) asciiBuffer = new Uint16Array(n * 2);
  const buf = asciiBuffer;
  let len = 0;
  let gap = false;
  for (let i = 0; i < n; i++) {
    let c = text.charCodeAt(i);
    if (c >= 128) return undefined;
    if (c >= 65 && c <= 90) c += 32;
    else if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
      gap = len > 0;
      continue;
    }
    if (gap) {
      buf[len++] = 32;
      gap = false;
    }
    buf[len++] = c;
  }
  // The code units as UTF-16 text: what String.fromCharCode over them gives, in one call.
  return Buffer.from(buf.buffer, buf.byteOffset, len * 2).toString('utf16le');
}

/** Lower-case, Unicode-normalise (NFKC), drop punctuation, collapse whitespace. */
export function normaliseContent(text: string): string {
  return normaliseAscii(text) ?? normaliseUnicode(text);
}

/** 32-bit FNV-1a over the UTF-16 code units `s[from..to)` (whole string by default; no substring is made). */
export function fnv1a32(s: string, from = 0, to = s.length): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

let shingleBuffer = new Uint32Array(256);

/**
 * The sorted, de-duplicated shingle hashes of `normalised`, as a view of a scratch buffer that the next call
 * overwrites (copy what you keep). Text shorter than one shingle is a single shingle (so two short identical texts
 * still compare equal), and the empty text has the empty set.
 */
export function shingleHashes(normalised: string, k: number): Uint32Array {
  const n = normalised.length;
  const count = n === 0 ? 0 : n <= k ? 1 : n - k + 1;
  if (shingleBuffer.length < count) shingleBuffer = new Uint32Array(count * 2);
  const hashes = shingleBuffer.subarray(0, count);
  if (count === 1) hashes[0] = fnv1a32(normalised);
  else if (count > 1) {
    for (let i = 0; i < count; i++) hashes[i] = fnv1a32(normalised, i, i + k);
    hashes.sort();
  }
  let unique = Math.min(count, 1);
  for (let i = 1; i < count; i++) if (hashes[i] !== hashes[unique - 1]) hashes[unique++] = hashes[i]!;
  return hashes.subarray(0, unique);
}

/** The sorted, de-duplicated set of shingle hashes of `normalised` (a new array). */
export function shingleSet(normalised: string, k: number): Uint32Array {
  return shingleHashes(normalised, k).slice();
}

/** splitmix32: the seeded generator of the MinHash seeds. */
export function minHashSeeds(seed: number, n: number): Uint32Array {
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

/** MurmurHash3 finaliser: a cheap, well-mixing 32-bit permutation. MinHash function `h` is `fmix32(x ^ seed[h])`. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The MinHash signature of the set `set[from..from+len)` into `sig`: for each function `h`, the least
 * `fmix32(x ^ seeds[h])` over the set (0xffffffff for the empty set). The sketcher uses the WebAssembly SIMD form
 * (minhash-simd.ts) where it can; this loop is the fallback.
 */
export function minHashSignature(set: Uint32Array, from: number, len: number, seeds: Uint32Array, sig: Uint32Array): void {
  for (let h = 0; h < seeds.length; h++) {
    const seed = seeds[h]!;
    let min = 0xffffffff;
    for (let s = from; s < from + len; s++) {
      const v = fmix32(set[s]! ^ seed);
      if (v < min) min = v;
    }
    sig[h] = min;
  }
}
