/**
 * CTI-1 memoryRef grammar. A ref names exactly one tenant:
 *
 *   mem://<tenant>/<scope>[/<scope>…]
 *
 * - tenant: 1–63 chars of `[a-z0-9]` plus inner `-`/`_`;
 * - each scope segment: 1–128 chars of `[A-Za-z0-9._-]`, never `.` or `..`;
 * - at most 16 segments and 512 bytes in all; nothing else (no NUL, `%`, `\`, whitespace, query, fragment).
 *
 * Anything else is malformed, and a malformed ref resolves to nothing — never to a looser lookup. Parsing is a
 * single anchored pattern with no backtracking hazards.
 */
export const MAX_MEMORY_REF_BYTES = 512;
const TENANT = '[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?';
const SEGMENT = '[A-Za-z0-9._-]{1,128}';
const REF = new RegExp(`^mem://(${TENANT})((?:/${SEGMENT}){1,16})$`);

export interface ParsedMemoryRef {
  readonly ref: string;
  readonly tenant: string;
  /** Scope segments after the tenant. */
  readonly scope: readonly string[];
}

/** Parse a memoryRef; `null` for anything malformed (never throws, whatever the input). */
export function parseMemoryRef(ref: unknown): ParsedMemoryRef | null {
  if (typeof ref !== 'string' || ref.length > MAX_MEMORY_REF_BYTES) return null;
  if (Buffer.byteLength(ref, 'utf8') > MAX_MEMORY_REF_BYTES) return null;
  // Control characters name nothing a client means, and U+0000 cannot be stored: such a ref is malformed.
  if (/[\u0000-\u001f\u007f]/.test(ref)) return null;
  const m = REF.exec(ref);
  if (m === null) return null;
  const scope = m[2]!.slice(1).split('/');
  if (scope.some((s) => s === '.' || s === '..')) return null;
  return { ref, tenant: m[1]!, scope };
}

/** Tenant of a ref, or undefined when malformed. */
export const tenantOf = (ref: string): string | undefined => parseMemoryRef(ref)?.tenant;

/** Build a ref from parts; throws on parts that would not parse back (a programming error, not input). */
export function memoryRef(tenant: string, ...scope: string[]): string {
  const ref = `mem://${tenant}/${scope.join('/')}`;
  if (parseMemoryRef(ref) === null) throw new RangeError(`not a valid memoryRef: ${JSON.stringify(ref)}`);
  return ref;
}
