/**
 * The MinHash signature of text-sketch.ts's `minHashSignature`, computed with WebAssembly SIMD: eight hash functions
 * per pass over the shingle set (two i32x4 vectors), the minima kept with `i32x4.min_u`. Same values, bit for bit (a
 * property test compares the two); where WebAssembly SIMD is not available, or the function count is not a multiple
 * of eight, {@link simdMinHash} returns undefined and the caller keeps the plain JavaScript loop.
 *
 * The module is a dozen instructions, assembled below from named opcodes (WebAssembly binary format, version 1):
 *
 *   sig(setPtr, n, seedsPtr, outPtr, groups):        for each group g of 8 functions:
 *     s0, s1 = seeds[8g .. 8g+8)                       (already spread: v ^ (v >>> 16))
 *     m0, m1 = all ones
 *     for each shingle x (already spread):           z = x ^ s;  z = z * 0x85ebca6b;  z ^= z >>> 13;
 *       m0 = min_u(m0, h(x, s0)); m1 = ...             z = z * 0xc2b2ae35;  z ^= z >>> 16
 *     out[8g .. 8g+8) = m0, m1
 */
// --- a few WebAssembly encodings -------------------------------------------------------------------------------
const uleb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
};
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => vec([...s].map((c) => [c.charCodeAt(0)]));

const I32 = 0x7f;
const V128 = 0x7b;
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  brIf: (label: number) => [0x0d, ...uleb(label)],
  get: (local: number) => [0x20, ...uleb(local)],
  set: (local: number) => [0x21, ...uleb(local)],
  tee: (local: number) => [0x22, ...uleb(local)],
  i32: (value: number) => [0x41, ...sleb(value)],
  i32Eqz: [0x45],
  i32LtU: [0x49],
  i32GeU: [0x4f],
  i32Add: [0x6a],
  i32Shl: [0x74],
  simd: (code: number, ...imm: number[]) => [0xfd, ...uleb(code), ...imm],
};
const v128Load = (offset: number) => op.simd(0x00, 0, ...uleb(offset));
const v128Load32Splat = op.simd(0x09, 0, 0);
const v128Store = (offset: number) => op.simd(0x0b, 0, ...uleb(offset));
const v128Const = (lanes: readonly number[]) => op.simd(0x0c, ...new Uint8Array(Uint32Array.from(lanes).buffer));
const v128Xor = op.simd(0x51);
const i32x4ShrU = op.simd(0xad);
const i32x4Mul = op.simd(0xb5);
const i32x4MinU = op.simd(0xb7);

// Parameters and locals of `sig`.
const [SET, N, SEEDS, OUT, GROUPS, G, P, END, X, M0, M1, S0, S1, Z] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] as const;
const ALL_ONES = v128Const([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]);

/** `m = min_u(m, h(x, s))` for the spread shingle in X and the spread seeds in `s`. */
const minOfHash = (s: number, m: number): number[] => [
  ...op.get(X), ...op.get(s), ...v128Xor, ...v128Const([0x85ebca6b, 0x85ebca6b, 0x85ebca6b, 0x85ebca6b]), ...i32x4Mul, ...op.set(Z),
  ...op.get(Z), ...op.get(Z), ...op.i32(13), ...i32x4ShrU, ...v128Xor, ...v128Const([0xc2b2ae35, 0xc2b2ae35, 0xc2b2ae35, 0xc2b2ae35]), ...i32x4Mul, ...op.set(Z),
  ...op.get(Z), ...op.get(Z), ...op.i32(16), ...i32x4ShrU, ...v128Xor, ...op.get(m), ...i32x4MinU, ...op.set(m),
];
/** The address `base + g * 32` (group g's eight 32-bit lanes). */
const groupAddress = (base: number): number[] => [...op.get(base), ...op.get(G), ...op.i32(5), ...op.i32Shl, ...op.i32Add];

