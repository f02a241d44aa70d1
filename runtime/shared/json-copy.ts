/**
 * A deep copy of JSON-shaped data (what events, transcripts and traces hold): arrays and plain objects are copied
 * key by key, primitives are themselves. Anything else (a Date, a Map, a class instance) is handed to
 * `structuredClone`, so the result is always what `structuredClone` would give — without its serialisation round
 * trip, which cost ~10 µs of every memory write's event in a profile of the seed seam.
 *
 * Typed structurally, without a cast: a copy of an object is an object whose members are unknown (which is true of
 * any object, so the signature makes no promise the copy could break), and a copy of anything else is unknown. A
 * caller that needs a narrower type checks the copy (the event log validates the payload it copied).
 */

/** A copied object: its own members, each of them unknown until checked. */
export type CopiedObject = { [key: string]: unknown };

/** Whether an object is a plain one (its prototype Object.prototype, or none): its members, unknown until checked. */
const isPlainObject = (value: object): value is { readonly [key: string]: unknown } => {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

export function copyJson(value: object): CopiedObject;
export function copyJson(value: unknown): unknown;
export function copyJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyJson);
  if (!isPlainObject(value)) return structuredClone(value);
  const out: CopiedObject = {};
  for (const key of Object.keys(value)) {
    const copy = copyJson(value[key]);
    // An own `__proto__` member (JSON.parse makes one from `{"__proto__": …}`) stays a member: assigning it would set
    // the copy's prototype instead, or drop it.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out;
}
