/**
 * One set of credentials per fleet (issue 23): hosts on one PostgreSQL database refuse to start when their
 * credentials differ — any API key, the secret key ring, the cursor key — and only a fingerprint is stored, never a
 * key. A rotation changes them without a stop: begin (both accepted), hosts restarted with the new file, finish
 * (every live secret registry resealed with the new key, the old credentials retired: a host still on them answers
 * 503 and stops). A secret registered before the rotation is still redacted after it, by a host that never saw the
 * old key, and the old key then leaves the ring in a second rotation. The CLI drives the same steps.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Credentials, devTokenEntry } from '../../runtime/host/auth.ts';
import { credentialsCli, credentialsOfFile } from '../../runtime/host/credentials-cli.ts';
import { beginRotation, finishRotation, fingerprint, FLEET_META_KEY, fleetCredentials } from '../../runtime/host/fleet-credentials.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { createHost, type Host } from '../../runtime/host/server.ts';
import { SecretKeyRing, type SecretKey } from '../../runtime/redaction/sealing.ts';
import { openStore } from '../../runtime/storage/open-store.ts';
import { freshDatabase } from '../support/postgres.ts';
import { toolchain } from '../support/toolchains.ts';
import { startOrExit, type HostExit } from './crash/host-process.ts';

const pg = toolchain('postgres');
const root = mkdtempSync(join(tmpdir(), 'wopkit-fleet-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(root, { recursive: true, force: true });
});

const TOKEN = 'fleet-operator-token-0123456789';
const key = (id: string): SecretKey => ({ id, key: randomBytes(32) });
const [kA, kB] = [key('k-a'), key('k-b')];
const CURSOR = randomBytes(32);
const V = `sk-live-${randomBytes(8).toString('hex')}`;

interface Keys {
  readonly token?: string;
  readonly ring: readonly SecretKey[];
  readonly cursor?: Buffer;
}

async function fleetDb(label: string): Promise<string> {
  const db = await freshDatabase(label);
  cleanups.push(() => db.drop());
  return db.url;
}

async function host(url: string, k: Keys): Promise<Host> {
  const h = await createHost({ token: k.token ?? TOKEN, storage: await openStore({ kind: 'postgres', url }), secretKeys: new SecretKeyRing([...k.ring]), cursorKey: k.cursor ?? CURSOR, logger: false });
  cleanups.push(() => h.app.close());
  return h;
}

const H = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const seed = (h: Host, body: unknown) => h.app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: H, payload: JSON.stringify(body) });
const stored = async (h: Host, ref: string): Promise<string> => JSON.stringify((await h.app.inject({ method: 'GET', url: `/v1/memory/${encodeURIComponent(ref)}?limit=100`, headers: H })).json());

describe('one set of credentials per fleet (PostgreSQL)', () => {
  it.skipIf(pg.skip)('a host whose API keys, secret keys or cursor key differ from its fleet\'s refuses to start; only fingerprints are stored', async () => {
    pg.assert();
    const url = await fleetDb('fleet-join');
    await host(url, { ring: [kA] });
    await host(url, { ring: [kA] }); // the same credentials: one more host of the fleet
    const differing: [string, Keys][] = [
      ['another API key', { token: 'another-operator-token-012345', ring: [kA] }],
      ['another secret key', { ring: [key('k-a')] }],
      ['the secret keys in another order', { ring: [kB, kA] }],
      ['another cursor key', { ring: [kA], cursor: randomBytes(32) }],
    ];
    for (const [what, keys] of differing) {
      await expect(host(url, keys), what).rejects.toThrow(/this host's credentials \(fingerprint [0-9a-f]{12}\) differ from those of the hosts on this database \([0-9a-f]{12}\)/);
    }
    await expect(createHost({ token: TOKEN, storage: await openStore({ kind: 'postgres', url }), logger: false }), 'no keys given').rejects.toThrow(/needs secretKeys and cursorKey/);
    const store = await openStore({ kind: 'postgres', url });
    const record = (await store.reads.get('SELECT value FROM meta WHERE key = ?', [FLEET_META_KEY]))!.value;
    await store.close();
    expect(JSON.parse(String(record)).accepted).toHaveLength(1);
    for (const secret of [TOKEN, kA.key.toString('base64'), kA.key.toString('hex'), CURSOR.toString('base64')]) expect(record).not.toContain(secret);
  }, 60_000);

  it.skipIf(pg.skip)('a rotation changes the credentials without a stop; registries are resealed, the old hosts stop, the secret stays redacted; the old key then leaves the ring', async () => {
    pg.assert();
    const url = await fleetDb('fleet-rotate');
    const a1 = await host(url, { ring: [kA] });
    const ref = 'mem://acme/rotation';
    expect((await seed(a1, { memoryRef: ref, runId: 'run-rot', secrets: [{ secretId: 's1', value: V }], entries: [{ content: `before ${V}` }] })).statusCode).toBe(200);

    // Step 1: the new credentials, with the old key second so the resealing can open what it sealed.
    const next = { credentials: new Credentials([devTokenEntry(TOKEN)]), secretKeys: new SecretKeyRing([kB, kA]), cursorKey: CURSOR };
    const store = await openStore({ kind: 'postgres', url });
    cleanups.push(() => store.close());
    await beginRotation(store, fingerprint(next), Date.now());
    const b1 = await host(url, { ring: [kB, kA] }); // accepted now
    expect((await seed(b1, { memoryRef: ref, runId: 'run-rot', entries: [{ content: `on the new host ${V}` }] })).statusCode).toBe(200);
    await expect(host(url, { ring: [key('k-c')] })).rejects.toThrow(/differ from those of the hosts on this database \([0-9a-f]{12} or [0-9a-f]{12}\)/);

    // While one rotation is under way another cannot begin.
    const other = { credentials: new Credentials([devTokenEntry(TOKEN)]), secretKeys: new SecretKeyRing([key('k-x')]), cursorKey: CURSOR };
    await expect(beginRotation(store, fingerprint(other), Date.now())).rejects.toThrow(/a rotation is already under way/);

    const done = await finishRotation(store, next, Date.now());
    expect(done.resealed).toBeGreaterThanOrEqual(1);
    expect(await store.reads.all("SELECT key_id FROM secret_registries WHERE state = 'live' AND key_id <> 'k-b'", [], 10)).toEqual([]);
    expect((await fleetCredentials(store))!.accepted).toEqual([fingerprint(next)]);

    // The old host sees it at its next look at the agenda: it stops serving (and says why).
    await a1.background.runOnce();
    expect((await a1.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'unavailable', reason: 'credentials-retired' });
    const refused = await seed(a1, { memoryRef: ref, entries: [{ content: 'x' }] });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await a1.app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);

    // A host on the new credentials alone never saw k-a: it still redacts V in the run and for the tenant.
    const b2 = await host(url, { ring: [kB, kA] });
    expect((await seed(b2, { memoryRef: ref, runId: 'run-rot', entries: [{ content: `after ${V}` }] })).statusCode).toBe(200);
    expect(await stored(b2, ref)).not.toContain(V);
    expect(await stored(b2, ref)).toContain('[REDACTED:s1]');

    // A rotation to a ring without the key the registries are sealed with cannot finish, and changes nothing; finishing
    // with the current file instead calls it off.
    const lacking = { credentials: new Credentials([devTokenEntry(TOKEN)]), secretKeys: new SecretKeyRing([key('k-d')]), cursorKey: CURSOR };
    await beginRotation(store, fingerprint(lacking), Date.now());
    await expect(finishRotation(store, lacking, Date.now())).rejects.toThrow(/live secret registries are sealed with "k-b", which the new credentials lack/);
    expect((await fleetCredentials(store))!.accepted).toEqual([fingerprint(next), fingerprint(lacking)]);
    expect(await store.reads.all("SELECT key_id FROM secret_registries WHERE state = 'live' AND key_id <> 'k-b'", [], 10)).toEqual([]);
    expect((await finishRotation(store, next, Date.now())).accepted).toEqual([fingerprint(next)]);

    // Second rotation: drop k-a (nothing is sealed with it any more).
    const last = { credentials: new Credentials([devTokenEntry(TOKEN)]), secretKeys: new SecretKeyRing([kB]), cursorKey: CURSOR };
    await beginRotation(store, fingerprint(last), Date.now());
    expect((await finishRotation(store, last, Date.now())).resealed).toBe(0);
    const c1 = await host(url, { ring: [kB] });
    expect((await seed(c1, { memoryRef: ref, runId: 'run-rot', entries: [{ content: `last ${V}` }] })).statusCode).toBe(200);
    expect(await stored(c1, ref)).not.toContain(V);
  }, 120_000);

  it.skipIf(pg.skip)('the CLI: status, begin and finish with a credentials file; bad input is one line and exit 2', async () => {
    pg.assert();
    const url = await fleetDb('fleet-cli');
    const file = (name: string, ring: readonly SecretKey[]) => {
      const path = join(root, name);
      writeFileSync(path, JSON.stringify({ keys: [{ id: 'ops', role: 'operator', key: 'cli-operator-key-0123456789' }], secretKeys: ring.map((k) => ({ id: k.id, key: k.key.toString('base64') })), cursorKey: CURSOR.toString('base64') }));
      return path;
    };
    const [oldFile, newFile] = [file('old.json', [kA]), file('new.json', [kB, kA])];
    const run = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await credentialsCli(argv, { env: { WOPKIT_DATABASE_URL: url }, readFile: (p) => readFileSync(p, 'utf8'), now: Date.now, out: (l) => out.push(l) }, (l) => err.push(l));
      return { code, out, err };
    };
    await host(url, { ring: [kA], token: 'cli-operator-key-0123456789' }); // the fleet's first host records the old credentials
    expect(fingerprint(credentialsOfFile(oldFile, readFileSync(oldFile, 'utf8')))).toBe(fingerprint({ credentials: new Credentials([devTokenEntry('cli-operator-key-0123456789')]), secretKeys: new SecretKeyRing([kA]), cursorKey: CURSOR }));
    expect((await run('status', '--credentials', oldFile)).out[0]).toMatch(/^accepted: [0-9a-f]{12} since .*: [0-9a-f]{12} \(accepted\)$/);
    expect(await run('finish', '--credentials', newFile)).toMatchObject({ code: 2, err: [expect.stringMatching(/^wopkit credentials: these credentials .* were not begun as a rotation/)] });
    expect(await run('begin', '--credentials', newFile)).toMatchObject({ code: 0, out: [expect.stringMatching(/^rotation begun: the fleet accepts [0-9a-f]{12} and [0-9a-f]{12}/)] });
    expect(await run('finish', '--credentials', newFile)).toMatchObject({ code: 0, out: [expect.stringMatching(/^rotation finished: 0 secret registries resealed with key k-b/)] });
    for (const bad of [['rotate'], ['begin'], ['begin', '--credentials', join(root, 'missing.json')], ['status', '--force']]) {
      const r = await run(...bad);
      expect(r.code, bad.join(' ')).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(/^wopkit credentials: /);
    }
  }, 60_000);

  it.skipIf(pg.skip)('npm start on PostgreSQL without a credentials file, or with one that differs from the fleet\'s: one line and exit 2', async () => {
    pg.assert();
    const url = await fleetDb('fleet-start');
    const noFile = (await startOrExit({ args: ['--store', 'postgres'], env: { WOPKIT_DATABASE_URL: url, WOPKIT_CREDENTIALS_FILE: '' } })) as HostExit;
    expect(noFile.code).toBe(2);
    expect(noFile.stderr.trim().split('\n')).toEqual([expect.stringMatching(/not starting: on PostgreSQL a host needs a credentials file/)]);
    await host(url, { ring: [kA] }); // the fleet's credentials are recorded by its first host
    const other = (await startOrExit({ args: ['--store', 'postgres'], env: { WOPKIT_DATABASE_URL: url } })) as HostExit;
    expect(other.code).toBe(2);
    expect(other.stderr.trim().split('\n')).toEqual([expect.stringMatching(/not starting: this host's credentials \(fingerprint [0-9a-f]{12}\) differ/)]);
  }, 60_000);
});
