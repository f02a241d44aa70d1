/**
 * Credentials of the reference host: API keys, each bound to a role and — for the `tenant` role — to one tenant.
 *
 * - `tenant` key: acts for its tenant only. Every memoryRef, tenant and run it names must be its own
 *   (auth-binding.ts), and it may call only the routes the seam catalogue marks `role: 'tenant'`.
 * - `operator` key: may call every route, fixture seams included, and act across tenants (what the conformance
 *   suite needs). The development token (`OPENWOP_HOST_TOKEN`, or `createHost({token})`) is an operator key.
 *
 * Keys are held as SHA-256 digests only (the plaintext is dropped after parsing) and a presented key is compared
 * with every digest in constant time, without an early exit. Error messages name the source and the entry, never
 * a key.
 *
 * Sources (docs/host.md, "Credentials"):
 * - a JSON file (`--credentials <file>` / `WOPKIT_CREDENTIALS_FILE`):
 *   `{"keys": [{"id": "acme-app", "role": "tenant", "tenant": "acme", "sha256": "<64 hex>"},
 *              {"id": "ops", "role": "operator", "key": "<plaintext>"}]}` — each entry has exactly one of `key`
 *   (plaintext) or `sha256` (hex digest of the key's UTF-8 bytes);
 * - the environment: `WOPKIT_API_KEYS="<key>=<tenant>:tenant,<key>=*:operator"`.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { parseMemoryRef } from '../memory/memory-ref.ts';
import { WopkitError } from '../shared/errors.ts';

export type Role = 'tenant' | 'operator';

/** Who a request acts as: an operator, or one tenant. `keyId` names the key (never the key itself). */
export type Principal =
  | { readonly role: 'operator'; readonly keyId: string }
  | { readonly role: 'tenant'; readonly tenant: string; readonly keyId: string };

/** One key as configured: its id, its principal, and the SHA-256 digest of the key. */
export interface CredentialEntry {
  readonly principal: Principal;
  readonly digest: Buffer;
}

/** A credentials source that cannot be used; the host refuses to start. Messages never contain a key. */
export class CredentialsError extends WopkitError<'invalid_credentials'> {
  constructor(message: string) {
    super('invalid_credentials', message);
  }
}

/** Shortest plaintext key accepted (the development token has the same floor). */
export const MIN_KEY_LENGTH = 16;
/** Visible ASCII without `,` and `=` (the environment format's separators) and no whitespace: a key fits a header. */
const KEY_CHARS = /^[!-+\--<>-~]+$/;
const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** The Bearer scheme of an Authorization header, any case, and the spaces after it. */
const BEARER = /^bearer +/i;

/** SHA-256 of a key's UTF-8 bytes (one-shot: run on every authenticated request). */
export const sha256 = (key: string): Buffer => hash('sha256', key, 'buffer');

/** A valid tenant name: what a memoryRef can carry (`mem://<tenant>/…`, memory-ref.ts). */
export const isTenantName = (tenant: string): boolean => parseMemoryRef(`mem://${tenant}/x`)?.tenant === tenant;

function checkKey(key: string, where: string): Buffer {
  if (key.length < MIN_KEY_LENGTH) throw new CredentialsError(`${where}: the key must be at least ${MIN_KEY_LENGTH} characters`);
  if (!KEY_CHARS.test(key)) throw new CredentialsError(`${where}: the key may contain visible ASCII characters only, without ',' '=' or spaces`);
  return sha256(key);
}

function principalOf(role: unknown, tenant: unknown, keyId: string, where: string): Principal {
  if (role === 'operator') {
    if (tenant !== undefined && tenant !== '*') throw new CredentialsError(`${where}: an operator key acts for every tenant; give no tenant (or "*")`);
    return { role, keyId };
  }
  if (role === 'tenant') {
    if (typeof tenant !== 'string' || !isTenantName(tenant)) throw new CredentialsError(`${where}: a tenant key needs a tenant name (1-63 of a-z 0-9 - _, starting and ending with a letter or digit)`);
    return { role, tenant, keyId };
  }
  throw new CredentialsError(`${where}: role must be "tenant" or "operator"`);
}

/**
 * Entries of `WOPKIT_API_KEYS`: comma-separated `<key>=<tenant>:tenant` or `<key>=*:operator`. Entry ids are
 * `env-1`, `env-2`, … in order.
 */
export function parseApiKeysEnv(value: string, source = 'WOPKIT_API_KEYS'): CredentialEntry[] {
  const items = value.split(',').map((s) => s.trim());
  if (items.every((s) => s === '')) throw new CredentialsError(`${source}: no keys (expected <key>=<tenant>:tenant or <key>=*:operator, comma-separated)`);
  return items.map((item, i) => {
    const where = `${source} entry ${i + 1}`;
    const m = /^([^=]*)=([^:]*):([^:]*)$/.exec(item);
    if (m === null) throw new CredentialsError(`${where}: expected <key>=<tenant>:tenant or <key>=*:operator`);
    const [, key = '', tenant = '', role = ''] = m;
    const keyId = `env-${i + 1}`;
    const digest = checkKey(key, where);
    if (role === 'operator' && tenant !== '*') throw new CredentialsError(`${where}: an operator key is written <key>=*:operator`);
    return { principal: principalOf(role, role === 'operator' ? undefined : tenant, keyId, where), digest };
  });
}

