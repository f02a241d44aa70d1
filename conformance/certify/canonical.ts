/**
 * The byte forms a bundle v3 is digested and signed over (upstream OpenWOP spec/v2/core/conformance.md, "Canonical
 * JSON"; RFC 0168 §E, RFC 0212 §C): JSON with the keys of every object sorted by UTF-16 code units and no whitespace,
 * and SHA-256 over its UTF-8 bytes in lowercase hex. Pure.
 */
import { createHash } from 'node:crypto';

/** Code-unit order: what `Array.prototype.sort()` does on strings, and what a locale collation would break. */
export const codeUnitCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The canonical JSON text of a JSON value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Readonly<Record<string, unknown>>;
    return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort(codeUnitCompare).map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Lowercase hex SHA-256 of a string's UTF-8 bytes. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** base64url without padding: the form `signingKeys[].publicKey` and `signature.sig` use. */
export const toBase64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
export const fromBase64url = (text: string): Buffer => Buffer.from(text, 'base64url');
