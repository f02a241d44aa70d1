/**
 * Issue 12 item 8a: API keys bound to a role and a tenant. A tenant key acts for its own tenant only on every
 * route; an operator key may use the fixture seams and act across tenants; `npm start` in production mode refuses
 * to start without a credentials file. Start-up errors name the source and entry, never a key.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { Credentials, CredentialsError, parseApiKeysEnv, parseCredentialsFile, sha256 } from '../../runtime/host/auth.ts';
import { startCredentials } from '../../runtime/host/auth-config.ts';
import { BOUND_INPUTS, NEUTRAL_INPUTS } from '../../runtime/host/auth-binding.ts';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES, targetOf, validatorOf, type CatalogueRoute } from '../../runtime/host/seam-catalogue.ts';
import { validatorIndex } from '../../generated/validators/validators.js';

const KEY_A = 'tenant-a-key-0123456789abcdef';
const KEY_B = 'tenant-b-key-0123456789abcdef';
const OPERATOR = 'operator-key-0123456789abcdef';
const keys = () => new Credentials(parseApiKeysEnv(`${KEY_A}=tenant-a:tenant,${KEY_B}=tenant-b:tenant,${OPERATOR}=*:operator`));
const ROWS: readonly CatalogueRoute[] = Object.values(ROUTES);

/** A message must never carry the key it is about. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CredentialsError);
    return (e as Error).message;
  }
  throw new Error('expected a CredentialsError');
}

describe('credentials: formats and start-up errors', () => {
  it('WOPKIT_API_KEYS: <key>=<tenant>:tenant and <key>=*:operator', () => {
    const c = keys();
    expect(c.summary()).toEqual([
      { role: 'tenant', tenant: 'tenant-a', keyId: 'env-1' },
      { role: 'tenant', tenant: 'tenant-b', keyId: 'env-2' },
      { role: 'operator', keyId: 'env-3' },
    ]);
    expect(c.authenticate(`Bearer ${KEY_A}`)).toEqual({ role: 'tenant', tenant: 'tenant-a', keyId: 'env-1' });
    expect(c.authenticate(`Bearer ${OPERATOR}`)).toEqual({ role: 'operator', keyId: 'env-3' });
    // The scheme name is case-insensitive (RFC 9110 §11.1), one or more spaces after it; the key itself is exact.
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) expect(c.authenticate(`${scheme} ${KEY_A}`), scheme).toEqual({ role: 'tenant', tenant: 'tenant-a', keyId: 'env-1' });
    expect(c.authenticate(`Bearer  ${KEY_A}`)).toEqual({ role: 'tenant', tenant: 'tenant-a', keyId: 'env-1' });
    for (const bad of [undefined, '', KEY_A, `Bearer${KEY_A}`, `Basic ${KEY_A}`, `bearer\t${KEY_A}`, `Bearer ${KEY_A} `, `Bearer ${KEY_A.slice(0, -1)}`, `Bearer ${KEY_A}x`, 'Bearer ']) expect(c.authenticate(bad), String(bad)).toBeUndefined();
  });

  it.each([
    ['', /no keys/],
    ['just-a-key-without-binding-0123', /entry 1: expected <key>=<tenant>:tenant or <key>=\*:operator/],
    [`${KEY_A}=tenant-a`, /entry 1: expected/],
    [`${KEY_A}=tenant-a:admin`, /entry 1: role must be "tenant" or "operator"/],
    [`${KEY_A}=Tenant A:tenant`, /entry 1: a tenant key needs a tenant name/],
    [`${KEY_A}=tenant-a:operator`, /entry 1: an operator key is written <key>=\*:operator/],
    [`${KEY_A}=*:tenant`, /entry 1: a tenant key needs a tenant name/],
    [`short=tenant-a:tenant`, /entry 1: the key must be at least 16 characters/],
    [`${KEY_A}=tenant-a:tenant,with space 0123456789=*:operator`, /entry 2: the key may contain visible ASCII characters only/],
  ])('WOPKIT_API_KEYS %j is refused: %s', (value, message) => {
    const m = refusal(() => parseApiKeysEnv(value));
    expect(m).toMatch(message);
    expect(m).not.toContain(KEY_A);
    expect(m).not.toContain('0123456789');
  });

  it('a credentials file: plaintext keys or SHA-256 digests, ids, roles, tenants', () => {
    const file = JSON.stringify({ keys: [
      { id: 'acme-app', role: 'tenant', tenant: 'acme', sha256: sha256(KEY_A).toString('hex') },
      { id: 'ops', role: 'operator', key: OPERATOR },
    ] });
    const c = new Credentials(parseCredentialsFile(file, 'creds.json'));
    expect(c.authenticate(`Bearer ${KEY_A}`)).toEqual({ role: 'tenant', tenant: 'acme', keyId: 'acme-app' });
    expect(c.authenticate(`Bearer ${OPERATOR}`)).toEqual({ role: 'operator', keyId: 'ops' });
    // Held as digests only: no plaintext key anywhere in the object.
    for (const shown of [inspect(c, { depth: 10, showHidden: true }), JSON.stringify(c), JSON.stringify(c.summary())]) expect(shown).not.toContain(OPERATOR);
  });

  const entry = (over: Record<string, unknown>) => JSON.stringify({ keys: [{ id: 'k1', role: 'tenant', tenant: 'acme', key: KEY_A, ...over }] });
  it.each([
    ['{', /creds\.json: not valid JSON/],
    ['[]', /expected an object \{"keys": \[\.\.\.\]\}/],
    ['{"keys": []}', /"keys" must be a non-empty array/],
    ['{"keys": [], "admin": true}', /unknown top-level field "admin"/],
    [entry({ id: 'has space' }), /keys\[0\]: "id" must be 1-64 characters/],
    [entry({ extra: 1 }), /keys\[0\]: unknown field "extra"/],
    [entry({ sha256: sha256(KEY_A).toString('hex') }), /keys\[0\] \(k1\): give exactly one of "key" \(plaintext\) or "sha256"/],
    [entry({ key: undefined, sha256: 'ABC' }), /keys\[0\] \(k1\): "sha256" must be 64 lowercase hex digits/],
    [entry({ key: 'short' }), /keys\[0\] \(k1\): the key must be at least 16 characters/],
    [entry({ tenant: undefined }), /keys\[0\] \(k1\): a tenant key needs a tenant name/],
    [entry({ role: 'operator' }), /keys\[0\] \(k1\): an operator key acts for every tenant/],
    [entry({ role: 'root' }), /keys\[0\] \(k1\): role must be "tenant" or "operator"/],
  ])('credentials file %s is refused: %s', (text, message) => {
    const m = refusal(() => parseCredentialsFile(text, 'creds.json'));
    expect(m).toMatch(message);
    expect(m).not.toContain(KEY_A);
  });

  it('two entries with one key or one id are refused, naming the ids only', () => {
    const twice = parseApiKeysEnv(`${KEY_A}=tenant-a:tenant,${KEY_A}=tenant-b:tenant`);
    expect(refusal(() => new Credentials(twice))).toBe('keys "env-1" and "env-2" are the same key');
    const file = JSON.stringify({ keys: [{ id: 'k', role: 'operator', key: OPERATOR }, { id: 'k', role: 'operator', key: KEY_B }] });
    expect(refusal(() => new Credentials(parseCredentialsFile(file, 'f')))).toBe('two keys have the id "k"');
  });

  describe('npm start sources', () => {
    const FILE = JSON.stringify({ keys: [{ id: 'ops', role: 'operator', key: OPERATOR }] });
    const read = (p: string) => { if (p === 'creds.json') return FILE; throw Object.assign(new Error('no'), { code: 'ENOENT' }); };
    const start = (argv: string[], env: Record<string, string>) => startCredentials({ argv, env, readFile: read });

    it('development: sources add up; with none, a random operator token is generated', () => {
      const generated = start([], {});
      expect(generated.devToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(generated.credentials.authenticate(`Bearer ${generated.devToken}`)).toEqual({ role: 'operator', keyId: 'dev-token' });
      const all = start(['--credentials', 'creds.json'], { WOPKIT_API_KEYS: `${KEY_A}=tenant-a:tenant`, OPENWOP_HOST_TOKEN: KEY_B });
      expect(all.credentials.summary().map((p) => p.keyId)).toEqual(['ops', 'env-1', 'dev-token']);
      expect(all.devToken).toBe(KEY_B);
      expect(start([], { WOPKIT_CREDENTIALS_FILE: 'creds.json' }).devToken).toBeUndefined();
    });

    it('production (NODE_ENV=production or --production) needs a credentials file and refuses the development token', () => {
      for (const [argv, env] of [[[], { NODE_ENV: 'production' }], [['--production'], {}], [['--production'], { WOPKIT_API_KEYS: `${KEY_A}=tenant-a:tenant` }]] as const) {
        expect(refusal(() => start([...argv], { ...env }))).toMatch(/production mode .* needs a credentials file: --credentials <file\.json> or WOPKIT_CREDENTIALS_FILE/);
      }
      expect(refusal(() => start(['--production', '--credentials=creds.json'], { OPENWOP_HOST_TOKEN: KEY_B }))).toMatch(/OPENWOP_HOST_TOKEN is a development token and is refused in production/);
      const prod = start(['--production', '--credentials=creds.json'], {});
      expect(prod.production).toBe(true);
      expect(prod.devToken).toBeUndefined();
      expect(refusal(() => start(['--credentials', 'missing.json'], {}))).toBe('cannot read the credentials file missing.json: ENOENT');
      expect(refusal(() => start(['--credentials'], {}))).toMatch(/--credentials needs a file path/);
      expect(refusal(() => start(['--tokn'], {}))).toMatch(/unknown argument "--tokn"/);
    });

    it('the started host process refuses to start in production without a credentials file (exit 2, message on stderr)', async () => {
      const tsx = createRequire(import.meta.url).resolve('tsx/cli');
      const child = spawn(process.execPath, [tsx, 'runtime/host/main.ts'], { env: { ...process.env, NODE_ENV: 'production', PORT: '0', OPENWOP_HOST_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      let out = '';
      child.stderr.on('data', (c: Buffer) => { err += c.toString(); });
      child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      expect(code).toBe(2);
      expect(err).toContain('not starting: production mode (NODE_ENV=production or --production) needs a credentials file');
      expect(out).not.toContain('listening');
    }, 60_000);
  });
});

/** Top-level property names of a request schema (from its schema file, by the generated validator's $id). */
function requestProperties(title: NonNullable<CatalogueRoute['request']>): string[] {
  const { id } = validatorIndex[title];
  const [file, pointer] = id.replace('https://wopkit.dev/', '').split('#');
  let node = JSON.parse(readFileSync(file!, 'utf8')) as Record<string, unknown>;
  for (const seg of (pointer ?? '').split('/').filter(Boolean)) node = node[seg] as Record<string, unknown>;
  return Object.keys((node.properties ?? {}) as object);
}

