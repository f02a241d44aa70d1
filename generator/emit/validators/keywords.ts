/**
 * The keyword set the validator emitter supports, as data: which keywords validate, which are annotations, in which
 * group (by instance type) each one runs and in which order. The order is Ajv 8's (draft 2020-12 vocabulary order,
 * `ajv.RULES`), so the diagnostic path reports errors in the order Ajv does; test/corpus/validator-agreement.test.ts
 * checks this table against a live Ajv instance.
 */

/** The instance-type groups keywords belong to; `any` applies whatever the instance is. */
import { ANNOTATION_KEYWORDS } from '../../ajv.ts';
export type Group = 'any' | 'number' | 'string' | 'array' | 'object';

/** Evaluation order: the groups in Ajv's order, each with its keywords in Ajv's order (only the ones we support). */
export const KEYWORD_ORDER: readonly (readonly [Group, readonly string[]])[] = [
  ['any', ['$ref', 'const', 'enum', 'not', 'anyOf', 'oneOf', 'allOf', 'if']],
  ['number', ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum']],
  ['string', ['maxLength', 'minLength', 'pattern', 'format']],
  ['array', ['maxItems', 'minItems', 'items', 'contains', 'uniqueItems']],
  ['object', ['maxProperties', 'minProperties', 'required', 'propertyNames', 'additionalProperties', 'properties', 'patternProperties', 'discriminator']],
];

/** Every validating keyword in evaluation order; its index is its code in the emitted node table. */
export const KEYWORDS: readonly string[] = KEYWORD_ORDER.flatMap(([, kws]) => kws);
/** The groups in evaluation order; the index is the group's code in the emitted node table. */
export const GROUPS: readonly Group[] = KEYWORD_ORDER.map(([g]) => g);

/** Keywords read together with another one (they have no evaluation step of their own). */
export const COMPANION_KEYWORDS: ReadonlySet<string> = new Set(['type', 'then', 'else', '$defs']);

/**
 * Keywords supported with one value only, which makes them validate nothing: `unevaluatedProperties: true` (an object
 * that says it is open; every property counts as evaluated, so nothing is refused). Any other value is refused with the
 * file and pointer (validators/ir.ts), never skipped.
 */
export const NO_OP_VALUES: Readonly<Record<string, true>> = { unevaluatedProperties: true };

/** Keywords that never affect validation (the corpus's own x- annotations are those generator/ajv.ts declares to Ajv). */
export const ANNOTATIONS: ReadonlySet<string> = new Set([
  '$schema', '$id', '$comment', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly',
  ...ANNOTATION_KEYWORDS,
]);

const VALIDATING: ReadonlySet<string> = new Set(KEYWORDS);

/** True when the emitter knows `keyword` (validating, companion or annotation). */
export const isSupportedKeyword = (keyword: string): boolean => VALIDATING.has(keyword) || COMPANION_KEYWORDS.has(keyword) || ANNOTATIONS.has(keyword) || Object.hasOwn(NO_OP_VALUES, keyword);

/** JSON types `type` may name. */
export const JSON_TYPES: ReadonlySet<string> = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/**
 * String formats, each a small local function emitted into the validators module only when the corpus uses it. They
 * accept exactly what ajv-formats' "full" formats accept (checked by the agreement test on generated strings).
 */
export interface FormatDef {
  /** Name of the emitted function. */
  readonly fn: string;
  /** Its source (plain JS, no imports). */
  readonly code: string;
  /** Whether it needs the shared date/time parsers ({@link DATE_TIME_CODE}). */
  readonly dateTime?: true;
}

/** Date and time parsers shared by the date-time, date and time formats (emitted once). */
export const DATE_TIME_CODE = `const __DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function __digit(s, i) { const c = s.charCodeAt(i) - 48; return c >= 0 && c <= 9 ? c : -1; }
function __two(s, i) { const a = __digit(s, i), b = __digit(s, i + 1); return a < 0 || b < 0 ? -1 : a * 10 + b; }
/** RFC 3339 full-date at s[0..10). */
function __date10(s) {
  const y1 = __two(s, 0), y2 = __two(s, 2), m = __two(s, 5), d = __two(s, 8);
  if (y1 < 0 || y2 < 0 || m < 1 || m > 12 || d < 1 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  const y = y1 * 100 + y2;
  return d <= (m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : __DAYS[m]);
}
/** RFC 3339 time from s[i..], offset required when strict (as ajv-formats, leap seconds at 23:59 UTC). */
function __time(s, i, strict) {
  const n = s.length;
  if (n < i + 8 || s.charCodeAt(i + 2) !== 58 || s.charCodeAt(i + 5) !== 58) return false;
  const hr = __two(s, i), min = __two(s, i + 3), sec = __two(s, i + 6);
  if (hr < 0 || min < 0 || sec < 0) return false;
  let k = i + 8;
  if (k < n && s.charCodeAt(k) === 46) {
    // a fraction: the whole-second bounds below (sec < 60, sec < 61) hold for sec.fff exactly when they hold for sec
    const from = ++k;
    while (k < n && __digit(s, k) >= 0) k++;
    if (k === from) return false;
  }
  let tzH = 0, tzM = 0, sign = 1;
  if (k === n) return !strict && __leap(hr, min, sec, 0, 0, 1);
  const c = s.charCodeAt(k);
  if (c === 90 || c === 122) k++;
  else if (c === 43 || c === 45) {
    sign = c === 45 ? -1 : 1;
    tzH = __two(s, k + 1);
    if (tzH < 0) return false;
    k += 3;
    if (k < n) {
      if (s.charCodeAt(k) === 58) k++;
      tzM = __two(s, k);
      if (tzM < 0) return false;
      k += 2;
    }
  } else return false;
  return k === n && tzH <= 23 && tzM <= 59 && __leap(hr, min, sec, tzH, tzM, sign);
}
/** The time's numbers are in range, or it is a leap second (23:59:60 in UTC). */
function __leap(hr, min, sec, tzH, tzM, sign) {
  if (hr <= 23 && min <= 59 && sec < 60) return true;
  const utcMin = min - tzM * sign;
  const utcHr = hr - tzH * sign - (utcMin < 0 ? 1 : 0);
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
}
/** The separators ajv-formats splits a date-time on: t, T or any white space (\\s). */
function __dtSep(c) {
  return c === 84 || c === 116 || c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}`;

/**
 * The `uri` format's regular expression (case-insensitive), assembled from RFC 3986's grammar the way ajv-formats' full
 * mode reads it: a scheme, then an authority after one or two slashes (an optional userinfo, a bracketed IPv6 or
 * IPvFuture literal, a dotted IPv4 address whose parts may have leading zeros, or a registered name; an optional port)
 * followed by slash segments, or an absolute path, or a rootless path; then an optional query and fragment. An empty
 * path after the scheme is refused, as ajv-formats does.
 */
const URI_SOURCE = ((): string => {
  const pct = '%[0-9a-f]{2}';
  const sub = "a-z0-9\\-._~!$&'()*+,;=";
  const pchar = `(?:[${sub}:@]|${pct})`;
  const h16 = '[0-9a-f]{1,4}';
  const octet = '(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)';
  const ipv4 = `(?:${octet}\\.){3}${octet}`;
  const ls32 = `(?:${h16}:${h16}|${ipv4})`;
  const upTo = (n: number): string => (n < 0 ? '' : `(?:(?:${h16}:){0,${n}}${h16})?`);
  // RFC 3986 IPv6address: the nine forms, by how many 16-bit pieces precede and follow the "::".
  const ipv6 = [
    `(?:${h16}:){6}${ls32}`,
    `::(?:${h16}:){5}${ls32}`,
    `(?:${h16})?::(?:${h16}:){4}${ls32}`,
    ...[1, 2, 3].map((n) => `${upTo(n)}::(?:${h16}:){${4 - n}}${ls32}`),
    `${upTo(4)}::${ls32}`,
    `${upTo(5)}::${h16}`,
    `${upTo(6)}::`,
  ].join('|');
  const ipFuture = `[Vv][0-9a-f]+\\.[${sub}:]+`;
  const host = `(?:\\[(?:${ipv6}|${ipFuture})\\]|${ipv4}|(?:[${sub}]|${pct})*)`;
  const authority = `(?:(?:[${sub}:]|${pct})*@)?${host}(?::\\d*)?`;
  const segments = `(?:\\/${pchar}*)*`;
  const hier = `(?:\\/?\\/${authority}${segments}|\\/(?:${pchar}+${segments})?|${pchar}+${segments})`;
  const tail = `(?:[${sub}:@/?]|${pct})*`;
  return `^[a-z][a-z0-9+\\-.]*:${hier}(?:\\?${tail})?(?:#${tail})?$`;
})();

export const FORMATS: Readonly<Record<string, FormatDef>> = {
  'date-time': {
    fn: '__fmtDateTime',
    dateTime: true,
    code: `function __fmtDateTime(s) { return s.length >= 20 && __dtSep(s.charCodeAt(10)) && __date10(s) && __time(s, 11, true); }`,
  },
  date: {
    fn: '__fmtDate',
    dateTime: true,
    code: `function __fmtDate(s) { return s.length === 10 && __date10(s); }`,
  },
  time: {
    fn: '__fmtTime',
    dateTime: true,
    code: `function __fmtTime(s) { return __time(s, 0, true); }`,
  },
  duration: {
    fn: '__fmtDuration',
    code: `const __DURATION = /^P(?!$)((\\d+Y)?(\\d+M)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+S)?)?|(\\d+W)?)$/;
function __fmtDuration(s) { return __DURATION.test(s); }`,
  },
  uuid: {
    fn: '__fmtUuid',
    code: `const __UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
function __fmtUuid(s) { return __UUID.test(s); }`,
  },
  uri: {
    fn: '__fmtUri',
    code: `const __URI = /${URI_SOURCE}/i;\nfunction __fmtUri(s) { return __URI.test(s); }`,
  },
  email: {
    fn: '__fmtEmail',
    code: "const __EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;\nfunction __fmtEmail(s) { return __EMAIL.test(s); }",
  },
};
