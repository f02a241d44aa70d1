/**
 * The runtime module of the validators (`generated/validators/runtime.js`), as source text: shared helpers (deep equality, code-point length,
 * Ajv's uniqueItems scan), the diagnostic path and the `errors` property of the exported validators.
 *
 * The diagnostic path is a small interpreter over the node table the emitter writes (`__S`): it walks the instance in
 * Ajv's keyword order with `allErrors: true` semantics and produces Ajv-compatible error objects (`instancePath`,
 * `schemaPath`, `keyword`, `params`, `message`). It runs only when a caller reads `validateX.errors` after a failure,
 * so the fast path never builds an error object.
 *
 * Each per-schema module holds its own table; `__link` turns the node numbers in it into node objects, so the
 * interpreter follows object references (a node of another module is reached through `x`).
 *
 * Node fields (written by validators.ts): f file name, p pointer, c fast check function (when the node has one:
 * a valid subtree is skipped), x the node of another module's type this node stands for (a function returning it),
 * b boolean schema, av always valid, r $ref target,
 * ro $ref only, t types, tv `type` as written, ut type checked upfront, g [group, keywords][], k keyword values,
 * pr [name, escaped name, node][], pp [pattern, node][] (patternProperties), ap additionalProperties, kn known property names (Set), it items, co contains,
 * no not, if/th/el, pn propertyNames, any/one/all branches, dt/dm discriminator tag and Map, uq uniqueItems types,
 * re pattern RegExp, fm format function.
 */
import { GROUPS, KEYWORDS } from './keywords.ts';

export const HELPERS: Readonly<Record<string, string>> = {
  __eq: `/** Deep equality of JSON values (fast-deep-equal's semantics, which Ajv uses for const, enum and uniqueItems). */
function __eq(a, b) {
  if (a === b) return true;
  if (a && b && typeof a === "object" && typeof b === "object") {
    if (a.constructor !== b.constructor) return false;
    if (Array.isArray(a)) {
      if (a.length !== b.length) return false;
      for (let i = a.length; i-- !== 0;) if (!__eq(a[i], b[i])) return false;
      return true;
    }
    if (a.constructor === RegExp) return a.source === b.source && a.flags === b.flags;
    if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
    if (a.toString !== Object.prototype.toString) return a.toString() === b.toString();
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (let i = keys.length; i-- !== 0;) if (!Object.prototype.hasOwnProperty.call(b, keys[i])) return false;
    for (let i = keys.length; i-- !== 0;) if (!__eq(a[keys[i]], b[keys[i]])) return false;
    return true;
  }
  return a !== a && b !== b;
}`,
  __len: `/** Length in Unicode code points (a surrogate pair counts once), as minLength/maxLength count. */
function __len(s) {
  const n = s.length;
  let length = 0;
  for (let i = 0; i < n; length++) {
    const c = s.charCodeAt(i++);
    if (c >= 0xd800 && c <= 0xdbff && i < n && (s.charCodeAt(i) & 0xfc00) === 0xdc00) i++;
  }
  return length;
}`,
  __dup: `/** First duplicate pair [i, j] (j < i), scanning from the end as Ajv does, or null. \`types\`: item types compared by value. */
function __dup(d, types) {
  let i = d.length;
  if (types !== null) {
    const indices = {};
    while (i--) {
      let item = d[i];
      if (!types.some((t) => __isType(item, t))) continue;
      if (types.length > 1 && typeof item === "string") item += "_";
      if (typeof indices[item] === "number") return [i, indices[item]];
      indices[item] = i;
    }
    return null;
  }
  while (i--) for (let j = i; j--;) if (__eq(d[i], d[j])) return [i, j];
  return null;
}`,
  __isType: `/** Ajv's data type test (numbers must be finite). */
function __isType(d, t) {
  switch (t) {
    case "object": return typeof d === "object" && d !== null && !Array.isArray(d);
    case "array": return Array.isArray(d);
    case "number": return Number.isFinite(d);
    case "integer": return Number.isInteger(d);
    case "null": return d === null;
    default: return typeof d === t;
  }
}`,
};

