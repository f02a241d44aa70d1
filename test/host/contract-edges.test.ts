/**
 * Issue 32 part 3: every answer at the edges of HTTP is in the contract — the error envelope, a status the OpenAPI
 * document declares, and the key checked before anything else.
 *
 * - a repeated query parameter is a 400 naming it (never an array reaching a handler or the store);
 * - integers are converted once, from the parameter table (route-validation.ts): a non-integer or out-of-range value
 *   is a 400 naming the parameter, an integer reaches the handler as a number;
 * - a malformed percent escape or an over-long path segment: 401 without a key, then a 400 envelope;
 * - OPTIONS on every served path: 204 + Allow (no key), Allow equal to the document's; any other method 405 + the
 *   same Allow after the key (401 without); HEAD on a path without GET is a 405 too;
 * - a chunked body over the limit: 413 envelope, then the connection closes, the answer readable in full;
 * - a tenant key on an operator route with an invalid body is refused for the key (403), not the body.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Credentials, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { createHost, type Host } from '../../runtime/host/server.ts';
import { checkParameter, integerOf } from '../../runtime/host/route-validation.ts';
import { ROUTES, targetOf, pathParametersOf, type CatalogueRoute } from '../../runtime/host/seam-catalogue.ts';
import { validateErrorEnvelope } from '../../generated/validators/validators.js';
import { allowOfTemplate, checkAnswer } from '../interop/openapi-oracle.ts';

const TENANT = 'edges-tenant-key-0123456789';
const OPERATOR = 'edges-operator-key-0123456789';
const op = { authorization: `Bearer ${OPERATOR}` };
let host: Host;

beforeAll(async () => {
  host = await createHost({ credentials: new Credentials(parseApiKeysEnv(`${TENANT}=acme:tenant,${OPERATOR}=*:operator`)), bodyLimit: 4096, logger: false });
});
afterAll(async () => host.app.close());

const routes = Object.values(ROUTES) as CatalogueRoute[];
const concrete = (r: CatalogueRoute) => targetOf(r, { params: Object.fromEntries(pathParametersOf(r.path).map((p) => [p, p === 'memoryRef' ? 'mem://acme/x' : `no-such-${p}`])) });

describe('query parameters are checked once, from the table', () => {
  it('a repeated parameter on every route that reads one is a 400 naming it, declared by the document', async () => {
    let probed = 0;
    for (const r of routes.filter((x) => (x.query ?? []).length > 0)) {
      for (const name of r.query!) {
        const url = `${concrete(r)}${concrete(r).includes('?') ? '&' : '?'}${name}=a&${name}=a`;
        const res = await host.app.inject({ method: r.method, url, headers: op });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().details.failures.map((f: { instancePath: string }) => f.instancePath), url).toContain(`/${name}`);
        expect(checkAnswer(r.method, url, res.statusCode, res.json())).toBeUndefined();
        probed++;
      }
    }
    expect(probed).toBeGreaterThan(15);
  });

  it('integer parameters: a decimal safe integer in range converts, anything else is refused (property)', () => {
    fc.assert(fc.property(fc.oneof(fc.integer({ min: -5, max: 2000 }).map(String), fc.string({ maxLength: 20 }), fc.constantFrom('1e3', '0x10', ' 5', '5 ', '+5', '1.0', '99999999999999999', '')), (raw) => {
      const r = checkParameter('limit', raw);
      const n = integerOf(raw);
      const ok = n !== undefined && n >= 1 && n <= 1000;
      expect('value' in r).toBe(ok);
      if ('value' in r) expect(r.value).toBe(n);
      else expect(r.failure.instancePath).toBe('/limit');
    }), { numRuns: 500 });
  });

  it('the events page reads limit and fromSeq as numbers; a bad one is a 400 envelope naming it', async () => {
    for (const q of ['limit=0', 'limit=abc', 'limit=1001', 'fromSeq=-1', 'fromSeq=1.5', 'fromSeq=99999999999999999']) {
      const res = await host.app.inject({ method: 'GET', url: `/v1/runs/r1/events?${q}`, headers: op });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().details.failures[0].instancePath, q).toBe(`/${q.split('=')[0]}`);
    }
    // A proposal filter outside its enum is refused by the corpus validator the table names.
    const bad = await host.app.inject({ method: 'GET', url: `${ROUTES.proposals.path}?state=nonsense`, headers: op });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.failures[0].instancePath).toBe('/state');
  });
});

describe('the request target', () => {
  it('a malformed percent escape or an over-long segment: 401 without a key, else a 400 envelope', async () => {
    for (const url of ['/v1/runs/%zz', '/v1/runs/%E0%A4%A', `/v1/runs/${'a'.repeat(600)}`, `/v1/memory/${'m'.repeat(2000)}`]) {
      const anon = await host.app.inject({ method: 'GET', url });
      expect(anon.statusCode, url).toBe(401);
      expect(validateErrorEnvelope(anon.json())).toBe(true);
      const keyed = await host.app.inject({ method: 'GET', url, headers: op });
      expect(keyed.statusCode, url).toBe(400);
      expect(keyed.json().error).toBe('bad_request');
      expect(checkAnswer('GET', url, keyed.statusCode, keyed.json())).toBeUndefined();
    }
  });
});

describe('methods', () => {
  const paths = [...new Set(routes.map((r) => r.path))];
  it('OPTIONS on every path: 204 + Allow without a key, Allow equal to the document\'s', async () => {
    for (const path of paths) {
      const r = routes.find((x) => x.path === path)!;
      const res = await host.app.inject({ method: 'OPTIONS', url: concrete(r) });
      expect(res.statusCode, path).toBe(204);
      expect(res.headers.allow, path).toBe(allowOfTemplate(path));
    }
  });

  it('any other method: 401 without a key, else 405 + the same Allow in the envelope (HEAD where there is no GET too)', async () => {
    let probed = 0;
    for (const path of paths) {
      const r = routes.find((x) => x.path === path)!;
      const allow = allowOfTemplate(path)!;
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !allow.split(', ').includes(m))) {
        const anon = await host.app.inject({ method: method as 'PUT', url: concrete(r) });
        if (!(r as { public?: true }).public) expect(anon.statusCode, `${method} ${path}`).toBe(401);
        const res = await host.app.inject({ method: method as 'PUT', url: concrete(r), headers: op });
        expect(res.statusCode, `${method} ${path}`).toBe(405);
        expect(res.headers.allow).toBe(allow);
        if (method !== 'HEAD') expect(checkAnswer(method, concrete(r), 405, res.json(), res.headers.allow as string)).toBeUndefined();
        probed++;
      }
    }
    expect(probed).toBeGreaterThan(100);
  });

  it('a tenant key on an operator route with an invalid body is refused for its key (403), not for the body', async () => {
    const res = await host.app.inject({ method: 'POST', url: ROUTES.memorySeed.path, headers: { authorization: `Bearer ${TENANT}`, 'content-type': 'application/json' }, payload: '{"nonsense":1}' });
    expect(res.statusCode).toBe(403);
  });
});

describe('bodies over the limit', () => {
  it('a chunked body over the limit: a 413 envelope read in full, then the connection closes', async () => {
    const url = await host.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(url).port);
    for (const kib of [8, 256, 4096]) {
      const answer = await new Promise<string>((resolve) => {
        const chunks: Buffer[] = [];
        const sock = connect(port, '127.0.0.1');
        const timer = setTimeout(() => sock.destroy(), 10_000);
        sock.on('data', (c) => chunks.push(c));
        sock.on('error', () => undefined);
        sock.on('close', () => {
          clearTimeout(timer);
          resolve(Buffer.concat(chunks).toString('latin1'));
        });
        sock.on('connect', () => {
          sock.write(`POST ${ROUTES.memorySeed.path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${OPERATOR}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
          const frame = Buffer.concat([Buffer.from('400\r\n'), Buffer.alloc(1024, 120), Buffer.from('\r\n')]);
          let sent = 0;
          const pump = (): void => {
            while (sent < kib) {
              sent++;
              if (!sock.write(frame)) return void sock.once('drain', pump);
            }
            sock.write('0\r\n\r\n');
          };
          pump();
        });
      });
      expect(answer, `${kib} KiB`).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.toLowerCase()).toContain('connection: close');
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      expect(body.error).toBe('payload_too_large');
      expect(validateErrorEnvelope(body)).toBe(true);
    }
  });
});

describe('a closing host', () => {
  it('answers a request still arriving on an open connection with the 503 envelope and Retry-After, not Fastify\'s own body', async () => {
    const h = await createHost({ credentials: new Credentials(parseApiKeysEnv(`${OPERATOR}=*:operator`)), logger: false });
    const url = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const sock = connect(Number(new URL(url).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    sock.on('data', (c) => chunks.push(c));
    const closed = new Promise<void>((resolve) => sock.on('close', () => resolve()));
    await new Promise<void>((resolve) => sock.on('connect', () => resolve()));
    // A request whose body is still coming keeps the connection busy (not idle), so closing does not reap it.
    sock.write(`POST ${ROUTES.memorySeed.path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${OPERATOR}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{`);
    await new Promise((r) => setTimeout(r, 100));
    const closing = h.app.close();
    await new Promise((r) => setTimeout(r, 100));
    sock.write(`}GET ${ROUTES.agents.path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${OPERATOR}\r\n\r\n`);
    await Promise.race([closed, new Promise((r) => setTimeout(r, 3_000))]);
    sock.destroy();
    await closing;
    const answers = Buffer.concat(chunks).toString('latin1').split(/(?=HTTP\/1\.1 )/);
    const second = answers[1] ?? '';
    expect(second, answers.join('\n---\n')).toMatch(/^HTTP\/1\.1 503 /);
    expect(second.toLowerCase()).toContain('retry-after: 1');
    const body = JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4));
    expect(body.error).toBe('runner_unavailable');
    expect(validateErrorEnvelope(body)).toBe(true);
  });
});

describe('the readiness probe', () => {
  it('its 503 (draining) is a HostHealth, as the document declares for that status', async () => {
    const h = await createHost({ token: 'readiness-edges-token-0123456789', logger: false });
    try {
      await h.drain();
      const res = await h.app.inject({ method: 'GET', url: ROUTES.readiness.path });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', reason: 'draining' });
      expect(checkAnswer('GET', ROUTES.readiness.path, 503, res.json())).toBeUndefined();
    } finally {
      await h.app.close();
    }
  });
});

describe('headers the table names', () => {
  it('a malformed x-inquirium-session is a 400 naming it; a well-formed or absent one passes to the route', async () => {
    const url = ROUTES.inquiriumGenerate.path;
    const headers = { ...op, 'content-type': 'application/json' };
    // A valid generate request (the corpus example), so that only the header can be wrong (Fastify checks the body first).
    const { $schema: _editor, ...payload } = JSON.parse(readFileSync('schemas/inquirium/v1/examples/inquirium.generate.request.v1/valid/minimal-defaults.json', 'utf8')) as Record<string, unknown>;
    const bad = await host.app.inject({ method: 'POST', url, headers: { ...headers, 'x-inquirium-session': 'not a session' }, payload });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.failures[0].instancePath).toBe('/x-inquirium-session');
    expect(checkAnswer('POST', url, 400, bad.json())).toBeUndefined();
    for (const h of [{}, { 'x-inquirium-session': 'session:edges-1' }]) {
      const res = await host.app.inject({ method: 'POST', url, headers: { ...headers, ...h }, payload });
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(res.body).not.toContain('x-inquirium-session');
      expect(checkAnswer('POST', url, res.statusCode, res.json())).toBeUndefined();
    }
  });
});
