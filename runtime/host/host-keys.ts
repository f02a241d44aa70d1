/**
 * The keys a host is configured with besides its API keys (docs/security.md "Secret registry keys"), from the
 * credentials file or the environment — one source per key, never the store:
 *
 * - secret keys — the ring SR-1 secret registries are sealed with at rest: the file's `"secretKeys": [{"id": "k2",
 *   "key": "<base64 of 32 bytes>"}, …]` or `WOPKIT_SECRET_KEYS=id:base64,id:base64…`; the first seals new
 *   registries, every one opens old ones (rotation). Without it a host makes up a key for its own lifetime: its
 *   registries cannot be opened after a restart, and the runs they belong to refuse memory writes rather than store
 *   a secret in the clear.
 * - the cursor key — what list cursors are signed with: the file's `"cursorKey": "<base64>"` (or an array of them) or
 *   `WOPKIT_CURSOR_KEY` (comma-separated), each at least 16 bytes, so a cursor survives a restart and works on every
 *   host of a fleet; with several, the first signs and every one verifies (rotation). Without it, a random key.
 *
 * Production mode requires the secret keys. On PostgreSQL, where several hosts share one database, a host requires
 * both (each host making up its own would make every other host's registries and cursors unreadable).
 */
import { SecretKeyError, SecretKeyRing } from '../redaction/sealing.ts';

export interface HostKeys {
  readonly secretKeys?: SecretKeyRing;
  /** The cursor key ring: the first signs, every one verifies (a rotation adds the new key first). */
  readonly cursorKey?: readonly Buffer[];
}

export interface HostKeySources {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The credentials file's text and path, when one is given. */
  readonly file?: { readonly text: string; readonly path: string };
  readonly production: boolean;
  /** The store the host runs on: PostgreSQL requires both keys. */
  readonly store: string;
}

const MIN_CURSOR_KEY_BYTES = 16;

/** One cursor key or a ring: a base64 string, several comma-separated (env), or an array of them (file). */
function cursorKeysOf(value: unknown, source: string): readonly Buffer[] {
  const texts = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',').map((t) => t.trim()) : [value];
  if (texts.length === 0) throw new SecretKeyError(`${source} must name at least one key`);
  return texts.map((text, i) => {
    const where = texts.length > 1 ? `${source} key ${i + 1}` : source;
    if (typeof text !== 'string' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) throw new SecretKeyError(`${where} must be a base64 string`);
    const key = Buffer.from(text, 'base64');
    if (key.length < MIN_CURSOR_KEY_BYTES) throw new SecretKeyError(`${where} must be base64 of at least ${MIN_CURSOR_KEY_BYTES} bytes, got ${key.length}`);
    return key;
  });
}

function ringOfFile(value: unknown, source: string): SecretKeyRing {
  if (!Array.isArray(value) || value.length === 0) throw new SecretKeyError(`${source} must be a non-empty array of {"id", "key"}`);
  const parts = value.map((k: unknown, i) => {
    const e = k as { id?: unknown; key?: unknown } | null;
    if (typeof e !== 'object' || e === null || Array.isArray(e) || typeof e.id !== 'string' || typeof e.key !== 'string' || Object.keys(e).some((f) => f !== 'id' && f !== 'key')) {
      throw new SecretKeyError(`${source}[${i}] must be {"id": "<name>", "key": "<base64 of 32 bytes>"}`);
    }
    return `${e.id}:${e.key}`;
  });
  return SecretKeyRing.parse(parts.join(','), source);
}

/** The file's own members (its API keys are parsed by auth.ts, which has refused a malformed file already). */
function fileMembers(file: HostKeySources['file']): { secretKeys?: unknown; cursorKey?: unknown } {
  if (file === undefined) return {};
  return JSON.parse(file.text) as { secretKeys?: unknown; cursorKey?: unknown };
}

export function hostKeys(o: HostKeySources): HostKeys {
  const doc = fileMembers(o.file);
  const envSecret = o.env.WOPKIT_SECRET_KEYS === '' ? undefined : o.env.WOPKIT_SECRET_KEYS;
  const envCursor = o.env.WOPKIT_CURSOR_KEY === '' ? undefined : o.env.WOPKIT_CURSOR_KEY;
  const inFile = (member: string) => `${o.file!.path} "${member}"`;
  if (doc.secretKeys !== undefined && envSecret !== undefined) throw new SecretKeyError(`the secret keys are given twice: in ${inFile('secretKeys')} and in WOPKIT_SECRET_KEYS; keep one`);
  if (doc.cursorKey !== undefined && envCursor !== undefined) throw new SecretKeyError(`the cursor key is given twice: in ${inFile('cursorKey')} and in WOPKIT_CURSOR_KEY; keep one`);
  const secretKeys = doc.secretKeys !== undefined ? ringOfFile(doc.secretKeys, inFile('secretKeys')) : envSecret !== undefined ? SecretKeyRing.parse(envSecret, 'WOPKIT_SECRET_KEYS') : undefined;
  const cursorKey = doc.cursorKey !== undefined ? cursorKeysOf(doc.cursorKey, inFile('cursorKey')) : envCursor !== undefined ? cursorKeysOf(envCursor, 'WOPKIT_CURSOR_KEY') : undefined;
  if (o.production && secretKeys === undefined) {
    throw new SecretKeyError('production mode needs the secret keys SR-1 registries are sealed with ("secretKeys" in the credentials file, or WOPKIT_SECRET_KEYS): without them a restart makes every open run refuse memory writes');
  }
  if (o.store === 'postgres' && (secretKeys === undefined || cursorKey === undefined)) {
    throw new SecretKeyError(`on PostgreSQL every host of the fleet needs the same ${secretKeys === undefined ? 'secret keys ("secretKeys" in the credentials file, or WOPKIT_SECRET_KEYS)' : 'cursor key ("cursorKey" in the credentials file, or WOPKIT_CURSOR_KEY)'}: a key one host made up would leave the others unable to read what it wrote`);
  }
  return { ...(secretKeys !== undefined ? { secretKeys } : {}), ...(cursorKey !== undefined ? { cursorKey } : {}) };
}
