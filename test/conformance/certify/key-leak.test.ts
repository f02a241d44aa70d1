/**
 * Keys never enter a bundle, a log or the store: certify runs with a known key against a reference host on SQLite
 * (and on PostgreSQL when a server is reachable) that publishes its public key and logs at debug level; the bundle,
 * every log line, every file of the data directory and the `pg_dump` of the database are searched for the private
 * key in every form it could take — the raw 32-byte seed, the PKCS#8 DER, their base64, base64url and hex, and the
 * PEM body: 0 hits. The public key is found (the search is not blind).
 */
import { execFileSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certify } from '../../../conformance/certify/cli.ts';
import { openStore } from '../../../runtime/storage/open-store.ts';
import { SecretKeyRing } from '../../../runtime/redaction/sealing.ts';
import { randomBytes } from 'node:crypto';
import { freshDatabase, type TestDatabase } from '../../support/postgres.ts';
import { toolchain } from '../../support/toolchains.ts';
import { startHost, TOKEN } from './support.ts';
import type { StoragePort } from '../../../runtime/storage/index.ts';
import type { SigningKeyEntry } from '../../../conformance/certify/keys.ts';

const pg = toolchain('postgres');
const work = mkdtempSync(join(tmpdir(), 'wopkit-certify-leak-'));
const keyDir = mkdtempSync(join(tmpdir(), 'wopkit-certify-leak-key-'));
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(keyDir, { recursive: true, force: true });
});

/** Every form of the private key a leak could take. */
function privateForms(pemFile: string): { readonly bytes: readonly Buffer[]; readonly texts: readonly string[] } {
  const pem = readFileSync(pemFile, 'utf8');
  const key = createPrivateKey(pem);
  const der = key.export({ type: 'pkcs8', format: 'der' });
  const seed = Buffer.from(key.export({ format: 'jwk' }).d!, 'base64url');
  const texts = [seed, der].flatMap((b) => [b.toString('base64'), b.toString('base64url'), b.toString('hex')]);
  // A base64 run of the PEM body long enough to be unique (the line breaks are not part of a leak's shape).
  texts.push(pem.split('\n').filter((l) => l !== '' && !l.startsWith('-----')).join(''));
  return { bytes: [seed, der], texts: [...new Set(texts.map((t) => t.replace(/=+$/, '')))] };
}

const filesUnder = (dir: string): string[] => readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));

function hits(haystack: Buffer, forms: ReturnType<typeof privateForms>): number {
  const text = haystack.toString('latin1');
  return forms.bytes.filter((b) => haystack.includes(b)).length + forms.texts.filter((t) => text.includes(t)).length;
}

async function certifyOn(label: string, storage: StoragePort, extra: Record<string, unknown> = {}): Promise<{ bundle: Buffer; logs: Buffer; entry: SigningKeyEntry; keyFile: string }> {
  const keyFile = join(keyDir, `${label}.pem`);
  let printed = '';
  await certify({ args: ['keygen'], values: new Map([['--out', keyFile]]), flags: new Set(), format: 'json' }, { out: (s) => (printed = s), err: () => undefined, env: {} });
  const entry = (JSON.parse(printed) as { signingKey: SigningKeyEntry }).signingKey;
  const lines: string[] = [];
  const { app, url } = await startHost([entry], { storage, logger: { level: 'debug', stream: { write: (line: string) => void lines.push(line) } }, ...extra });
  const said: string[] = [];
  const out = join(work, label);
  try {
    const code = await certify(
      { args: [], values: new Map([['--base-url', url], ['--api-key', TOKEN], ['--key', keyFile], ['--out', out], ['--build', 'commit:leak-test']]), flags: new Set(['--strict']), format: 'text' },
      { out: (s) => said.push(s), err: (s) => said.push(s), env: {} },
    );
    expect(code, said.join('\n')).toBe(0);
  } finally {
    await app.close();
  }
  const bundleFile = readdirSync(out).map((f) => join(out, f))[0]!;
  return { bundle: readFileSync(bundleFile), logs: Buffer.from([...lines, ...said].join('\n')), entry, keyFile };
}

describe('the private key enters no bundle, log line or store', () => {
  it('SQLite: bundle, debug-level log lines and every store file hold 0 copies', async () => {
    const dataDir = join(work, 'sqlite-data');
    const storage = await openStore({ kind: 'sqlite', dataDir });
    const { bundle, logs, entry, keyFile } = await certifyOn('sqlite', storage);
    await storage.close();
    const forms = privateForms(keyFile);
    expect(logs.toString().split('\n').length).toBeGreaterThan(50); // debug logging was on
    expect(bundle.toString()).toContain(entry.publicKey); // the captured discovery document lists the public key
    const store = filesUnder(dataDir);
    expect(store.length).toBeGreaterThan(0);
    expect({ bundle: hits(bundle, forms), logs: hits(logs, forms), store: store.map((f) => hits(readFileSync(f), forms)).reduce((a, b) => a + b, 0) }).toEqual({ bundle: 0, logs: 0, store: 0 });
    // The search finds a leak where there is one: the key file itself, and its seed dropped into a log line.
    expect(hits(readFileSync(keyFile), forms)).toBeGreaterThan(0);
    expect(hits(Buffer.from(`debug ${forms.texts[0]}`), forms)).toBeGreaterThan(0);
  }, 120_000);

  let db: TestDatabase | undefined;
  afterAll(() => db?.drop());
  it.skipIf(pg.skip)('PostgreSQL: bundle, debug-level log lines and the pg_dump of the database hold 0 copies', async () => {
    pg.assert();
    db = await freshDatabase('certifyleak');
    const storage = await openStore({ kind: 'postgres', url: db.url });
    const { bundle, logs, keyFile } = await certifyOn('postgres', storage, { secretKeys: new SecretKeyRing([{ id: 'k', key: randomBytes(32) }]), cursorKey: randomBytes(32) });
    await storage.close();
    const dump = execFileSync('pg_dump', ['--no-owner', db.url], { maxBuffer: 256 * 1024 * 1024 });
    expect(dump.length).toBeGreaterThan(1000);
    const forms = privateForms(keyFile);
    expect({ bundle: hits(bundle, forms), logs: hits(logs, forms), dump: hits(dump, forms) }).toEqual({ bundle: 0, logs: 0, dump: 0 });
  }, 180_000);
});