/** Helpers each helper needs. */
export const HELPER_DEPS: Readonly<Record<string, readonly string[]>> = { __dup: ['__eq', '__isType'], __eq: [], __len: [], __isType: [] };

/**
 * Fields of a node in the table. Every node is built by one constructor with all of them, in this order, so the
 * interpreter's property reads see one object shape. Keyword values (const, enum, limits, …) are fields named after
 * the keyword.
 */
export const NODE_FIELDS = [
  'f', 'p', 'c', 'av', 'b', 'r', 'ro', 't', 'tv', 'ut', 'g', 'pr', 'pp', 'ap', 'kn', 'it', 'co', 'no', 'if', 'th', 'el', 'pn', 'any', 'one', 'all',
  'dt', 'dm', 'uq', 're', 'fm', 'x',
] as const;
/** Node fields holding one subschema, and those holding a list of them: node numbers in the table, node objects once linked. */
const SUBSCHEMA_FIELDS = ['r', 'ap', 'it', 'co', 'no', 'if', 'th', 'el', 'pn'] as const;
const SUBSCHEMA_LIST_FIELDS = ['any', 'one', 'all'] as const;
/** Keyword values the diagnostic path reads (each becomes a node field of its own name). */
export const VALUE_KEYWORDS = [
  'const', 'enum', 'maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'format',
  'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required',
] as const;

/**
 * How each keyword reports, Ajv's error for Ajv's failure. Each body sees n (node), d (instance), ip (its path), out,
 * rf, pn, and reports with E(params, message) for its own keyword (written out as a call of __err).
 */
