/**
 * The runtime part of the validators module, as source text: shared helpers (deep equality, code-point length,
 * Ajv's uniqueItems scan), the diagnostic path and the `errors` property of the exported validators.
 *
 * The diagnostic path is a small interpreter over the node table the emitter writes (`__S`): it walks the instance in
 * Ajv's keyword order with `allErrors: true` semantics and produces Ajv-compatible error objects (`instancePath`,
 * `schemaPath`, `keyword`, `params`, `message`). It runs only when a caller reads `validateX.errors` after a failure,
 * so the fast path never builds an error object.
 *
 * Node fields (written by validators.ts): f file index, p pointer, c fast check function (when the node has one:
 * a valid subtree is skipped), b boolean schema, av always valid, r $ref target,
 * ro $ref only, t types, tv `type` as written, ut type checked upfront, g [group, keywords][], k keyword values,
 * pr [name, escaped name, node][], ap additionalProperties, kn known property names (Set), it items, co contains,
 * no not, if/th/el, pn propertyNames, any/one/all branches, dt/dm discriminator tag and Map, uq uniqueItems types,
 * re pattern RegExp, fm format function.
 */
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

/** The diagnostic interpreter and the validator state helpers (needs every helper above). */
export const REPORT_RUNTIME = `/** One Ajv-compatible error object for keyword kw of node n (schema path built only now, on failure). */
function __err(out, ip, n, rf, kw, params, message, pn) {
  const e = { instancePath: ip, schemaPath: __sp(n, rf) + (kw === "false schema" ? "" : "/" + kw), keyword: kw, params, message };
  if (pn !== undefined) e.propertyName = pn;
  out.push(e);
}
/** Schema path of node n as seen from a validator of file rf: "#/pointer" in the same file, "file#/pointer" in another. */
const __sp = (n, rf) => (n.f === rf ? "#" : __FILES[n.f] + "#") + n.p;
/** True when d is valid against node i (used by not, if: their errors are never reported). */
function __valid(i, d, rf) {
  const n = __S[i];
  if (n.c !== undefined) return n.c(d);
  const out = [];
  __report(i, d, "", out, rf, undefined);
  return out.length === 0;
}
const __esc = (k) => k.replace(/~/g, "~0").replace(/\\//g, "~1");
function __isAnyType(d, types) {
  for (let j = 0; j < types.length; j++) if (__isType(d, types[j])) return true;
  return false;
}
const __typeError = (n, ip, out, rf, pn) =>
  __err(out, ip, n, rf, "type", { type: n.tv }, "must be " + (Array.isArray(n.tv) ? n.tv.join(",") : n.tv), pn);
/**
 * Every failure of d against node i, appended to out, in Ajv's order with allErrors semantics. ip: instance path of
 * d; rf: file of the validator being run (for schema paths); pn: property name under propertyNames.
 */
function __report(i, d, ip, out, rf, pn) {
  const n = __S[i];
  if (n.c !== undefined && n.c(d)) return; // valid (the fast check says so): nothing to report below here
  if (n.b !== undefined) {
    if (!n.b) __err(out, ip, n, rf, "false schema", {}, "boolean schema is false", pn);
    return;
  }
  if (n.ro) return __report(n.r, d, ip, out, rf, pn);
  if (n.ut && !__isAnyType(d, n.t)) __typeError(n, ip, out, rf, pn);
  const groups = n.g;
  for (let j = 0; j < groups.length; j++) {
    const g = groups[j][0];
    if (g !== "any" && !__isType(d, g)) {
      if (!n.ut && n.t !== undefined && n.t.length === 1 && n.t[0] === g) __typeError(n, ip, out, rf, pn);
      continue;
    }
    const kws = groups[j][1];
    for (let m = 0; m < kws.length; m++) __keyword(n, kws[m], d, ip, out, rf, pn);
  }
}
const __CMP = { maximum: "<=", minimum: ">=", exclusiveMaximum: "<", exclusiveMinimum: ">" };
function __keyword(n, kw, d, ip, out, rf, pn) {
  const k = n.k;
  switch (kw) {
    case "$ref": return __report(n.r, d, ip, out, rf, pn);
    case "const": if (!__eq(d, k.const)) __err(out, ip, n, rf, kw, { allowedValue: k.const }, "must be equal to constant", pn); return;
    case "enum": {
      for (let j = 0; j < k.enum.length; j++) if (__eq(d, k.enum[j])) return;
      return __err(out, ip, n, rf, kw, { allowedValues: k.enum }, "must be equal to one of the allowed values", pn);
    }
    case "not": if (__S[n.no].av || __valid(n.no, d, rf)) __err(out, ip, n, rf, kw, {}, "must NOT be valid", pn); return;
    case "anyOf": {
      for (const b of n.any) if (__S[b].av) return;
      const n0 = out.length;
      for (const b of n.any) {
        const m = out.length;
        __report(b, d, ip, out, rf, pn);
        if (out.length === m) { out.length = n0; return; }
      }
      return __err(out, ip, n, rf, kw, {}, "must match a schema in anyOf", pn);
    }
    case "oneOf": {
      if (n.dt !== undefined) return;
      const n0 = out.length;
      let passing = null;
      let count = 0;
      for (let j = 0; j < n.one.length; j++) {
        const b = n.one[j];
        const m = out.length;
        if (!__S[b].av) __report(b, d, ip, out, rf, pn);
        if (out.length !== m) continue;
        passing = count === 0 ? j : count === 1 ? [passing, j] : passing;
        count++;
      }
      if (count === 1) { out.length = n0; return; }
      return __err(out, ip, n, rf, kw, { passingSchemas: passing }, "must match exactly one schema in oneOf", pn);
    }
    case "allOf": for (const b of n.all) __report(b, d, ip, out, rf, pn); return;
    case "if": {
      const hasThen = n.th !== undefined && !__S[n.th].av;
      const hasElse = n.el !== undefined && !__S[n.el].av;
      if (!hasThen && !hasElse) return;
      const cond = __valid(n.if, d, rf);
      if (cond ? !hasThen : !hasElse) return;
      const clause = cond ? "then" : "else";
      const m = out.length;
      __report(cond ? n.th : n.el, d, ip, out, rf, pn);
      if (out.length !== m) __err(out, ip, n, rf, kw, { failingKeyword: clause }, 'must match "' + clause + '" schema', pn);
      return;
    }
    case "maximum": case "minimum": case "exclusiveMaximum": case "exclusiveMinimum": {
      const lim = k[kw];
      const ok = kw === "maximum" ? d <= lim : kw === "minimum" ? d >= lim : kw === "exclusiveMaximum" ? d < lim : d > lim;
      if (!ok) __err(out, ip, n, rf, kw, { comparison: __CMP[kw], limit: lim }, "must be " + __CMP[kw] + " " + lim, pn);
      return;
    }
    case "maxLength": if (__len(d) > k.maxLength) __err(out, ip, n, rf, kw, { limit: k.maxLength }, "must NOT have more than " + k.maxLength + " characters", pn); return;
    case "minLength": if (__len(d) < k.minLength) __err(out, ip, n, rf, kw, { limit: k.minLength }, "must NOT have fewer than " + k.minLength + " characters", pn); return;
    case "pattern": if (!n.re.test(d)) __err(out, ip, n, rf, kw, { pattern: k.pattern }, 'must match pattern "' + k.pattern + '"', pn); return;
    case "format": if (!n.fm(d)) __err(out, ip, n, rf, kw, { format: k.format }, 'must match format "' + k.format + '"', pn); return;
    case "maxItems": if (d.length > k.maxItems) __err(out, ip, n, rf, kw, { limit: k.maxItems }, "must NOT have more than " + k.maxItems + " items", pn); return;
    case "minItems": if (d.length < k.minItems) __err(out, ip, n, rf, kw, { limit: k.minItems }, "must NOT have fewer than " + k.minItems + " items", pn); return;
    case "items":
      if (!__S[n.it].av) for (let j = 0; j < d.length; j++) __report(n.it, d[j], ip + "/" + j, out, rf, pn);
      return;
    case "contains": {
      if (!__S[n.co].av) {
        const n0 = out.length;
        for (let j = 0; j < d.length; j++) {
          const m = out.length;
          __report(n.co, d[j], ip + "/" + j, out, rf, pn);
          if (out.length === m) { out.length = n0; return; }
        }
      } else if (d.length >= 1) return;
      return __err(out, ip, n, rf, kw, { minContains: 1 }, "must contain at least 1 valid item(s)", pn);
    }
    case "uniqueItems": {
      if (k.uniqueItems !== true || d.length <= 1) return;
      const dup = __dup(d, n.uq);
      if (dup !== null) __err(out, ip, n, rf, kw, { i: dup[0], j: dup[1] }, "must NOT have duplicate items (items ## " + dup[1] + " and " + dup[0] + " are identical)", pn);
      return;
    }
    case "maxProperties": if (Object.keys(d).length > k.maxProperties) __err(out, ip, n, rf, kw, { limit: k.maxProperties }, "must NOT have more than " + k.maxProperties + " properties", pn); return;
    case "minProperties": if (Object.keys(d).length < k.minProperties) __err(out, ip, n, rf, kw, { limit: k.minProperties }, "must NOT have fewer than " + k.minProperties + " properties", pn); return;
    case "required":
      for (const p of k.required) if (d[p] === undefined) __err(out, ip, n, rf, kw, { missingProperty: p }, "must have required property '" + p + "'", pn);
      return;
    case "propertyNames":
      if (__S[n.pn].av) return;
      for (const key in d) {
        const m = out.length;
        __report(n.pn, key, ip, out, rf, key);
        if (out.length !== m) __err(out, ip, n, rf, kw, { propertyName: key }, "property name must be valid", pn);
      }
      return;
    case "additionalProperties": {
      const ap = __S[n.ap];
      if (ap.av) return;
      for (const key in d) {
        if (n.kn.has(key)) continue;
        if (ap.b === false) __err(out, ip, n, rf, kw, { additionalProperty: key }, "must NOT have additional properties", pn);
        else __report(n.ap, d[key], ip + "/" + __esc(key), out, rf, pn);
      }
      return;
    }
    case "properties":
      for (const [name, esc, s] of n.pr) {
        if (__S[s].av) continue;
        const v = d[name];
        if (v !== undefined) __report(s, v, ip + "/" + esc, out, rf, pn);
      }
      return;
    case "discriminator": {
      const tag = d[n.dt];
      if (typeof tag !== "string") return __err(out, ip, n, rf, kw, { error: "tag", tag: n.dt, tagValue: tag }, 'tag "' + n.dt + '" must be string', pn);
      const b = n.dm.get(tag);
      if (b === undefined) return __err(out, ip, n, rf, kw, { error: "mapping", tag: n.dt, tagValue: tag }, 'value of tag "' + n.dt + '" must be in oneOf', pn);
      return __report(n.one[b], d, ip, out, rf, pn);
    }
  }
}
/** No instance is waiting for its errors. */
const __NONE = {};
/** State of one exported validator: the instance of its last failed call (errors not yet computed) and its errors. */
const __state = () => ({ d: __NONE, e: null });
function __ok(s) { s.d = __NONE; s.e = null; return true; }
function __no(s, data) { s.d = data; s.e = null; return false; }
/**
 * Give validator fn Ajv's \`errors\` property: null after a success; after a failure, the Ajv-compatible errors of that
 * call, computed on first read (allErrors: every failure, in Ajv's order).
 */
function __errorsOf(fn, s, node, rf) {
  Object.defineProperty(fn, "errors", {
    get() {
      if (s.d !== __NONE) {
        const out = [];
        __report(node, s.d, "", out, rf, undefined);
        s.d = __NONE;
        s.e = out;
      }
      return s.e;
    },
    set(e) { s.d = __NONE; s.e = e; },
    enumerable: true,
  });
  return fn;
}`;
