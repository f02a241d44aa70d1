/**
 * The structural difference between two corpora: files matched by path (a file that moved keeps its root title, so it
 * is matched as renamed), then every schema node compared with its counterpart keyword by keyword, recursing into
 * subschemas (`properties`, `$defs`, `items`, composition members matched by `$ref`, title or discriminator value).
 * Each difference is a {@link RawChange} with its kind and effect (changes.ts). A `$ref` to the same titled type is
 * not followed: the type is compared where it is defined. Pure: two resolved corpora in, changes out.
 */
import type { Json, JsonObject, SchemaFile } from '../model.ts';
import { isObject, type Resolved } from '../resolve.ts';
import { escapePointer } from '../errors.ts';
import { byCodeUnits } from '../order.ts';
import { CHANGE_KINDS, type ChangeKind, type Effect, type RawChange } from './changes.ts';

/** JSON text with object keys sorted: equal values give equal text. */
export function canonical(v: Json | undefined): string {
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v)) return `{${Object.keys(v).sort(byCodeUnits).map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}
const same = (a: Json | undefined, b: Json | undefined): boolean => canonical(a) === canonical(b);
/** The nearest property or definition a pointer is inside (`/properties/id/maxLength` → `id`), for naming a change. */
export function nameIn(pointer: string): string | undefined {
  const segs = pointer.split('/');
  for (let i = segs.length - 1; i > 0; i--)
    if (['properties', '$defs', 'patternProperties'].includes(segs[i - 1] as string) && !['properties', '$defs', 'patternProperties'].includes(segs[i - 2] as string))
      return (segs[i] as string).replace(/~1/g, '/').replace(/~0/g, '~');
  return undefined;
}
const short = (v: Json | undefined): string => {
  const t = v === undefined ? 'nothing' : JSON.stringify(v);
  return t.length > 40 ? `${t.slice(0, 37)}...` : t;
};

/** Keywords that never change which instances are valid. */
const ANNOTATIONS = new Set(['title', 'description', '$comment', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', 'x-source', 'x-runtime-rules', 'x-direction', 'discriminator', 'contentMediaType', 'contentEncoding']);
/** Lower bounds: a larger value (or a new one) tightens. */
const LOWER = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains']);
/** Upper bounds: a smaller value (or a new one) tightens. */
const UPPER = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains']);
/** Keywords holding one subschema that is compared member by member. */
const SUBSCHEMA = ['items', 'contains', 'propertyNames', 'additionalItems', 'unevaluatedItems'];
const COMPOSITION = ['anyOf', 'oneOf', 'allOf'];
/** Keywords this module handles itself (the rest are compared as opaque assertions). */
const HANDLED = new Set([
  ...ANNOTATIONS, ...LOWER, ...UPPER, ...SUBSCHEMA, ...COMPOSITION,
  '$ref', '$id', 'type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'unevaluatedProperties', 'pattern', 'format',
  'multipleOf', 'uniqueItems', 'prefixItems', '$defs', 'x-type-index',
]);

type Openness = 'open' | 'closed' | 'schema';
/** Whether an object accepts a property it does not name: open, closed, or only under a schema. */
function openness(n: JsonObject): Openness {
  const kinds = [n['additionalProperties'], n['unevaluatedProperties']];
  if (kinds.some((k) => k === false)) return 'closed';
  if ('patternProperties' in n || kinds.some((k) => isObject(k) && Object.keys(k).length > 0)) return 'schema';
  return 'open';
}
const ADDED_BY_OPENNESS: Record<Openness, Effect> = { open: 'extend', closed: 'loosen', schema: 'both' };
const REMOVED_BY_OPENNESS: Record<Openness, Effect> = { open: 'loosen', closed: 'tighten', schema: 'both' };

// ── Where loosening is not loosening ──────────────────────────────────────────────────────────────────────────────
// Under `not` a loosened subschema tightens the whole; under `if`/`then`/`else` either can happen; and a member of a
// `oneOf` whose members are not kept apart by a required `const` discriminator can, when loosened, start to overlap
// another member, so instances that matched exactly one now match two and fail. A change in such a place (or in a
// definition referenced from one) has both effects.

const MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const CONDITIONAL = new Set(['not', 'if', 'then', 'else']);

/** The node a member of a composition stands for: itself, or what its `$ref` points at. */
function memberNode(r: Resolved, file: SchemaFile, m: Json | undefined): JsonObject | undefined {
  if (!isObject(m)) return undefined;
  const t = typeof m['$ref'] === 'string' ? r.tryResolve(file, m['$ref']) : undefined;
  return t ? (isObject(t.node) ? t.node : undefined) : m;
}

/** Whether a `oneOf`'s members exclude each other: each requires one property with a `const`, and the consts differ. */
function discriminated(r: Resolved, file: SchemaFile, members: readonly Json[]): boolean {
  const nodes = members.map((m) => memberNode(r, file, m));
  const first = nodes[0];
  if (!first || !isObject(first['properties'])) return false;
  return Object.keys(first['properties']).some((p) => {
    const values = nodes.map((n) => {
      const prop = n && isObject(n['properties']) ? n['properties'][p] : undefined;
      return n && isObject(prop) && 'const' in prop && Array.isArray(n['required']) && n['required'].includes(p) ? canonical(prop['const']) : undefined;
    });
    return values.every((v) => v !== undefined) && new Set(values).size === values.length;
  });
}

/** Whether a place in a file lies under `not`/`if`/`then`/`else` or in a member of a `oneOf` that is not discriminated. */
function conditionalAt(r: Resolved, file: SchemaFile, pointer: string): boolean {
  const segs = pointer.split('/').slice(1);
  let node: Json | undefined = file.schema;
  for (let i = 0; i < segs.length; ) {
    const kw = segs[i] as string;
    if (CONDITIONAL.has(kw)) return true;
    if (kw === 'oneOf' && isObject(node) && Array.isArray(node['oneOf']) && !discriminated(r, file, node['oneOf'])) return i + 1 < segs.length;
    const step = MAP_KEYWORDS.has(kw) || LIST_KEYWORDS.has(kw) ? 2 : 1;
    for (let k = 0; k < step && i < segs.length; k++, i++) {
      const seg = (segs[i] as string).replace(/~1/g, '/').replace(/~0/g, '~');
      node = Array.isArray(node) ? node[Number(seg)] : isObject(node) ? node[seg] : undefined;
    }
  }
  return false;
}

/** Entries (`path#pointer`) referenced from a conditional place, and everything they reference in turn. */
function conditionalEntries(r: Resolved): Set<string> {
  const out = new Set<string>();
  for (const site of r.refSites) {
    if (!conditionalAt(r, site.file, site.pointer)) continue;
    const t = r.tryResolve(site.file, site.ref);
    const owner = t ? r.ownerOf(t.file, t.pointer) : undefined;
    if (owner) out.add(`${owner.file.path}#${owner.pointer}`);
  }
  const graph = r.referenceGraph();
  for (let grew = true; grew; ) {
    grew = false;
    for (const [from, targets] of graph)
      if (out.has(`${from.file.path}#${from.pointer}`))
        for (const to of targets) {
          const key = `${to.file.path}#${to.pointer}`;
          if (!out.has(key)) grew = Boolean(out.add(key));
        }
  }
  return out;
}