describe('the catalogue roles', () => {
  it('tenant routes read only inputs the binding knows: a tenant-naming input is bound, every other one is neutral', () => {
    const tenantRoutes = ROWS.filter((r) => r.role === 'tenant' && r.public !== true);
    expect(tenantRoutes.map((r) => r.path)).toContain(ROUTES.runMemory.path);
    expect(validatorOf('RunForkRequest')).toBeTypeOf('function');
    const unbound = tenantRoutes.flatMap((r) => {
      const inputs = [...[...r.path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!), ...(r.query ?? []), ...(r.request !== undefined ? requestProperties(r.request) : [])];
      return inputs.filter((i) => !(i in BOUND_INPUTS) && !NEUTRAL_INPUTS.has(i)).map((i) => `${r.method} ${r.path}: ${i}`);
    });
    expect(unbound).toEqual([]);
    // The check sees what an operator route takes (not vacuous): the question seams name a question ref.
    expect(ROUTES.questionRead.query).toContain('ref');
    expect('ref' in BOUND_INPUTS || NEUTRAL_INPUTS.has('ref')).toBe(false);
  });

  it('fixture seams need an operator; the run routes, the read interface and the proposal review surface serve tenant keys', () => {
    const review = [ROUTES.proposals, ROUTES.proposal, ROUTES.proposalRevise, ROUTES.proposalArchive, ROUTES.proposalApply, ROUTES.proposalReject, ROUTES.proposalInstalled].map((r) => r.path);
    expect(ROWS.filter((r) => r.kind === 'seam' && r.role === 'tenant').map((r) => r.path).sort()).toEqual([ROUTES.memoryEntries.path, ROUTES.memoryEntry.path, ...review].sort());
    expect(ROWS.filter((r) => r.kind === 'protocol' && r.role === 'operator').map((r) => r.path).sort()).toEqual([ROUTES.inquiriumGenerate.path, ROUTES.inquiriumRespond.path].sort());
  });
});

