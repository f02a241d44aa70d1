/**
 * Ed25519 keys for `wopkit certify`, with Node's built-in crypto only.
 *
 * - The private key lives in one PKCS#8 PEM file the operator holds, written with mode 0600 and never printed, logged
 *   or copied into a bundle; `certify keygen` refuses to overwrite a file.
 * - The public key is published as one entry of the host's discovery `signingKeys[]` (upstream RFC 0168 §E.2):
 *   `{keyId, alg: "ed25519", publicKey}`, the public key as the raw 32 bytes in unpadded base64url, which is the form
 *   upstream's cut-gate checker wraps back into a key.
 * - The key id is derived from the public key (`wopkit-` and the first 16 hex digits of its SHA-256), so one key
 *   always has one id and a rotation gives a new one; it matches upstream's keyId grammar.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { fromBase64url, sha256Hex, toBase64url } from './canonical.ts';
import { CertifyError } from './errors.ts';

/** One published signing key (discovery `signingKeys[]`). */
export interface SigningKeyEntry {
  readonly keyId: string;
  readonly alg: 'ed25519';
  /** The raw 32-byte Ed25519 public key, unpadded base64url. */
  readonly publicKey: string;
}

/** upstream ids.schema.json#/$defs/keyId. */
export const KEY_ID_PATTERN = /^[A-Za-z0-9._~-]{1,128}$/;
/** The DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw key follows it. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The raw 32 public-key bytes of an Ed25519 key (public or private). */
export function rawPublicKey(key: KeyObject): Buffer {
  const spki = (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' });
  return spki.subarray(SPKI_PREFIX.length);
}

/** The key id of an Ed25519 public key. */
export const keyIdOf = (raw: Uint8Array): string => `wopkit-${sha256Hex(Buffer.from(raw).toString('hex')).slice(0, 16)}`;

/** The `signingKeys[]` entry of a key. */
export function signingKeyEntry(key: KeyObject): SigningKeyEntry {
  const raw = rawPublicKey(key);
  return { keyId: keyIdOf(raw), alg: 'ed25519', publicKey: toBase64url(raw) };
}

/** The public key of a published entry; a malformed entry is a CertifyError naming the field. */
export function publicKeyOf(entry: { readonly publicKey?: unknown }, where: string): KeyObject {
  if (typeof entry.publicKey !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(entry.publicKey)) throw new CertifyError('signing_key_invalid', `${where}.publicKey must be 32 bytes of unpadded base64url`);
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, fromBase64url(entry.publicKey)]), format: 'der', type: 'spki' });
}

/** A new key pair: the private key's PEM (for the file only) and its public entry. */
export function generateSigningKey(): { readonly privatePem: string; readonly entry: SigningKeyEntry } {
  const { privateKey } = generateKeyPairSync('ed25519');
  return { privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, entry: signingKeyEntry(privateKey) };
}

/** Write a new key file (mode 0600, created exclusively: an existing file is never overwritten); its public entry. */
export function writeKeyFile(path: string): SigningKeyEntry {
  const { privatePem, entry } = generateSigningKey();
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CertifyError('key_file_unwritable', code === 'EEXIST' ? `${path} exists: keygen never overwrites a key (choose another --out)` : `cannot create ${path} (${code ?? 'error'})`);
  }
  try {
    writeSync(fd, privatePem);
  } finally {
    closeSync(fd);
  }
  return entry;
}

/** Read a key file: the Ed25519 private key. Errors never quote the file's content. */
export function readKeyFile(path: string): KeyObject {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CertifyError('key_file_unreadable', `cannot read the key file ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(text);
  } catch {
    throw new CertifyError('key_file_invalid', `${path} is not a PEM private key (make one with \`wopkit certify keygen\`)`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new CertifyError('key_file_invalid', `${path} holds a ${key.asymmetricKeyType ?? 'unknown'} key; bundle v3 signatures are Ed25519`);
  return key;
}
