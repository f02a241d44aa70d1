/**
 * The keys a host is configured with besides its API keys (docs/security.md "Secret registry keys"):
 *
 * - `WOPKIT_SECRET_KEYS`: the key ring SR-1 secret registries are sealed with at rest — `id:base64,id:base64…`, 32
 *   bytes each, the first sealing new registries and every one opening old ones (rotation). Never from the store.
 *   Without it a host makes up a key for its own lifetime: registries then cannot be opened after a restart, and
 *   the runs they belong to refuse memory writes rather than store a secret in the clear. Production mode requires it.
 * - `WOPKIT_CURSOR_KEY`: the key list cursors are signed with (base64, at least 16 bytes), so a cursor survives a
 *   restart and works on every host of a fleet. Without it, a random key (cursors then die with the process).
 *
 * Hosts that share a store must share both.
 */
import { SecretKeyError, SecretKeyRing } from '../redaction/sealing.ts';

export interface HostKeys {
  readonly secretKeys?: SecretKeyRing;
  readonly cursorKey?: Buffer;
}

export function hostKeysFromEnv(env: Readonly<Record<string, string | undefined>>, production: boolean): HostKeys {
  const secret = env.WOPKIT_SECRET_KEYS;
  const cursor = env.WOPKIT_CURSOR_KEY;
  if (production && (secret === undefined || secret === '')) {
    throw new SecretKeyError('production mode needs WOPKIT_SECRET_KEYS (the key SR-1 secret registries are sealed with): without it a restart makes every open run refuse memory writes');
  }
  const cursorKey = cursor === undefined || cursor === '' ? undefined : Buffer.from(cursor, 'base64');
  if (cursorKey !== undefined && cursorKey.length < 16) throw new SecretKeyError('WOPKIT_CURSOR_KEY must be base64 of at least 16 bytes');
  return {
    ...(secret !== undefined && secret !== '' ? { secretKeys: SecretKeyRing.parse(secret, 'WOPKIT_SECRET_KEYS') } : {}),
    ...(cursorKey !== undefined ? { cursorKey } : {}),
  };
}