/** What one comparison needs: both corpora, the files being compared, and where changes go. */
interface Ctx {
  readonly base: Resolved;
  readonly cur: Resolved;
  readonly baseFile: SchemaFile;
  readonly curFile: SchemaFile;
  readonly out: RawChange[];
  /** Whether a pointer of the compared files lies where a one-way change can go both ways (see above). */
  readonly conditional?: (pointer: string) => boolean;
}

function push(ctx: Ctx, pointer: string, kind: ChangeKind, detail: string, subject?: string, effect?: Effect): void {
  const spec = CHANGE_KINDS[kind];
  let e = effect ?? (spec.effect === 'by-openness' ? 'both' : spec.effect);
  if ((e === 'loosen' || e === 'tighten' || e === 'extend') && ctx.conditional?.(pointer)) e = 'both';
  ctx.out.push({ file: ctx.curFile.path, pointer, kind, effect: e, detail, ...(subject !== undefined ? { subject } : {}) });
}

/** A composition member's identity across versions: its `$ref`, title or const discriminator, else its position. */
function memberKey(m: Json, i: number): string {
  if (!isObject(m)) return `#${i}`;
  if (typeof m['$ref'] === 'string') return `ref:${m['$ref']}`;
  if (typeof m['title'] === 'string') return `title:${m['title']}`;
  const props = m['properties'];
  if (isObject(props))
    for (const [name, p] of Object.entries(props)) if (isObject(p) && 'const' in p) return `const:${name}=${canonical(p['const'])}`;
  return `#${i}`;
}

