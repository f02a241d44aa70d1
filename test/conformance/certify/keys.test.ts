/** certify keygen: a key file of mode 0600 that round-trips, never overwritten, never printed. */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certify } from '../../../conformance/certify/cli.ts';
import { keyIdOf, publicKeyOf, rawPublicKey, readKeyFile, signingKeyEntry } from '../../../conformance/certify/keys.ts';
import { attestationVerifies } from '../../../conformance/certify/sign.ts';
import { signingKeysOfFile } from '../../../runtime/host/signing-keys.ts';
import { parseCredentialsFile } from '../../../runtime/host/auth.ts';
import { bundleOf, cleanResults, keyPair, startHost } from './support.ts';

const dir = mkdtempSync(join(tmpdir(), 'wopkit-certify-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[], values: Record<string, string> = {}, format: 'text' | 'json' = 'json') {
  const out: string[] = [];
  const err: string[] = [];
  const code = await certify({ args, values: new Map(Object.entries(values)), flags: new Set(), format }, { out: (s) => out.push(s), err: (s) => err.push(s), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('certify keygen', () => {
  it('writes a 0600 PEM key whose printed entry is the key\'s own public key, and prints nothing private', async () => {
    const file = join(dir, 'a.pem');
    const r = await run(['keygen'], { '--out': file });
    expect(r.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = readKeyFile(file);
    const printed = JSON.parse(r.out) as { signingKey: { keyId: string; alg: string; publicKey: string } };
    expect(printed.signingKey).toEqual(signingKeyEntry(key));
    expect(printed.signingKey.keyId).toBe(keyIdOf(rawPublicKey(key)));
    const pem = readFileSync(file, 'utf8');
    const body = pem.split('\n').filter((l) => !l.startsWith('-----') && l !== '').join('');
    expect(r.out).not.toContain(body);
    const seed = key.export({ format: 'jwk' }).d!;
    expect(r.out).not.toContain(seed);
    // The published entry verifies what the file's key signs.
    const b = bundleOf(cleanResults(), key);
    expect(attestationVerifies(b, b.signature.sig, publicKeyOf(printed.signingKey, 'entry'))).toBe(true);
    // The host accepts the printed entry in its credentials file as is.
    const creds = JSON.stringify({ keys: [{ id: 'op', role: 'operator', key: 'operator-key-0123456789' }], signingKeys: [printed.signingKey] });
    expect(parseCredentialsFile(creds, 'c.json')).toHaveLength(1);
    expect(signingKeysOfFile(creds, 'c.json')).toEqual([printed.signingKey]);
  });

  it('never overwrites a key file, and says so', async () => {
    const file = join(dir, 'b.pem');
    expect((await run(['keygen'], { '--out': file })).code).toBe(0);
    const before = readFileSync(file, 'utf8');
    const again = await run(['keygen'], { '--out': file });
    expect(again.code).toBe(2);
    expect(JSON.parse(again.out)).toMatchObject({ ok: false, error: { code: 'key_file_unwritable' } });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('a file that is not an Ed25519 private key is refused by name, without quoting it', async () => {
    const file = join(dir, 'c.pem');
    await run(['keygen'], { '--out': file });
    const r = await run([], { '--key': join(dir, 'missing.pem'), '--base-url': 'http://127.0.0.1:1' });
    expect(JSON.parse(r.out)).toMatchObject({ ok: false, error: { code: 'key_file_unreadable' } });
    expect(() => publicKeyOf({ publicKey: 'short' }, 'k')).toThrow(/publicKey must be 32 bytes/);
  });

  it('a host given no signing keys publishes no signingKeys member', async () => {
    const { app, url } = await startHost([]);
    try {
      expect(await (await fetch(`${url}/.well-known/openwop`)).json()).not.toHaveProperty('signingKeys');
    } finally {
      await app.close();
    }
  });

  it('the host refuses private material or a malformed key in "signingKeys"', () => {
    const { entry } = keyPair();
    const text = (k: unknown) => JSON.stringify({ keys: [], signingKeys: [k] });
    expect(() => signingKeysOfFile(text({ ...entry, privateKey: 'x' }), 'c.json')).toThrow(/unknown field "privateKey"; only public keys/);
    expect(() => signingKeysOfFile(text({ ...entry, publicKey: 'AAAA' }), 'c.json')).toThrow(/c.json "signingKeys"\[0\].publicKey/);
    expect(() => signingKeysOfFile(text({ ...entry, alg: 'rsa' }), 'c.json')).toThrow(/alg must be "ed25519"/);
    expect(() => signingKeysOfFile(JSON.stringify({ signingKeys: [entry, entry] }), 'c.json')).toThrow(/listed twice/);
    expect(signingKeysOfFile(JSON.stringify({ keys: [] }), 'c.json')).toEqual([]);
  });
});
