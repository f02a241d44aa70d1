/**
 * Human messages for the mistakes a schema author makes, instead of Ajv's raw ones: a meta-schema violation names the
 * keyword, the value written and what is allowed (`type` is `strng`; expected one of array, boolean, …), an unknown
 * keyword gets a did-you-mean, and an Ajv strict-mode error keeps its text but gains the JSON pointer it mentions.
 * Pure functions of the schema and Ajv's errors.
 */
import type { ErrorObject } from 'ajv';
import type { Json, JsonObject } from './json-value.ts';
import { escapePointer, unescapePointer } from './errors.ts';

/** One problem with its JSON pointer into the schema file. */
export interface PointedMessage {
  readonly pointer: string;
  readonly message: string;
}

// ── Values and keywords in prose ─────────────────────────────────────────────────────────────────────────────────

const isPlainObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `a string`, `an array`, … */
function kindOf(v: Json | undefined): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  return typeof v === 'string' ? 'a string' : typeof v === 'boolean' ? 'a boolean' : 'nothing';
}

/** A value as a message shows it: short JSON in backticks (a bare word when `bare` and it is a string). */
function shown(v: Json | undefined, bare = false): string {
  if (v === undefined) return 'missing';
  const text = bare && typeof v === 'string' ? v : JSON.stringify(v);
  return `\`${text.length > 60 ? `${text.slice(0, 57)}...` : text}\``;
}

/** The keyword a pointer ends in, as prose: `type`, `type[1]`, `the schema`. */
function keywordAt(pointer: string): string {
  const segs = pointer.split('/').slice(1).map(unescapePointer);
  const last = segs.at(-1);
  if (last === undefined) return 'the schema';
  if (/^\d+$/.test(last) && segs.length > 1) return `\`${segs.at(-2)}[${last}]\``;
  return `\`${last}\``;
}

/** What a meta-schema `type` error expects, from its allowed types and where in the meta-schema it was raised. */
function expectedKind(types: readonly string[], schemaPaths: readonly string[]): string {
  const set = new Set(types);
  if (set.has('object') && set.has('boolean') && set.size === 2) return 'a schema (an object, true or false)';
  if (set.size === 1 && set.has('integer') && schemaPaths.some((p) => p.includes('nonNegativeInteger'))) return 'a non-negative integer';
  if (set.size === 1 && set.has('array') && schemaPaths.some((p) => p.includes('stringArray'))) return 'an array of distinct strings';
  if (set.size === 1 && set.has('array') && schemaPaths.some((p) => p.includes('schemaArray'))) return 'a non-empty array of schemas';
  const noun = (t: string) => (t === 'array' || t === 'object' || t === 'integer' ? `an ${t}` : t === 'null' ? 'null' : `a ${t}`);
  return [...set].map(noun).join(' or ');
}

// ── Meta-schema violations ───────────────────────────────────────────────────────────────────────────────────────

const AGGREGATES = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not']);

const valueAt = (doc: Json, pointer: string): Json | undefined => {
  let cur: Json | undefined = doc;
  for (const seg of pointer.split('/').slice(1).map(unescapePointer)) {
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isPlainObject(cur)) cur = Object.prototype.hasOwnProperty.call(cur, seg) ? cur[seg] : undefined;
    else return undefined;
  }
  return cur;
};

/** One message for the errors Ajv raised at one pointer. */
function describeAt(schema: Json, pointer: string, errors: readonly ErrorObject[]): string {
  const kw = keywordAt(pointer);
  const value = valueAt(schema, pointer);
  const enumError = errors.find((e) => e.keyword === 'enum');
  if (enumError) {
    const allowed = (enumError.params as { allowedValues?: Json[] }).allowedValues ?? [];
    return `${kw} is ${shown(value, true)}; expected one of ${allowed.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(', ')}`;
  }
  const typeErrors = errors.filter((e) => e.keyword === 'type');
  if (typeErrors.length) {
    const types = typeErrors.flatMap((e) => {
      const t = (e.params as { type?: string | string[] }).type;
      return Array.isArray(t) ? t : typeof t === 'string' ? t.split(',') : [];
    });
    return `${kw} is ${shown(value)}, ${kindOf(value)}; expected ${expectedKind(types, typeErrors.map((e) => e.schemaPath))}`;
  }
  const first = errors[0] as ErrorObject;
  const p = first.params as Record<string, unknown>;
  switch (first.keyword) {
    case 'minimum':
      return `${kw} is ${shown(value)}; expected a number ${String(p['comparison'] ?? '>=')} ${String(p['limit'])}`;
    case 'minItems':
      return `${kw} is ${shown(value)}; expected at least ${String(p['limit'])} item${p['limit'] === 1 ? '' : 's'}`;
    case 'uniqueItems':
      return `${kw} lists ${shown(Array.isArray(value) ? value[Number(p['j'])] : undefined)} twice (items ${String(p['j'])} and ${String(p['i'])})`;
    case 'format':
      return `${kw} is ${shown(value)}; expected ${p['format'] === 'regex' ? 'a valid regular expression' : `a ${String(p['format'])}`}`;
    default:
      return `${kw} is ${shown(value)}: ${first.message ?? first.keyword}`;
  }
}

