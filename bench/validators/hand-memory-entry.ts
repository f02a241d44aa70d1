/**
 * A hand-written check of one type (MemoryEntry, schemas/openwop/v1/memory-entry.schema.json), as a careful person
 * would write it for speed: the bound a generated validator is measured against. Same acceptance as the schema
 * (open object; id 1..512 code points; content a string; tags strings of 1..512; createdAt / expiresAt RFC 3339
 * date-times); the benchmark asserts it agrees with the generated validator on every MemoryEntry example.
 */
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++, n++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

/** Two decimal digits at s[i], or -1. */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** RFC 3339 date-time, scanned by character codes (leap seconds only as 23:59:60 UTC-equivalent). */
function dateTime(s: string): boolean {
  const n = s.length;
  if (n < 20 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  const sep = s.charCodeAt(10);
  if (sep !== 84 && sep !== 116 && sep !== 32) return false;
  const y = two(s, 0) * 100 + two(s, 2);
  const mo = two(s, 5);
  const d = two(s, 8);
  const h = two(s, 11);
  const mi = two(s, 14);
  const sec = two(s, 17);
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > (mo === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : (DAYS[mo] as number))) return false;
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60) return false;
  let i = 19;
  if (s.charCodeAt(i) === 46) {
    const from = ++i;
    while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    if (i === from) return false;
  }
  const z = s.charCodeAt(i);
  if (z === 90 || z === 122) return i + 1 === n && (sec < 60 || (h === 23 && mi === 59));
  if (z !== 43 && z !== 45) return false;
  const oh = two(s, i + 1);
  const om = s.charCodeAt(i + 3) === 58 ? two(s, i + 4) : two(s, i + 3);
  const end = s.charCodeAt(i + 3) === 58 ? i + 6 : i + 5;
  return oh >= 0 && oh <= 23 && om >= 0 && om <= 59 && end === n && sec < 60;
}

const str = (v: unknown, min: number, max: number): boolean =>
  typeof v === 'string' && v.length >= min && (v.length <= max || codePoints(v) <= max) && (v.length >= 2 * min - 1 || codePoints(v) >= min);

export function handMemoryEntry(d: unknown): boolean {
  if (typeof d !== 'object' || d === null || Array.isArray(d)) return false;
  const e = d as Record<string, unknown>;
  if (!str(e['id'], 1, 512)) return false;
  if (typeof e['content'] !== 'string') return false;
  const tags = e['tags'];
  if (!Array.isArray(tags)) return false;
  for (let i = 0; i < tags.length; i++) if (!str(tags[i], 1, 512)) return false;
  const createdAt = e['createdAt'];
  if (typeof createdAt !== 'string' || !dateTime(createdAt)) return false;
  const expiresAt = e['expiresAt'];
  if (expiresAt !== undefined && (typeof expiresAt !== 'string' || !dateTime(expiresAt))) return false;
  return true;
}