const typeSet = (n: JsonObject): Set<string> | undefined => {
  const t = n['type'];
  return t === undefined ? undefined : new Set((Array.isArray(t) ? t : [t]).map(String));
};
/** Whether type set `a` admits type `t` (`number` admits `integer`). */
const admits = (a: Set<string>, t: string): boolean => a.has(t) || (t === 'integer' && a.has('number'));

function diffTypes(ctx: Ctx, b: JsonObject, c: JsonObject, ptr: string): void {
  const tb = typeSet(b);
  const tc = typeSet(c);
  if (same(b['type'], c['type'])) return;
  const at = `${ptr}/type`;
  const show = (t: Set<string> | undefined) => (t ? [...t].join('|') : 'any');
  const detail = `type ${show(tb)} → ${show(tc)}`;
  if (!tb) return push(ctx, at, 'type-narrowed', detail, nameIn(ptr));
  if (!tc) return push(ctx, at, 'type-widened', detail, nameIn(ptr));
  const narrowed = [...tc].every((t) => admits(tb, t));
  const widened = [...tb].every((t) => admits(tc, t));
  if (narrowed && widened) return;
  push(ctx, at, narrowed ? 'type-narrowed' : widened ? 'type-widened' : 'type-changed', detail, nameIn(ptr));
}

function diffValues(ctx: Ctx, b: JsonObject, c: JsonObject, ptr: string): void {
  const bEnum = Array.isArray(b['enum']);
  const cEnum = Array.isArray(c['enum']);
  const bConst = 'const' in b;
  const cConst = 'const' in c;
  if (!bEnum && !cEnum) {
    if (bConst && cConst && !same(b['const'], c['const'])) push(ctx, `${ptr}/const`, 'const-changed', `const ${short(b['const'])} → ${short(c['const'])}`, String(c['const']));
    else if (!bConst && cConst) push(ctx, `${ptr}/const`, 'const-added', `const ${short(c['const'])} added`, String(c['const']));
    else if (bConst && !cConst) push(ctx, `${ptr}/const`, 'const-removed', `const ${short(b['const'])} removed`, String(b['const']));
    return;
  }
  const valuesOf = (n: JsonObject, isEnum: boolean, isConst: boolean): Json[] | undefined =>
    isEnum ? (n['enum'] as Json[]) : isConst ? [n['const'] as Json] : undefined;
  const vb = valuesOf(b, bEnum, bConst);
  const vc = valuesOf(c, cEnum, cConst);
  const at = `${ptr}/${cEnum || !cConst ? 'enum' : 'const'}`;
  if (!vb) return push(ctx, at, 'keyword-added', `enum added: ${short(vc as Json[])}`, nameIn(ptr));
  if (!vc) return push(ctx, at, 'keyword-removed', `enum removed: ${short(vb)}`, nameIn(ptr));
  const kb = new Set(vb.map(canonical));
  const kc = new Set(vc.map(canonical));
  for (const v of vc) if (!kb.has(canonical(v))) push(ctx, at, 'enum-value-added', `enum value ${short(v)} added`, typeof v === 'string' ? v : canonical(v));
  for (const v of vb) if (!kc.has(canonical(v))) push(ctx, at, 'enum-value-removed', `enum value ${short(v)} removed`, typeof v === 'string' ? v : canonical(v));
}

