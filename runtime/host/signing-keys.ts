/**
 * The bundle-signing keys a host publishes in its discovery document as `signingKeys[]` (upstream OpenWOP RFC 0168
 * §E.2: a verifier resolves a certification bundle's `signature.keyId` there). Read from the credentials file's
 * `"signingKeys"` member: public keys only — `{keyId, alg: "ed25519", publicKey}` with the raw 32-byte Ed25519 key in
 * unpadded base64url, as `wopkit certify keygen` prints it. A member that looks like private material (any field
 * other than those three) is refused, so a private key cannot be published by mistake. Several keys are kept: an old
 * key stays listed after a rotation so the bundles it signed still verify.
 */
import { WopkitError } from '../shared/errors.ts';

/** One published signing key. */
export interface PublishedSigningKey {
  readonly keyId: string;
  readonly alg: 'ed25519';
  readonly publicKey: string;
}

/** A credentials file whose `signingKeys` the host cannot publish (the host does not start). */
export class SigningKeysError extends WopkitError<'signing_keys_invalid'> {
  constructor(message: string) {
    super('signing_keys_invalid', message);
  }
}

const KEY_ID = /^[A-Za-z0-9._~-]{1,128}$/;
const RAW_ED25519_B64URL = /^[A-Za-z0-9_-]{43}$/;
const FIELDS = new Set(['keyId', 'alg', 'publicKey']);

/** The `signingKeys` of a credentials file's text (none when the member is absent). */
export function signingKeysOfFile(text: string, path: string): readonly PublishedSigningKey[] {
  const list = (JSON.parse(text) as { signingKeys?: unknown }).signingKeys;
  if (list === undefined) return [];
  const where = `${path} "signingKeys"`;
  if (!Array.isArray(list)) throw new SigningKeysError(`${where} must be an array of {"keyId", "alg": "ed25519", "publicKey"}`);
  const seen = new Set<string>();
  return list.map((e: unknown, i) => {
    const at = `${where}[${i}]`;
    if (typeof e !== 'object' || e === null || Array.isArray(e)) throw new SigningKeysError(`${at} must be an object`);
    const o = e as Record<string, unknown>;
    const extra = Object.keys(o).find((k) => !FIELDS.has(k));
    if (extra !== undefined) throw new SigningKeysError(`${at}: unknown field ${JSON.stringify(extra.slice(0, 40))}; only public keys are published ({"keyId", "alg", "publicKey"})`);
    if (typeof o.keyId !== 'string' || !KEY_ID.test(o.keyId)) throw new SigningKeysError(`${at}.keyId must be 1-128 characters of A-Z a-z 0-9 . _ ~ -`);
    if (seen.has(o.keyId)) throw new SigningKeysError(`${at}.keyId ${o.keyId} is listed twice`);
    seen.add(o.keyId);
    if (o.alg !== 'ed25519') throw new SigningKeysError(`${at}.alg must be "ed25519"`);
    if (typeof o.publicKey !== 'string' || !RAW_ED25519_B64URL.test(o.publicKey)) throw new SigningKeysError(`${at}.publicKey must be a raw 32-byte Ed25519 public key in unpadded base64url (43 characters)`);
    return { keyId: o.keyId, alg: 'ed25519' as const, publicKey: o.publicKey };
  });
}

/** The root members the discovery document gains from the published keys (none when there are none). */
export function signingKeysMembers(keys: readonly PublishedSigningKey[]): Readonly<Record<string, unknown>> {
  return keys.length === 0 ? {} : { signingKeys: keys };
}
