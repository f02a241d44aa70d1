/**
 * Sealing of SR-1 secret registries at rest: AES-256-GCM under a key the host is configured with (a credentials
 * file or an environment variable), never one from the store. The store keeps `key_id` and the sealed text
 * (`base64(iv ‖ tag ‖ ciphertext)`); the registry's run id and tenant are the additional authenticated data, so a
 * sealed registry copied onto another run's row does not open.
 *
 * Rotation (docs/security.md "Secret registry keys"): a key ring lists every key that may open a registry, the
 * first sealing new ones. Add the new key first on every host (each still opens what the others sealed with the old
 * one), then `reseal` moves every live registry onto it, then the old key can go.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { WopkitError } from '../shared/errors.ts';

export interface SecretKey {
  /** A short name stored with each registry it sealed (letters, digits, `._-`, 1–64). */
  readonly id: string;
  /** 32 bytes. */
  readonly key: Buffer;
}

/** A key ring that cannot be used: refused at start, with what is wrong (never the key material). */
export class SecretKeyError extends WopkitError<'secret_key_invalid'> {
  constructor(message: string) {
    super('secret_key_invalid', message);
  }
}

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

export class SecretKeyRing {
  readonly #keys = new Map<string, Buffer>();
  readonly active: SecretKey;
  /** True for a ring made up at start because none was configured: nothing it sealed opens after a restart. */
  readonly ephemeral: boolean;

  constructor(keys: readonly SecretKey[], ephemeral = false) {
    if (keys.length === 0) throw new SecretKeyError('a secret key ring needs at least one key');
    for (const k of keys) {
      if (!KEY_ID.test(k.id)) throw new SecretKeyError(`secret key id ${JSON.stringify(k.id.slice(0, 80))} must be 1-64 characters of [A-Za-z0-9._-]`);
      if (k.key.length !== 32) throw new SecretKeyError(`secret key ${k.id} must be 32 bytes (AES-256), got ${k.key.length}`);
      if (this.#keys.has(k.id)) throw new SecretKeyError(`secret key id ${k.id} is given twice`);
      this.#keys.set(k.id, k.key);
    }
    this.active = keys[0]!;
    this.ephemeral = ephemeral;
  }

  /** A ring with one random key, for a host given none (registries then do not survive a restart). */
  static ephemeral(): SecretKeyRing {
    return new SecretKeyRing([{ id: `ephemeral-${randomBytes(4).toString('hex')}`, key: randomBytes(32) }], true);
  }

  /**
   * Parse `id:base64key[,id:base64key…]` (the first key seals; every key opens), as WOPKIT_SECRET_KEYS and the
   * credentials file's `secretKeys` give it.
   */
  static parse(text: string, source: string): SecretKeyRing {
    const keys = text.split(',').map((part) => part.trim()).filter((p) => p !== '').map((part) => {
      const colon = part.indexOf(':');
      if (colon <= 0) throw new SecretKeyError(`${source}: each key is <id>:<base64 of 32 bytes>`);
      const key = Buffer.from(part.slice(colon + 1), 'base64');
      return { id: part.slice(0, colon), key };
    });
    try {
      return new SecretKeyRing(keys);
    } catch (err) {
      if (err instanceof SecretKeyError) throw new SecretKeyError(`${source}: ${err.message}`);
      throw err;
    }
  }

  has(keyId: string): boolean {
    return this.#keys.has(keyId);
  }

  /** The key ids, the sealing one first. */
  get ids(): readonly string[] {
    return [...this.#keys.keys()];
  }

  /**
   * A digest of the ring — its ids and keys, in order (the first seals) — that names it without revealing a key:
   * hosts of one fleet compare it (runtime/host/fleet-credentials.ts).
   */
  fingerprint(): string {
    const h = createHash('sha256').update('wopkit.secret-key-ring\u0000');
    for (const [id, key] of this.#keys) h.update(`${id}\u0000`).update(createHash('sha256').update(key).digest()).update('\u0000');
    return h.digest('hex');
  }

  /** Seal `plaintext` with the active key, bound to `aad`. */
  seal(plaintext: string, aad: string): { readonly keyId: string; readonly sealed: string } {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.active.key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { keyId: this.active.id, sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64') };
  }

  /** Open a sealed text; undefined when no key of the ring opens it (unknown key, other AAD, tampered text). */
  open(keyId: string, sealed: string, aad: string): string | undefined {
    const key = this.#keys.get(keyId);
    if (key === undefined) return undefined;
    try {
      const raw = Buffer.from(sealed, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

/** The additional authenticated data of a run's registry. */
export const registryAad = (runId: string, tenant: string): string => `wopkit.secret-registry\u0000${tenant}\u0000${runId}`;