const FILE_FIELDS = new Set(['id', 'role', 'tenant', 'key', 'sha256']);
/** The members of a credentials file: its API keys, and the host's other keys (read by host-keys.ts). */
const FILE_TOP_FIELDS = new Set(['keys', 'secretKeys', 'cursorKey', 'signingKeys']);

/** Entries of a credentials file (JSON text); `source` names the file in messages. */
export function parseCredentialsFile(text: string, source: string): CredentialEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new CredentialsError(`${source}: not valid JSON`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new CredentialsError(`${source}: expected an object {"keys": [...]}`);
  const extra = Object.keys(doc).filter((k) => !FILE_TOP_FIELDS.has(k));
  if (extra.length > 0) throw new CredentialsError(`${source}: unknown top-level field ${JSON.stringify(extra[0]!.slice(0, 40))} (expected "keys", and optionally "secretKeys", "cursorKey" and "signingKeys")`);
  const keys = (doc as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0) throw new CredentialsError(`${source}: "keys" must be a non-empty array`);
  return keys.map((k: unknown, i) => {
    let where = `${source} keys[${i}]`;
    if (typeof k !== 'object' || k === null || Array.isArray(k)) throw new CredentialsError(`${where}: expected an object`);
    const e = k as Record<string, unknown>;
    const unknownField = Object.keys(e).find((f) => !FILE_FIELDS.has(f));
    if (unknownField !== undefined) throw new CredentialsError(`${where}: unknown field ${JSON.stringify(unknownField.slice(0, 40))}`);
    if (typeof e.id !== 'string' || !KEY_ID.test(e.id)) throw new CredentialsError(`${where}: "id" must be 1-64 characters of A-Z a-z 0-9 . _ -`);
    where = `${where} (${e.id})`;
    if ((e.key === undefined) === (e.sha256 === undefined)) throw new CredentialsError(`${where}: give exactly one of "key" (plaintext) or "sha256" (hex digest of the key)`);
    let digest: Buffer;
    if (e.key !== undefined) {
      if (typeof e.key !== 'string') throw new CredentialsError(`${where}: "key" must be a string`);
      digest = checkKey(e.key, where);
    } else {
      if (typeof e.sha256 !== 'string' || !SHA256_HEX.test(e.sha256)) throw new CredentialsError(`${where}: "sha256" must be 64 lowercase hex digits`);
      digest = Buffer.from(e.sha256, 'hex');
    }
    return { principal: principalOf(e.role, e.tenant, e.id, where), digest };
  });
}

/** The development token as an operator key (`OPENWOP_HOST_TOKEN`, `createHost({token})`). */
export function devTokenEntry(token: string, source = 'OPENWOP_HOST_TOKEN'): CredentialEntry {
  return { principal: { role: 'operator', keyId: 'dev-token' }, digest: checkKey(token, source) };
}

/** The keys a host accepts. */
export class Credentials {
  readonly #entries: readonly CredentialEntry[];

  /** Refuses an empty set, two entries with one key, and two entries with one id. */
  constructor(entries: readonly CredentialEntry[]) {
    if (entries.length === 0) throw new CredentialsError('no API keys are configured');
    const ids = new Set<string>();
    entries.forEach((e, i) => {
      if (ids.has(e.principal.keyId)) throw new CredentialsError(`two keys have the id ${JSON.stringify(e.principal.keyId)}`);
      ids.add(e.principal.keyId);
      const same = entries.findIndex((o) => o.digest.equals(e.digest));
      if (same !== i) throw new CredentialsError(`keys ${JSON.stringify(entries[same]!.principal.keyId)} and ${JSON.stringify(e.principal.keyId)} are the same key`);
    });
    this.#entries = entries.map((e) => ({ principal: Object.freeze({ ...e.principal }), digest: Buffer.from(e.digest) }));
  }

  /** These keys and `more` (the same refusals as the constructor). */
  with(...more: readonly CredentialEntry[]): Credentials {
    return new Credentials([...this.#entries, ...more]);
  }

  /**
   * The keys as their holders are bound — role, tenant and the key's SHA-256 digest, sorted; ids left out (they are
   * labels) — for a fleet fingerprint, which is a digest of these (never a key).
   */
  bindings(): readonly string[] {
    return this.#entries.map((e) => `${e.principal.role}:${e.principal.role === 'tenant' ? e.principal.tenant : '*'}:${e.digest.toString('hex')}`).sort();
  }

  /** What is configured, without the keys: id, role and tenant of each. */
  summary(): readonly Principal[] {
    return this.#entries.map((e) => e.principal);
  }

  /**
   * The principal of an `Authorization: Bearer <key>` header, or undefined. The scheme name is case-insensitive
   * (RFC 9110 §11.1: `bearer`, `BEARER` too) and followed by one or more spaces; the rest is the key, exactly. The
   * presented key is hashed and compared with every configured digest in constant time; the loop never stops early.
   */
  authenticate(authorization: unknown): Principal | undefined {
    const scheme = typeof authorization === 'string' ? BEARER.exec(authorization) : null;
    if (scheme === null) return undefined;
    const digest = sha256((authorization as string).slice(scheme[0].length));
    let found: Principal | undefined;
    for (const e of this.#entries) if (timingSafeEqual(digest, e.digest) && found === undefined) found = e.principal;
    return found;
  }
}