const KEYWORD_REPORT: Readonly<Record<string, string>> = {
  $ref: 'return __report(n.r, d, ip, out, rf, pn);',
  const: 'if (!__eq(d, n.const)) E({ allowedValue: n.const }, "must be equal to constant"); return;',
  enum: `for (let j = 0; j < n.enum.length; j++) if (__eq(d, n.enum[j])) return;
      return E({ allowedValues: n.enum }, "must be equal to one of the allowed values");`,
  not: 'if (n.no.av || __valid(n.no, d, rf)) E({}, "must NOT be valid"); return;',
  anyOf: `for (const b of n.any) if (b.av) return;
      const n0 = out.length;
      for (const b of n.any) {
        if (__valid(b, d, rf)) { out.length = n0; return; }
        __report(b, d, ip, out, rf, pn);
      }
      return E({}, "must match a schema in anyOf");`,
  oneOf: `if (n.dt !== undefined) return;
      const n0 = out.length;
      let passing = null;
      let count = 0;
      for (let j = 0; j < n.one.length; j++) {
        const b = n.one[j];
        if (!b.av && !__valid(b, d, rf)) { __report(b, d, ip, out, rf, pn); continue; }
        passing = count === 0 ? j : count === 1 ? [passing, j] : passing;
        count++;
      }
      if (count === 1) { out.length = n0; return; }
      return E({ passingSchemas: passing }, "must match exactly one schema in oneOf");`,
  allOf: 'for (const b of n.all) __report(b, d, ip, out, rf, pn); return;',
  if: `const hasThen = n.th !== undefined && !n.th.av;
      const hasElse = n.el !== undefined && !n.el.av;
      if (!hasThen && !hasElse) return;
      const cond = __valid(n.if, d, rf);
      if (cond ? !hasThen : !hasElse) return;
      const clause = cond ? "then" : "else";
      const m = out.length;
      __report(cond ? n.th : n.el, d, ip, out, rf, pn);
      if (out.length !== m) E({ failingKeyword: clause }, 'must match "' + clause + '" schema');
      return;`,
  maximum: 'if (!(d <= n.maximum)) E({ comparison: "<=", limit: n.maximum }, "must be <= " + n.maximum); return;',
  minimum: 'if (!(d >= n.minimum)) E({ comparison: ">=", limit: n.minimum }, "must be >= " + n.minimum); return;',
  exclusiveMaximum: 'if (!(d < n.exclusiveMaximum)) E({ comparison: "<", limit: n.exclusiveMaximum }, "must be < " + n.exclusiveMaximum); return;',
  exclusiveMinimum: 'if (!(d > n.exclusiveMinimum)) E({ comparison: ">", limit: n.exclusiveMinimum }, "must be > " + n.exclusiveMinimum); return;',
  maxLength: 'if (d.length > n.maxLength && __len(d) > n.maxLength) E({ limit: n.maxLength }, "must NOT have more than " + n.maxLength + " characters"); return;',
  minLength: 'if (d.length < 2 * n.minLength && __len(d) < n.minLength) E({ limit: n.minLength }, "must NOT have fewer than " + n.minLength + " characters"); return;',
  pattern: `if (!n.re.test(d)) E({ pattern: n.pattern }, 'must match pattern "' + n.pattern + '"'); return;`,
  format: `if (!n.fm(d)) E({ format: n.format }, 'must match format "' + n.format + '"'); return;`,
  maxItems: 'if (d.length > n.maxItems) E({ limit: n.maxItems }, "must NOT have more than " + n.maxItems + " items"); return;',
  minItems: 'if (d.length < n.minItems) E({ limit: n.minItems }, "must NOT have fewer than " + n.minItems + " items"); return;',
  items: 'if (!n.it.av) for (let j = 0; j < d.length; j++) __report(n.it, d[j], ip + "/" + j, out, rf, pn); return;',
  contains: `if (!n.co.av) {
        const n0 = out.length;
        for (let j = 0; j < d.length; j++) {
          if (__valid(n.co, d[j], rf)) { out.length = n0; return; }
          __report(n.co, d[j], ip + "/" + j, out, rf, pn);
        }
      } else if (d.length >= 1) return;
      return E({ minContains: 1 }, "must contain at least 1 valid item(s)");`,
  uniqueItems: `if (n.uniqueItems !== true || d.length <= 1) return;
      const dup = __dup(d, n.uq);
      if (dup !== null) E({ i: dup[0], j: dup[1] }, "must NOT have duplicate items (items ## " + dup[1] + " and " + dup[0] + " are identical)");
      return;`,
  maxProperties: 'if (Object.keys(d).length > n.maxProperties) E({ limit: n.maxProperties }, "must NOT have more than " + n.maxProperties + " properties"); return;',
  minProperties: 'if (Object.keys(d).length < n.minProperties) E({ limit: n.minProperties }, "must NOT have fewer than " + n.minProperties + " properties"); return;',
  required: `for (const p of n.required) if (d[p] === undefined) E({ missingProperty: p }, "must have required property '" + p + "'");
      return;`,
  propertyNames: `if (n.pn.av) return;
      for (const key in d) {
        const m = out.length;
        __report(n.pn, key, ip, out, rf, key);
        if (out.length !== m) E({ propertyName: key }, "property name must be valid");
      }
      return;`,
  additionalProperties: `const ap = n.ap;
      if (ap.av) return;
      for (const key in d) {
        if (n.kn.has(key) || (n.pp !== undefined && n.pp.some((e) => e[0].test(key)))) continue;
        if (ap.b === false) E({ additionalProperty: key }, "must NOT have additional properties");
        else __report(n.ap, d[key], ip + "/" + __esc(key), out, rf, pn);
      }
      return;`,
  patternProperties: `for (const e of n.pp) {
        if (e[1].av) continue;
        for (const key in d) if (e[0].test(key)) __report(e[1], d[key], ip + "/" + __esc(key), out, rf, pn);
      }
      return;`,
  properties: `const pr = n.pr;
      for (let j = 0; j < pr.length; j++) {
        const s = pr[j][2];
        if (s.av) continue;
        const v = d[pr[j][0]];
        if (v !== undefined) __report(s, v, ip + "/" + pr[j][1], out, rf, pn);
      }
      return;`,
  discriminator: `const tag = d[n.dt];
      if (typeof tag !== "string") return E({ error: "tag", tag: n.dt, tagValue: tag }, 'tag "' + n.dt + '" must be string');
      const b = n.dm.get(tag);
      if (b === undefined) return E({ error: "mapping", tag: n.dt, tagValue: tag }, 'value of tag "' + n.dt + '" must be in oneOf');
      return __report(n.one[b], d, ip, out, rf, pn);`,
};