/**
 * Ajv's meta-schema errors for one schema → one message per pointer, naming the keyword, the value and what is
 * allowed. Errors at a pointer with errors below it are dropped (the deeper one is precise), and at one pointer an
 * `enum` error wins over the `type` errors of the other alternatives and over aggregates (`anyOf` "must match a schema").
 */
export function metaSchemaMessages(schema: Json, errors: readonly ErrorObject[]): PointedMessage[] {
  const byPointer = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    const list = byPointer.get(e.instancePath) ?? [];
    list.push(e);
    byPointer.set(e.instancePath, list);
  }
  const pointers = [...byPointer.keys()];
  const out: PointedMessage[] = [];
  for (const [pointer, list] of byPointer) {
    // An error below this pointer is the precise one (a bad member of a `type` list); the alternatives Ajv tried here
    // ("must be one of …", "must be array", "must match a schema in anyOf") add nothing to it.
    if (pointers.some((q) => q !== pointer && q.startsWith(`${pointer}/`))) continue;
    const precise = list.filter((e) => !AGGREGATES.has(e.keyword));
    out.push({ pointer, message: describeAt(schema, pointer, precise.length ? precise : list) });
  }
  return out;
}

// ── Unknown keywords ─────────────────────────────────────────────────────────────────────────────────────────────

/** Keywords whose value is one subschema; those whose value is a map or a list of subschemas. */
const ONE_SCHEMA = ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'additionalItems'];
const SCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/** Visit every subschema of a schema (only real subschema positions: not `discriminator`, `enum`, annotations). */
export function forEachSubschema(node: Json, pointer: string, fn: (node: JsonObject, pointer: string) => void): void {
  if (!isPlainObject(node)) return;
  fn(node, pointer);
  for (const k of ONE_SCHEMA) if (k in node) forEachSubschema(node[k] as Json, `${pointer}/${k}`, fn);
  for (const k of SCHEMA_MAP) {
    const m = node[k];
    if (isPlainObject(m)) for (const [name, sub] of Object.entries(m)) forEachSubschema(sub, `${pointer}/${k}/${escapePointer(name)}`, fn);
  }
  for (const k of SCHEMA_LIST) {
    const l = node[k];
    if (Array.isArray(l)) l.forEach((sub, i) => forEachSubschema(sub, `${pointer}/${k}/${i}`, fn));
  }
}

/** Optimal string alignment distance (edits, with adjacent transpositions), capped for speed. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  return (d[a.length] as number[])[b.length] as number;
}

/** The known word closest to `word` (case-insensitive, at most 2 edits, or a different case), if any. */
export function didYouMean(word: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const k of known) {
    const d = k.toLowerCase() === word.toLowerCase() ? 0.5 : editDistance(word.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

/** Every keyword of a schema that strict mode does not know, with a did-you-mean when one is close. */
export function unknownKeywords(schema: Json, known: ReadonlySet<string>): PointedMessage[] {
  const out: PointedMessage[] = [];
  forEachSubschema(schema, '', (node, pointer) => {
    for (const key of Object.keys(node)) {
      if (known.has(key)) continue;
      const guess = didYouMean(key, known);
      out.push({ pointer: `${pointer}/${escapePointer(key)}`, message: `unknown keyword \`${key}\`${guess ? ` (did you mean \`${guess}\`?)` : ''}; strict mode allows only the keywords it knows and the corpus's x- annotations` });
    }
  });
  return out;
}

/** Every `pattern` and `patternProperties` key that is not a valid regular expression (Ajv compiles them with the `u` flag). */
export function invalidPatterns(schema: Json): PointedMessage[] {
  const out: PointedMessage[] = [];
  const check = (source: string, pointer: string, what: string) => {
    try {
      new RegExp(source, 'u');
    } catch (e) {
      const reason = (e as Error).message.replace(/^Invalid regular expression: \/.*\/u?: /, '');
      out.push({ pointer, message: `${what} is ${shown(source)}; expected a valid regular expression (${reason})` });
    }
  };
  forEachSubschema(schema, '', (node, pointer) => {
    if (typeof node['pattern'] === 'string') check(node['pattern'], `${pointer}/pattern`, '`pattern`');
    const pp = node['patternProperties'];
    if (isPlainObject(pp)) for (const key of Object.keys(pp)) check(key, `${pointer}/patternProperties/${escapePointer(key)}`, 'the `patternProperties` key');
  });
  return out;
}

/** The pointer an Ajv strict-mode message mentions (`… at "https://…/x.schema.json#/properties/a"`), or `''`. */
export function pointerInAjvMessage(message: string): string {
  const m = /at "[^"#]*#(\/[^"]*)"/.exec(message);
  return m ? decodeURIComponent(m[1] as string) : '';
}