function diffObject(ctx: Ctx, b: JsonObject, c: JsonObject, ptr: string): void {
  const pb = isObject(b['properties']) ? b['properties'] : {};
  const pc = isObject(c['properties']) ? c['properties'] : {};
  for (const name of new Set([...Object.keys(pb), ...Object.keys(pc)])) {
    const at = `${ptr}/properties/${escapePointer(name)}`;
    if (name in pb && name in pc) diffNode(ctx, pb[name], pc[name], at);
    else if (name in pc) push(ctx, at, 'property-added', `property "${name}" added`, name, ADDED_BY_OPENNESS[openness(b)]);
    else push(ctx, at, 'property-removed', `property "${name}" removed`, name, REMOVED_BY_OPENNESS[openness(c)]);
  }
  const rb = new Set(Array.isArray(b['required']) ? b['required'].map(String) : []);
  const rc = new Set(Array.isArray(c['required']) ? c['required'].map(String) : []);
  for (const name of rc) if (!rb.has(name)) push(ctx, `${ptr}/required`, 'required-added', `"${name}" became required`, name);
  for (const name of rb) if (!rc.has(name)) push(ctx, `${ptr}/required`, 'required-removed', `"${name}" is no longer required`, name);
  for (const kw of ['additionalProperties', 'unevaluatedProperties']) {
    const ob = b[kw];
    const oc = c[kw];
    if (same(ob, oc)) continue;
    const state = (v: Json | undefined): Openness => (v === undefined || v === true || (isObject(v) && !Object.keys(v).length) ? 'open' : v === false ? 'closed' : 'schema');
    const [sb, sc] = [state(ob), state(oc)];
    const at = `${ptr}/${kw}`;
    if (sb === 'schema' && sc === 'schema') diffNode(ctx, ob, oc, at);
    else if (sb === sc) continue;
    else if (sb === 'open' || sc === 'closed') push(ctx, at, 'object-closed', `${kw} ${short(ob)} → ${short(oc)}`, nameIn(ptr));
    else push(ctx, at, 'object-opened', `${kw} ${short(ob)} → ${short(oc)}`, nameIn(ptr));
  }
}

function diffBounds(ctx: Ctx, b: JsonObject, c: JsonObject, ptr: string): void {
  for (const kw of [...LOWER, ...UPPER, 'multipleOf', 'uniqueItems']) {
    const vb = b[kw];
    const vc = c[kw];
    if (same(vb, vc)) continue;
    const at = `${ptr}/${kw}`;
    const detail = `${kw} ${short(vb)} → ${short(vc)}`;
    let tighter: boolean | undefined;
    if (vb === undefined || vb === false) tighter = true;
    else if (vc === undefined || vc === false) tighter = false;
    else if (typeof vb === 'number' && typeof vc === 'number') {
      if (LOWER.has(kw)) tighter = vc > vb;
      else if (UPPER.has(kw)) tighter = vc < vb;
      else tighter = vc % vb === 0 ? true : vb % vc === 0 ? false : undefined;
    }
    if (tighter === undefined) push(ctx, at, 'keyword-changed', detail, nameIn(ptr));
    else push(ctx, at, tighter ? 'bound-tightened' : 'bound-loosened', detail, nameIn(ptr));
  }
  for (const kw of ['pattern', 'format']) {
    const vb = b[kw];
    const vc = c[kw];
    if (same(vb, vc)) continue;
    const at = `${ptr}/${kw}`;
    const detail = `${kw} ${short(vb)} → ${short(vc)}`;
    push(ctx, at, vb === undefined ? 'pattern-added' : vc === undefined ? 'pattern-removed' : 'pattern-changed', detail, nameIn(ptr));
  }
}

/** The title of the root or `$defs` entry a `$ref` in `file` points at, if it names one. */
function refTitle(r: Resolved, file: SchemaFile, ref: string): string {
  const t = r.tryResolve(file, ref);
  return t ? (r.entryAt(t.file, t.pointer)?.title ?? '') : '';
}