const body: number[] = [
  ...vec([[3, I32], [6, V128]]), // locals G, P, END; X, M0, M1, S0, S1, Z
  ...op.get(SET), ...op.get(N), ...op.i32(2), ...op.i32Shl, ...op.i32Add, ...op.set(END),
  ...op.block,
  ...op.get(GROUPS), ...op.i32Eqz, ...op.brIf(0),
  ...op.loop,
  ...groupAddress(SEEDS), ...v128Load(0), ...op.set(S0),
  ...groupAddress(SEEDS), ...v128Load(16), ...op.set(S1),
  ...ALL_ONES, ...op.set(M0),
  ...ALL_ONES, ...op.set(M1),
  ...op.get(SET), ...op.set(P),
  ...op.block,
  ...op.get(P), ...op.get(END), ...op.i32GeU, ...op.brIf(0),
  ...op.loop,
  ...op.get(P), ...v128Load32Splat, ...op.set(X),
  ...minOfHash(S0, M0),
  ...minOfHash(S1, M1),
  ...op.get(P), ...op.i32(4), ...op.i32Add, ...op.tee(P), ...op.get(END), ...op.i32LtU, ...op.brIf(0),
  ...op.end,
  ...op.end,
  ...groupAddress(OUT), ...op.get(M0), ...v128Store(0),
  ...groupAddress(OUT), ...op.get(M1), ...v128Store(16),
  ...op.get(G), ...op.i32(1), ...op.i32Add, ...op.tee(G), ...op.get(GROUPS), ...op.i32LtU, ...op.brIf(0),
  ...op.end,
  ...op.end,
  ...op.end,
];

const MODULE = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), ...vec([])]])), // type 0: (i32 ×5) → ()
  ...section(3, vec([[0]])), // function 0 has type 0
  ...section(5, vec([[0x00, 1]])), // one memory, at least one page
  ...section(7, vec([[...name('sig'), 0x00, 0], [...name('memory'), 0x02, 0]])),
  ...section(10, vec([[...uleb(body.length), ...body]])),
]);

const spread = (v: number): number => (v ^ (v >>> 16)) >>> 0;

/** A MinHash signature function, `(set, from, len, sig)`: the minima over `set[from..from+len)` into `sig`. */
export type SignatureFunction = (set: Uint32Array, from: number, len: number, sig: Uint32Array) => void;

/** The part of the WebAssembly JavaScript API used here (the project's type libraries do not declare it). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { readonly exports: Record<string, unknown> };
}
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** The compiled module (null: this engine cannot run it), compiled on first use. */
let compiled: object | null | undefined;

/** The SIMD signature for these seeds, or undefined (no WebAssembly SIMD here, or not a multiple of eight seeds). */
export function simdMinHash(seeds: Uint32Array): SignatureFunction | undefined {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (seeds.length === 0 || seeds.length % 8 !== 0 || wasm === undefined) return undefined;
  compiled ??= wasm.validate(MODULE) ? new wasm.Module(MODULE) : null;
  if (compiled === null) return undefined;
  const { exports } = new wasm.Instance(compiled);
  const sig = exports['sig'] as (set: number, n: number, seeds: number, out: number, groups: number) => void;
  const memory = exports['memory'] as WasmMemory;
  // Layout: spread seeds at 0, the minima after them, then the spread shingle set.
  const seedsAt = 0;
  const outAt = seeds.length * 4;
  const setAt = outAt + seeds.length * 4;
  const groups = seeds.length / 8;
  let words = new Uint32Array(memory.buffer);
  for (let i = 0; i < seeds.length; i++) words[i] = spread(seeds[i]!);
  return (set, from, len, out) => {
    const need = setAt + len * 4;
    if (need > memory.buffer.byteLength) {
      memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65536));
      words = new Uint32Array(memory.buffer);
    }
    const base = setAt / 4;
    for (let s = 0; s < len; s++) words[base + s] = spread(set[from + s]!);
    sig(setAt, len, seedsAt, outAt, groups);
    const first = outAt / 4;
    for (let h = 0; h < seeds.length; h++) out[h] = words[first + h]!;
  };
}
