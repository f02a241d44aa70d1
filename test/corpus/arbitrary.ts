/**
 * Build a fast-check arbitrary of valid instances from a schema (the subset the corpus's payload and DTO shapes use:
 * $ref, const, enum, type, string length/pattern/format, numeric bounds, arrays, objects with required/optional
 * properties, oneOf/anyOf of alternatives, allOf of objects). if/then/not/contains are not modelled.
 */
import fc from 'fast-check';
import type { Json, JsonObject, SchemaFile } from '../../generator/model.ts';
import { isObject, type Resolved } from '../../generator/resolve.ts';

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  'date-time': fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  uuid: fc.uuid(),
  email: fc.emailAddress(),
  uri: fc.webUrl(),
  'uri-reference': fc.webUrl(),
  duration: fc.tuple(fc.integer({ min: 0, max: 48 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `PT${h}H${m}M`),
};

export function arbitraryFor(r: Resolved, file: SchemaFile, schema: Json, depth = 0): fc.Arbitrary<Json> {
  if (schema === true || (isObject(schema) && Object.keys(schema).every((k) => ['description', 'title', 'default', 'x-source', 'x-runtime-rules'].includes(k))))
    return fc.jsonValue() as fc.Arbitrary<Json>;
  if (!isObject(schema)) throw new Error('unsupported schema');
  const s = schema;
  if (typeof s['$ref'] === 'string') {
    const t = r.resolve(file, s['$ref'], '');
    const rest: JsonObject = { ...s };
    delete rest['$ref'];
    if (!isObject(rest['properties']) || !isObject(t.node)) return arbitraryFor(r, t.file, t.node, depth + 1);
    // $ref + sibling properties (a refinement, e.g. ClassKeyed narrowed to a value type): the siblings win.
    const target = t.node;
    const merged: JsonObject = {
      ...target,
      ...rest,
      properties: { ...(isObject(target['properties']) ? target['properties'] : {}), ...rest['properties'] },
      required: [...new Set([...(Array.isArray(target['required']) ? (target['required'] as string[]) : []), ...(Array.isArray(rest['required']) ? (rest['required'] as string[]) : [])])],
    };
    return arbitraryFor(r, file, merged, depth + 1);
  }
  if ('const' in s) return fc.constant(s['const'] as Json);
  if (Array.isArray(s['enum'])) return fc.constantFrom(...(s['enum'] as Json[]));
  const alts = (s['oneOf'] ?? s['anyOf']) as Json[] | undefined;
  if (Array.isArray(alts)) return fc.oneof(...alts.map((a) => arbitraryFor(r, file, a, depth + 1)));
  if (Array.isArray(s['allOf']) && !s['properties']) {
    return fc.tuple(...s['allOf'].map((a) => arbitraryFor(r, file, a, depth + 1))).map((parts) => Object.assign({}, ...parts) as Json);
  }
  const type = Array.isArray(s['type']) ? (s['type'][0] as string) : (s['type'] as string | undefined) ?? (isObject(s['properties']) ? 'object' : undefined);
  switch (type) {
    case 'string': {
      const min = typeof s['minLength'] === 'number' ? s['minLength'] : 0;
      const constrained = typeof s['pattern'] === 'string' || typeof s['format'] === 'string';
      const max = typeof s['maxLength'] === 'number' ? s['maxLength'] : constrained ? Infinity : Math.max(min, 24);
      let a: fc.Arbitrary<string>;
      if (typeof s['format'] === 'string' && FORMATS[s['format']]) a = FORMATS[s['format']] as fc.Arbitrary<string>;
      else if (typeof s['pattern'] === 'string') a = fc.stringMatching(new RegExp(s['pattern'], 'u'));
      else a = fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });
      return a.filter((v) => [...v].length >= min && [...v].length <= max);
    }
    case 'integer':
    case 'number': {
      const min = typeof s['minimum'] === 'number' ? s['minimum'] : typeof s['exclusiveMinimum'] === 'number' ? s['exclusiveMinimum'] + (type === 'integer' ? 1 : 1e-6) : -1e6;
      const max = typeof s['maximum'] === 'number' ? s['maximum'] : typeof s['exclusiveMaximum'] === 'number' ? s['exclusiveMaximum'] - (type === 'integer' ? 1 : 1e-6) : 1e6;
      return type === 'integer'
        ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
        : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const item = s['items'] === undefined ? (fc.jsonValue() as fc.Arbitrary<Json>) : arbitraryFor(r, file, s['items'], depth + 1);
      const minLength = typeof s['minItems'] === 'number' ? s['minItems'] : 0;
      const maxLength = typeof s['maxItems'] === 'number' ? s['maxItems'] : Math.max(minLength, depth > 3 ? minLength : 4);
      return s['uniqueItems'] === true
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength, maxLength });
    }
    case 'object': {
      const props: JsonObject = isObject(s['properties']) ? { ...s['properties'] } : {};
      const required = Array.isArray(s['required']) ? [...(s['required'] as string[])] : [];
      // if/then (top level or in allOf): satisfy every `then` unconditionally (its required keys and its properties).
      const conditionals = [s, ...(Array.isArray(s['allOf']) ? s['allOf'] : [])].filter((c) => isObject(c) && isObject(c['then'])) as JsonObject[];
      for (const c of conditionals) {
        const then = c['then'] as JsonObject;
        for (const k of Array.isArray(then['required']) ? (then['required'] as string[]) : []) if (!required.includes(k)) required.push(k);
        if (isObject(then['properties']))
          for (const [k, p] of Object.entries(then['properties'])) props[k] = isObject(p) && isObject(props[k]) && !('const' in p) && !('enum' in p) ? { ...(props[k] as JsonObject), ...p } : (p as Json);
      }
      const rec: Record<string, fc.Arbitrary<Json>> = {};
      for (const [k, p] of Object.entries(props)) rec[k] = arbitraryFor(r, file, p, depth + 1);
      for (const k of required) if (!(k in rec)) rec[k] = fc.jsonValue() as fc.Arbitrary<Json>;
      const base = fc.record(rec, { requiredKeys: required.filter((k) => k in rec) }) as fc.Arbitrary<JsonObject>;
      if (s['additionalProperties'] === true || (s['additionalProperties'] === undefined && s['unevaluatedProperties'] === undefined)) {
        const extraKey = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !(k in props) && k !== '__proto__');
        return fc.tuple(base, fc.dictionary(extraKey, fc.jsonValue() as fc.Arbitrary<Json>, { maxKeys: 2 })).map(([a, b]) => ({ ...b, ...a }));
      }
      if (isObject(s['additionalProperties'])) {
        const extraKey = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !(k in props) && k !== '__proto__');
        const v = arbitraryFor(r, file, s['additionalProperties'], depth + 1);
        return fc.tuple(base, fc.dictionary(extraKey, v, { maxKeys: 2 })).map(([a, b]) => ({ ...b, ...a }));
      }
      return base;
    }
    default:
      return fc.jsonValue() as fc.Arbitrary<Json>;
  }
}