describe('tenant keys over HTTP', () => {
  const as = async (app: FastifyInstance, key: string, route: CatalogueRoute, target: Parameters<typeof targetOf>[1] = {}, body?: unknown) => {
    const res = await app.inject({ method: route.method, url: targetOf(route, target), headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { payload: JSON.stringify(body) } : {}) });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  };
  const withHost = async (fn: (app: FastifyInstance) => Promise<void>) => {
    const { app } = await createHost({ credentials: keys() });
    try {
      await fn(app);
    } finally {
      await app.close();
    }
  };

  it('every operator route refuses a tenant key with 403 forbidden before doing anything; an operator key is let through', async () => {
    await withHost(async (app) => {
      for (const r of ROWS.filter((x) => x.role === 'operator')) {
        const body = r.method === 'POST' ? { memoryRef: 'mem://tenant-a/x', entries: [{ content: 'should never be stored' }] } : undefined;
        const t = await as(app, KEY_A, r, { params: { runId: 'run_1' } }, body);
        expect([t.status, t.body.error], r.path).toEqual([403, 'forbidden']);
        const o = await as(app, OPERATOR, r, { params: { runId: 'run_1' } }, body);
        expect([401, 403], r.path).not.toContain(o.status);
      }
      // Nothing was stored by the refused seed (the operator's seed above stored one entry, the tenant key's none).
      const read = await as(app, KEY_A, ROUTES.memoryEntries, { query: { memoryRef: 'mem://tenant-a/x' } });
      expect((read.body.entries as unknown[]).length).toBe(1);
    });
  });

  it('a tenant key reads its own tenant; naming another tenant or its memoryRef is 403 forbidden', async () => {
    await withHost(async (app) => {
      await as(app, OPERATOR, ROUTES.memorySeed, {}, { memoryRef: 'mem://tenant-a/notes', entries: [{ content: 'a note of tenant a' }] });
      await as(app, OPERATOR, ROUTES.memorySeed, {}, { memoryRef: 'mem://tenant-b/notes', entries: [{ content: 'a note of tenant b' }] });
      // Own tenant, named or by default.
      for (const query of [{ memoryRef: 'mem://tenant-a/notes' }, { tenant: 'tenant-a', memoryRef: 'mem://tenant-a/notes' }]) {
        expect((await as(app, KEY_A, ROUTES.memoryEntries, { query })).body).toMatchObject({ entries: [{ content: 'a note of tenant a' }] });
      }
      for (const query of [{ tenant: 'tenant-b', memoryRef: 'mem://tenant-b/notes' }, { memoryRef: 'mem://tenant-b/notes' }, { tenant: 'tenant-b', memoryRef: 'mem://tenant-a/notes' }]) {
        const r = await as(app, KEY_A, ROUTES.memoryEntries, { query });
        expect([r.status, r.body.error], JSON.stringify(query)).toEqual([403, 'forbidden']);
        expect(JSON.stringify(r.body)).not.toContain('a note of tenant b');
      }
      const one = await as(app, KEY_A, ROUTES.memoryEntry, { query: { memoryRef: 'mem://tenant-b/notes', id: 'x' } });
      expect(one.status).toBe(403);
      // The operator acting as tenant-a still gets CTI-1's empty read for tenant-b's ref (library behaviour).
      expect((await as(app, OPERATOR, ROUTES.memoryEntries, { query: { tenant: 'tenant-a', memoryRef: 'mem://tenant-b/notes' } })).body).toEqual({ entries: [] });
    });
  });

  it("another tenant's run is a 404 on every run route, the same answer as a run that does not exist; own runs work", async () => {
    await withHost(async (app) => {
      // The replay fixture's run belongs to tenant "conformance", not tenant-a.
      const fixture = await as(app, OPERATOR, ROUTES.replayFixture, {}, {});
      const runId = fixture.body.runId as string;
      const missing = await as(app, KEY_A, ROUTES.runEvents, { params: { runId: 'run_does_not_exist' } });
      expect(missing.status).toBe(404);
      for (const [route, body] of [[ROUTES.runEvents, undefined], [ROUTES.runMemory, undefined], [ROUTES.runFork, { fromSeq: 0 }]] as const) {
        for (const id of [runId, 'host-background']) {
          const r = await as(app, KEY_A, route, { params: { runId: id } }, body);
          expect(r, `${route.path} ${id}`).toEqual({ status: 404, body: { error: 'not_found', message: 'no such run' } });
        }
      }
      // The operator reads and forks any run.
      expect((await as(app, OPERATOR, ROUTES.runEvents, { params: { runId } })).status).toBe(200);
      expect((await as(app, OPERATOR, ROUTES.runFork, { params: { runId } }, { fromSeq: fixture.body.fromSeq })).status).toBe(201);
    });
  });

  it('a tenant key reads, forks and reads the fork of its own run', async () => {
    const { app } = await createHost({ credentials: new Credentials(parseApiKeysEnv(`${KEY_A}=conformance:tenant,${OPERATOR}=*:operator`)) });
    try {
      const fixture = await as(app, OPERATOR, ROUTES.replayFixture, {}, {});
      const runId = fixture.body.runId as string;
      const events = await as(app, KEY_A, ROUTES.runEvents, { params: { runId } });
      expect(events.status).toBe(200);
      const fork = await as(app, KEY_A, ROUTES.runFork, { params: { runId } }, { fromSeq: fixture.body.fromSeq });
      expect(fork.status).toBe(201);
      const read = await as(app, KEY_A, ROUTES.runMemory, { params: { runId: fork.body.runId as string }, query: { id: 'k' } });
      expect(read.body).toMatchObject({ content: 'v1' });
      // Its own fork, naming another tenant's ref: 403 at the binding (and [] in the library behind it).
      expect((await as(app, KEY_A, ROUTES.runMemory, { params: { runId: fork.body.runId as string }, query: { memoryRef: 'mem://victimx/private' } })).status).toBe(403);
    } finally {
      await app.close();
    }
  });
});
