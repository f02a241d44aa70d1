/**
 * Where a host's secret keys and cursor key come from (runtime/host/host-keys.ts): the credentials file or the
 * environment, one source per key; every malformed value is refused with a message naming the file member or the
 * variable — never a key; production needs the secret keys, PostgreSQL both.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hostKeys } from '../../runtime/host/host-keys.ts';
import { SecretKeyError } from '../../runtime/redaction/sealing.ts';

const b64 = (n: number) => randomBytes(n).toString('base64');
const file = (doc: Record<string, unknown>) => ({ path: 'creds.json', text: JSON.stringify({ keys: [], ...doc }) });
const refused = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SecretKeyError);
    return (e as Error).message;
  }
  throw new Error('not refused');
};

describe('host keys', () => {
  it('from the file or from the environment, as a ring (the first seals / signs)', () => {
    const [k1, k2, c1, c2] = [b64(32), b64(32), b64(32), b64(16)];
    const fromFile = hostKeys({ env: {}, file: file({ secretKeys: [{ id: 'new', key: k1 }, { id: 'old', key: k2 }], cursorKey: [c1, c2] }), production: false, store: 'sqlite' });
    expect(fromFile.secretKeys!.active.id).toBe('new');
    expect(fromFile.secretKeys!.ids).toEqual(['new', 'old']);
    expect(fromFile.cursorKey!.map((k) => k.toString('base64'))).toEqual([c1, c2]);
    const fromEnv = hostKeys({ env: { WOPKIT_SECRET_KEYS: `new:${k1},old:${k2}`, WOPKIT_CURSOR_KEY: `${c1},${c2}` }, production: false, store: 'postgres' });
    expect(fromEnv.secretKeys!.fingerprint()).toBe(fromFile.secretKeys!.fingerprint());
    expect(fromEnv.cursorKey!.map((k) => k.toString('base64'))).toEqual([c1, c2]);
    expect(hostKeys({ env: {}, file: file({ cursorKey: c1 }), production: false, store: 'sqlite' }).cursorKey!.length).toBe(1);
    expect(hostKeys({ env: {}, production: false, store: 'memory' })).toEqual({});
  });

  it('refuses a key given twice, malformed values and missing keys, naming where — never a key', () => {
    const k = b64(32);
    const cases: [string, () => unknown, RegExp][] = [
      ['secret keys twice', () => hostKeys({ env: { WOPKIT_SECRET_KEYS: `a:${k}` }, file: file({ secretKeys: [{ id: 'a', key: k }] }), production: false, store: 'sqlite' }), /secret keys are given twice: in creds\.json "secretKeys" and in WOPKIT_SECRET_KEYS/],
      ['cursor key twice', () => hostKeys({ env: { WOPKIT_CURSOR_KEY: k }, file: file({ cursorKey: k }), production: false, store: 'sqlite' }), /cursor key is given twice/],
      ['file secret keys not an array', () => hostKeys({ env: {}, file: file({ secretKeys: k }), production: false, store: 'sqlite' }), /creds\.json "secretKeys" must be a non-empty array/],
      ['a secret key entry with an extra member', () => hostKeys({ env: {}, file: file({ secretKeys: [{ id: 'a', key: k, note: 1 }] }), production: false, store: 'sqlite' }), /creds\.json "secretKeys"\[0\] must be \{"id"/],
      ['a secret key of 16 bytes', () => hostKeys({ env: { WOPKIT_SECRET_KEYS: `a:${b64(16)}` }, production: false, store: 'sqlite' }), /WOPKIT_SECRET_KEYS: secret key a must be 32 bytes/],
      ['a cursor key of 8 bytes', () => hostKeys({ env: { WOPKIT_CURSOR_KEY: b64(8) }, production: false, store: 'sqlite' }), /WOPKIT_CURSOR_KEY must be base64 of at least 16 bytes, got 8/],
      ['the second cursor key not base64', () => hostKeys({ env: { WOPKIT_CURSOR_KEY: `${k},not base64!` }, production: false, store: 'sqlite' }), /WOPKIT_CURSOR_KEY key 2 must be a base64 string/],
      ['production without secret keys', () => hostKeys({ env: {}, production: true, store: 'sqlite' }), /production mode needs the secret keys/],
      ['PostgreSQL without a cursor key', () => hostKeys({ env: { WOPKIT_SECRET_KEYS: `a:${k}` }, production: false, store: 'postgres' }), /on PostgreSQL every host of the fleet needs the same cursor key/],
      ['PostgreSQL without secret keys', () => hostKeys({ env: { WOPKIT_CURSOR_KEY: k }, production: false, store: 'postgres' }), /on PostgreSQL every host of the fleet needs the same secret keys/],
    ];
    for (const [name, f, message] of cases) {
      const m = refused(f);
      expect(m, name).toMatch(message);
      expect(m, `${name}: names no key`).not.toContain(k);
    }
  });
});