// ── near misses: small edits of a valid instance ──────────────────────────────────────────────────────────────────

/** One edit of an instance: where (an index into its values, depth first), what kind, and the material it may use. */
export interface Edit {
  readonly at: number;
  readonly kind: 'replace' | 'retype' | 'delete' | 'add' | 'empty' | 'grow';
  readonly junk: Json;
  readonly key: string;
}

/** Arbitrary edits: replace a value, give it another type, delete a key, add a key or item, empty it, grow it. */
export const editArbitrary: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'retype', 'delete', 'add', 'empty', 'grow'),
  junk: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  key: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('type', 'schema', 'id', 'content', 'kind')).filter((k) => k !== '__proto__'),
});

const RETYPED = (v: Json): Json =>
  typeof v === 'string' ? 1 : typeof v === 'number' ? String(v) : typeof v === 'boolean' ? 'true' : v === null ? 0 : Array.isArray(v) ? {} : [];
const EMPTIED = (v: Json): Json => (typeof v === 'string' ? '' : typeof v === 'number' ? -1 : typeof v === 'boolean' ? !v : Array.isArray(v) ? [] : isObject(v) ? {} : 'x');
const GROWN = (v: Json): Json =>
  typeof v === 'string' ? v + 'x'.repeat(520) : typeof v === 'number' ? (Number.isInteger(v) ? v * 1000 + 1e9 : v + 0.5) : Array.isArray(v) ? [...v, ...v, ...v] : v;

/** Apply edits to a copy of `instance` (each edit picks its value among the copy's values as they are then). */
export function applyEdits(instance: Json, edits: readonly Edit[]): Json {
  const holder: { root: Json } = { root: structuredClone(instance) };
  for (const e of edits) {
    const slots: { parent: Json[] | JsonObject | { root: Json }; key: string | number }[] = [];
    const walk = (parent: Json[] | JsonObject | { root: Json }, key: string | number) => {
      slots.push({ parent, key });
      const v = (parent as Record<string | number, Json>)[key] as Json;
      if (Array.isArray(v)) v.forEach((_, i) => walk(v, i));
      else if (isObject(v)) for (const k of Object.keys(v)) walk(v, k);
    };
    walk(holder, 'root');
    const { parent, key } = slots[e.at % slots.length] as (typeof slots)[number];
    const p = parent as Record<string | number, Json>;
    const v = p[key] as Json;
    switch (e.kind) {
      case 'replace': p[key] = e.junk; break;
      case 'retype': p[key] = RETYPED(v); break;
      case 'empty': p[key] = EMPTIED(v); break;
      case 'grow': p[key] = GROWN(v); break;
      case 'delete':
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else if (parent === holder) holder.root = e.junk;
        else delete p[key];
        break;
      case 'add':
        if (Array.isArray(v)) v.push(e.junk);
        else if (isObject(v)) v[e.key] = e.junk;
        else p[key] = e.junk;
        break;
    }
  }
  return holder.root;
}