function diffComposition(ctx: Ctx, b: JsonObject, c: JsonObject, ptr: string): void {
  for (const kw of COMPOSITION) {
    const lb = b[kw];
    const lc = c[kw];
    if (same(lb, lc)) continue;
    const at = `${ptr}/${kw}`;
    if (!Array.isArray(lb) || !Array.isArray(lc)) {
      push(ctx, at, lb === undefined ? 'keyword-added' : lc === undefined ? 'keyword-removed' : 'keyword-changed', `${kw} ${lb === undefined ? 'added' : lc === undefined ? 'removed' : 'changed'}`, nameIn(ptr));
      continue;
    }
    const keysB = new Map(lb.map((m, i) => [memberKey(m, i), m] as const));
    const keysC = lc.map((m, i) => memberKey(m, i));
    lc.forEach((m, i) => {
      const key = keysC[i] as string;
      if (keysB.has(key)) diffNode(ctx, keysB.get(key), m, `${at}/${i}`);
      else push(ctx, `${at}/${i}`, 'branch-added', `${kw} member ${key.replace(/^(ref|title|const):/, '')} added`, key.replace(/^(ref|title|const):/, ''), kw === 'allOf' ? 'tighten' : 'loosen');
    });
    for (const [key] of keysB)
      if (!keysC.includes(key)) push(ctx, at, 'branch-removed', `${kw} member ${key.replace(/^(ref|title|const):/, '')} removed`, key.replace(/^(ref|title|const):/, ''), kw === 'allOf' ? 'loosen' : 'tighten');
  }
}

function diffMaps(ctx: Ctx, b: JsonObject, c: JsonObject, ptr: string): void {
  const db = isObject(b['$defs']) ? b['$defs'] : {};
  const dc = isObject(c['$defs']) ? c['$defs'] : {};
  for (const name of new Set([...Object.keys(db), ...Object.keys(dc)])) {
    const at = `${ptr}/$defs/${escapePointer(name)}`;
    if (name in db && name in dc) diffNode(ctx, db[name], dc[name], at);
    else if (name in dc) push(ctx, at, 'definition-added', `definition ${name} added`, name);
    else push(ctx, at, 'definition-removed', `definition ${name} removed`, name);
  }
  const ib = isObject(b['x-type-index']) ? b['x-type-index'] : {};
  const ic = isObject(c['x-type-index']) ? c['x-type-index'] : {};
  for (const key of new Set([...Object.keys(ib), ...Object.keys(ic)])) {
    const at = `${ptr}/x-type-index/${escapePointer(key)}`;
    if (!(key in ib)) push(ctx, at, 'type-index-added', `type index entry "${key}" added`, key);
    else if (!(key in ic)) push(ctx, at, 'type-index-removed', `type index entry "${key}" removed`, key);
    else if (!same(ib[key], ic[key])) push(ctx, at, 'type-index-removed', `type index entry "${key}" now points at ${short(ic[key])}`, key);
  }
}

/** Compare one schema node with its counterpart; record every difference under `ptr` (a pointer in the current file). */
function diffNode(ctx: Ctx, b: Json | undefined, c: Json | undefined, ptr: string): void {
  if (same(b, c)) return;
  if (!isObject(b) || !isObject(c)) return push(ctx, ptr, 'keyword-changed', `schema ${short(b)} → ${short(c)}`, nameIn(ptr));
  const rb = b['$ref'];
  const rc = c['$ref'];
  if (rb !== rc) {
    const tb = typeof rb === 'string' ? refTitle(ctx.base, ctx.baseFile, rb) : '';
    const tc = typeof rc === 'string' ? refTitle(ctx.cur, ctx.curFile, rc) : '';
    if (!tb || tb !== tc) push(ctx, `${ptr}/$ref`, 'ref-changed', `$ref ${short(rb)} → ${short(rc)}`, nameIn(ptr) ?? (tc || tb || undefined));
  }
  diffTypes(ctx, b, c, ptr);
  diffValues(ctx, b, c, ptr);
  if ('properties' in b || 'properties' in c || 'required' in b || 'required' in c || 'additionalProperties' in b || 'additionalProperties' in c || 'unevaluatedProperties' in b || 'unevaluatedProperties' in c)
    diffObject(ctx, b, c, ptr);
  diffBounds(ctx, b, c, ptr);
  diffComposition(ctx, b, c, ptr);
  diffMaps(ctx, b, c, ptr);
  for (const kw of SUBSCHEMA) {
    if (same(b[kw], c[kw])) continue;
    if (kw in b && kw in c) diffNode(ctx, b[kw], c[kw], `${ptr}/${kw}`);
    else push(ctx, `${ptr}/${kw}`, kw in c ? 'keyword-added' : 'keyword-removed', `${kw} ${kw in c ? 'added' : 'removed'}`, nameIn(ptr));
  }
  const prefixB = Array.isArray(b['prefixItems']) ? b['prefixItems'] : [];
  const prefixC = Array.isArray(c['prefixItems']) ? c['prefixItems'] : [];
  for (let i = 0; i < Math.max(prefixB.length, prefixC.length); i++) {
    const at = `${ptr}/prefixItems/${i}`;
    if (i < prefixB.length && i < prefixC.length) diffNode(ctx, prefixB[i], prefixC[i], at);
    else push(ctx, at, i < prefixC.length ? 'keyword-added' : 'keyword-removed', `prefixItems[${i}] ${i < prefixC.length ? 'added' : 'removed'}`, nameIn(ptr));
  }
  for (const kw of ANNOTATIONS)
    if (!same(b[kw], c[kw])) push(ctx, `${ptr}/${kw}`, 'annotation-changed', kw === 'title' ? `title ${short(b[kw])} → ${short(c[kw])} (renames the generated type)` : kw === 'x-direction' ? `x-direction ${short(b[kw])} → ${short(c[kw])}` : `${kw} ${b[kw] === undefined ? 'added' : c[kw] === undefined ? 'removed' : 'changed'}`, nameIn(ptr));
  for (const kw of new Set([...Object.keys(b), ...Object.keys(c)])) {
    if (HANDLED.has(kw) || same(b[kw], c[kw])) continue;
    push(ctx, `${ptr}/${escapePointer(kw)}`, kw in b ? (kw in c ? 'keyword-changed' : 'keyword-removed') : 'keyword-added', `${kw} ${kw in b ? (kw in c ? 'changed' : 'removed') : 'added'}`, nameIn(ptr));
  }
}