/** The type test of each group (by its code): whether its keywords apply to d. */
const GROUP_TEST: Readonly<Record<string, string>> = {
  any: 'true',
  number: 'Number.isFinite(d)',
  string: 'typeof d === "string"',
  array: 'Array.isArray(d)',
  object: 'typeof d === "object" && d !== null && !Array.isArray(d)',
};

/** The diagnostic interpreter and the validator state helpers (uses every helper above), for the runtime module. */
export function reportRuntime(): string {
  const missing = KEYWORDS.filter((k) => KEYWORD_REPORT[k] === undefined);
  if (missing.length) throw new Error(`validators: no diagnostic for keyword(s) ${missing.join(', ')}`);
  const cases = KEYWORDS.map((kw, code) => {
    const body = (KEYWORD_REPORT[kw] as string).replace(/\bE\(/g, `__err(out, ip, n, rf, pn, ${JSON.stringify(kw)}, `);
    return `    case ${code}: { // ${kw}\n      ${body}\n    }`;
  });
  const groups = GROUPS.map((g, code) => `    case ${code}: return ${GROUP_TEST[g]}; // ${g}`);
  return `/** A node of the table: every node has the same fields in the same order (one object shape for the interpreter). */
function __Node(o) {
${NODE_FIELDS.map((f) => `  this.${f} = o.${f};`).join('\n')}
  const k = o.k ?? {};
${VALUE_KEYWORDS.map((f) => `  this.${f} = k.${f};`).join('\n')}
}
/**
 * Link one module's table: the node numbers of subschemas, branches and properties become the node objects (a node of
 * another module is reached through its x, resolved only when errors are computed, so modules may import each other).
 */
function __link(S) {
  for (const n of S) {
${SUBSCHEMA_FIELDS.map((f) => `    if (n.${f} !== undefined) n.${f} = S[n.${f}];`).join('\n')}
${SUBSCHEMA_LIST_FIELDS.map((f) => `    if (n.${f} !== undefined) n.${f} = n.${f}.map((i) => S[i]);`).join('\n')}
    if (n.pr !== undefined) n.pr = n.pr.map((e) => [e[0], e[1], S[e[2]]]);
    if (n.pp !== undefined) n.pp = n.pp.map((e) => [e[0], S[e[1]]]);
  }
  return S;
}
/** One Ajv-compatible error object for keyword kw of node n (schema path built only now, on failure). */
function __err(out, ip, n, rf, pn, kw, params, message) {
  const e = { instancePath: ip, schemaPath: __sp(n, rf) + (kw === "false schema" ? "" : "/" + kw), keyword: kw, params, message };
  if (pn !== undefined) e.propertyName = pn;
  out.push(e);
}
/** Schema path of node n as seen from a validator of file rf: "#/pointer" in the same file, "file#/pointer" in another. */
const __sp = (n, rf) => (n.f === rf ? "#" : n.f + "#") + n.p;
/** True when d is valid against node n (the fast check when the node has one). */
function __valid(n, d, rf) {
  if (n.c !== undefined) return n.c(d);
  const out = [];
  __walk(n, d, "", out, rf, undefined);
  return out.length === 0;
}
const __esc = (k) => k.replace(/~/g, "~0").replace(/\\//g, "~1");
function __isAnyType(d, types) {
  for (let j = 0; j < types.length; j++) if (__isType(d, types[j])) return true;
  return false;
}
/** Whether the keywords of group g (by code) apply to d. */
function __inGroup(d, g) {
  switch (g) {
${groups.join('\n')}
  }
}
const __GROUP_TYPES = ${JSON.stringify(GROUPS)};
const __typeError = (n, ip, out, rf, pn) =>
  __err(out, ip, n, rf, pn, "type", { type: n.tv }, "must be " + (Array.isArray(n.tv) ? n.tv.join(",") : n.tv));
/**
 * Every failure of d against node i, appended to out, in Ajv's order with allErrors semantics. ip: instance path of
 * d; rf: file of the validator being run (for schema paths); pn: property name under propertyNames.
 */
function __report(n, d, ip, out, rf, pn) {
  if (n.c !== undefined && n.c(d)) return; // valid (the fast check says so): nothing to report below here
  __walk(n, d, ip, out, rf, pn);
}
/** The failures of d against node n, its own check not consulted (the caller knows it failed). */
function __walk(n, d, ip, out, rf, pn) {
  if (n.x !== undefined) return __walk(n.x(), d, ip, out, rf, pn);
  if (n.b !== undefined) {
    if (!n.b) __err(out, ip, n, rf, pn, "false schema", {}, "boolean schema is false");
    return;
  }
  if (n.ro) return __report(n.r, d, ip, out, rf, pn);
  if (n.ut && !__isAnyType(d, n.t)) __typeError(n, ip, out, rf, pn);
  const groups = n.g;
  for (let j = 0; j < groups.length; j++) {
    const g = groups[j][0];
    if (!__inGroup(d, g)) {
      if (!n.ut && n.t !== undefined && n.t.length === 1 && n.t[0] === __GROUP_TYPES[g]) __typeError(n, ip, out, rf, pn);
      continue;
    }
    const kws = groups[j][1];
    for (let m = 0; m < kws.length; m++) __keyword(n, kws[m], d, ip, out, rf, pn);
  }
}
/** One keyword (by code, in the order of keywords.ts). */
function __keyword(n, kw, d, ip, out, rf, pn) {
  switch (kw) {
${cases.join('\n')}
  }
}
/** No instance is waiting for its errors. */
const __NONE = {};
/** State of one exported validator: the instance of its last failed call (errors not yet computed) and its errors. */
const __state = () => ({ d: __NONE, e: null });
function __ok(s) { s.d = __NONE; s.e = null; return true; }
function __no(s, data) { s.d = data; s.e = null; return false; }
/**
 * The key path of a failure, for Standard Schema issues: the segments of its JSON pointer (~1 and ~0 decoded), an
 * array index as a number (decided by walking the instance: a segment under an array is an index).
 */
function __keys(data, ip) {
  const path = [];
  if (ip === "") return path;
  let at = data;
  for (const raw of ip.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const index = Array.isArray(at) && /^(0|[1-9][0-9]*)$/.test(key);
    path.push(index ? Number(key) : key);
    at = at !== null && typeof at === "object" ? at[key] : undefined;
  }
  return path;
}
/**
 * Finish validator fn (returns it): Ajv's \`errors\` property (null after a success; after a failure, the
 * Ajv-compatible errors of that call, computed on first read, allErrors: every failure in Ajv's order) and the
 * Standard Schema v1 interface (\`~standard\`: version 1, the vendor, validate → { value } or { issues: [{ message,
 * path }] }, path the key array of the failure's instancePath). root: a function returning the validated type's
 * diagnostic node (a module's table is built on first use); rf: its file. Called under a pure annotation: a module
 * whose validator is not used leaves nothing behind in a bundle.
 */
function __validator(fn, s, root, rf, vendor) {
  Object.defineProperty(fn, "errors", {
    get() {
      if (s.d !== __NONE) {
        const out = [];
        __walk(root(), s.d, "", out, rf, undefined);
        s.d = __NONE;
        s.e = out;
      }
      return s.e;
    },
    set(e) { s.d = __NONE; s.e = e; },
    enumerable: true,
  });
  const standard = Object.freeze({
    version: 1,
    vendor,
    validate(value) {
      if (fn(value)) return { value };
      return { issues: fn.errors.map((e) => ({ message: e.message, path: __keys(value, e.instancePath) })) };
    },
  });
  Object.defineProperty(fn, "~standard", { value: standard, enumerable: false });
  return fn;
}`;
}
