/**
 * Dense integer ids for the LSH keys of one band, `(partition, rows…)`: an open-addressing table over a hash of the
 * key words, every probe compared word by word, so two different keys never share an id (a hash collision costs a
 * probe, never a false bucket). Ids are given in first-seen order. One table per band keeps each table small enough
 * to stay in cache while a band is interned for many texts at once.
 */
import { fmix32 } from './text-sketch.ts';

/** `a` when it holds `need` elements, else a copy at least twice as long. */
export function grow<T extends Int32Array | Uint32Array>(a: T, need: number, make: new (length: number) => T): T {
  if (a.length >= need) return a;
  const b = new make(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/** Hash of the key words `words[at..at+stride)`. */
function hashKey(words: Uint32Array, at: number, stride: number): number {
  let h = 0x9e3779b9;
  for (let w = 0; w < stride; w++) h = Math.imul(h ^ words[at + w]!, 0x01000193) ^ (h >>> 15);
  return fmix32(h);
}

export class BucketIds {
  readonly #stride: number;
  /** The key being looked up. */
  readonly #key: Uint32Array;
  /** Key words of every id, `stride` per id. */
  #words: Uint32Array;
  /**
   * Open addressing, two words per slot: the key's hash and its id (id -1: empty); at most half full. A probe reads
   * the key words only when the hashes are equal.
   */
  #slots: Int32Array;
  #count = 0;

  constructor(rows: number) {
    this.#stride = rows + 1;
    this.#key = new Uint32Array(this.#stride);
    this.#words = new Uint32Array(32 * this.#stride);
    this.#slots = emptySlots(64);
  }

  /** Ids given so far (ids are `0..count-1`). */
  get count(): number {
    return this.#count;
  }

  /** The id of the key `(part, rows[from..from+rows))`, a new one when first seen. */
  idOf(part: number, rows: Uint32Array, from: number): number {
    const stride = this.#stride;
    const key = this.#key;
    key[0] = part;
    for (let r = 1; r < stride; r++) key[r] = rows[from + r - 1]!;
    const hash = hashKey(key, 0, stride) | 0;
    const slots = this.#slots;
    const mask = (slots.length >> 1) - 1;
    const words = this.#words;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = slots[2 * slot + 1]!;
      if (id === -1) return this.#insert(slot, hash);
      if (slots[2 * slot] !== hash) continue;
      const at = id * stride;
      let w = 0;
      while (w < stride && words[at + w] === key[w]) w++;
      if (w === stride) return id;
    }
  }

  /** Make room for `more` new ids, so that adding them never rehashes on the way. */
  reserve(more: number): void {
    this.#words = grow(this.#words, (this.#count + more) * this.#stride, Uint32Array);
    let size = this.#slots.length >> 1;
    while ((this.#count + more) * 2 > size) size *= 2;
    if (size > this.#slots.length >> 1) this.#rehash(size);
  }

  #insert(slot: number, hash: number): number {
    const id = this.#count++;
    this.#words = grow(this.#words, this.#count * this.#stride, Uint32Array);
    this.#words.set(this.#key, id * this.#stride);
    this.#slots[2 * slot] = hash;
    this.#slots[2 * slot + 1] = id;
    if (this.#count * 2 > this.#slots.length >> 1) this.#rehash(this.#slots.length);
    return id;
  }

  /** Re-insert every id into `size` slots (their hashes are kept in the slots, so no key is hashed again). */
  #rehash(size: number): void {
    const old = this.#slots;
    const slots = emptySlots(size);
    const mask = size - 1;
    for (let s = 0; s < old.length; s += 2) {
      const id = old[s + 1]!;
      if (id === -1) continue;
      const hash = old[s]!;
      let slot = hash & mask;
      while (slots[2 * slot + 1] !== -1) slot = (slot + 1) & mask;
      slots[2 * slot] = hash;
      slots[2 * slot + 1] = id;
    }
    this.#slots = slots;
  }
}

/** `size` empty slots (hash 0, id -1). */
function emptySlots(size: number): Int32Array {
  const slots = new Int32Array(2 * size);
  for (let s = 1; s < slots.length; s += 2) slots[s] = -1;
  return slots;
}