/** Every change between the baseline corpus and the current one. */
export function diffCorpora(base: Resolved, cur: Resolved): RawChange[] {
  const out: RawChange[] = [];
  const baseByPath = new Map(base.corpus.schemas.map((f) => [f.path, f]));
  const curByPath = new Map(cur.corpus.schemas.map((f) => [f.path, f]));
  const title = (f: SchemaFile) => (typeof f.schema['title'] === 'string' ? f.schema['title'] : '');
  const removed = base.corpus.schemas.filter((f) => !curByPath.has(f.path));
  const pairs: [SchemaFile, SchemaFile][] = [];
  for (const c of cur.corpus.schemas) {
    const b = baseByPath.get(c.path);
    if (b) {
      pairs.push([b, c]);
      continue;
    }
    const moved = removed.find((r) => title(r) !== '' && title(r) === title(c));
    const ctx: Ctx = { base, cur, baseFile: moved ?? c, curFile: c, out };
    if (!moved) {
      push(ctx, '', 'file-added', `schema file ${c.fileName} added`, title(c) || c.stem);
      continue;
    }
    removed.splice(removed.indexOf(moved), 1);
    out.push({ file: c.path, pointer: '', kind: 'file-renamed', effect: 'both', detail: `schema file ${moved.path} renamed to ${c.path} ($id ${moved.id} → ${c.id})`, subject: title(c), previousFile: moved.path });
    pairs.push([moved, c]);
  }
  for (const b of removed) push({ base, cur, baseFile: b, curFile: b, out }, '', 'file-removed', `schema file ${b.fileName} removed`, title(b) || b.stem);
  const condBase = conditionalEntries(base);
  const condCur = conditionalEntries(cur);
  const entryOf = (pointer: string) => /^\/\$defs\/[^/]+/.exec(pointer)?.[0] ?? '';
  for (const [b, c] of pairs) {
    const conditional = (pointer: string): boolean =>
      condBase.has(`${b.path}#${entryOf(pointer)}`) || condCur.has(`${c.path}#${entryOf(pointer)}`) || conditionalAt(base, b, pointer) || conditionalAt(cur, c, pointer);
    const ctx: Ctx = { base, cur, baseFile: b, curFile: c, out, conditional };
    if (b.path === c.path && b.id !== c.id) push(ctx, '/$id', 'id-changed', `$id ${b.id} → ${c.id}`, title(c));
    diffNode(ctx, b.schema, c.schema, '');
  }
  return out;
}
