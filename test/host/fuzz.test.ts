import { describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import fc from 'fast-check';
import { createHost } from '../../runtime/host/server.ts';
import { validateErrorEnvelope } from '../../generated/validators/validators.js';
import { ROUTES as CATALOGUE, targetOf } from '../../runtime/host/seam-catalogue.ts';

const TOKEN = 'fuzz-test-token-0123456789';
/** Every catalogue route as [method, a concrete path] (a path parameter gets a run id that does not exist, a ref nobody wrote, or a proposal nobody made). */
const ROUTES: [string, string][] = Object.values(CATALOGUE).map((r) => [r.method, targetOf(r, { params: { runId: 'run_1', memoryRef: 'mem://fuzz/nothing', proposalId: 'prop_1', nodeId: 'int_1' } })]);
const DISCOVERY = CATALOGUE.discovery.path;
const SEED = CATALOGUE.memorySeed.path;
const HOSTILE_REFS = ['mem://a/../b/c', 'mem://a/b\u0000', '../../etc/passwd', 'mem://A/b', `mem://a/${'x'.repeat(5000)}`, '%2e%2e', 'mem://a//b', '__proto__', 'constructor'];

describe('host robustness', () => {
  it('thousands of malformed, oversized and random requests: every error is a 4xx envelope, never a 5xx, and the server stays up', async () => {
    const { app } = await createHost({ token: TOKEN, bodyLimit: 64 * 1024 });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const seen = { total: 0, fiveHundreds: [] as string[], badEnvelopes: [] as string[] };
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
      fc.constantFrom('{', '{"memoryRef":', '[]', 'null', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '\u0000', ''),
      fc.record({ memoryRef: fc.constantFrom(...HOSTILE_REFS), condition: fc.constantFrom('time', 'predicate', 'x'), fromSeq: fc.integer(), confidence: fc.double(), ttlSeconds: fc.double(), entries: fc.array(fc.record({ content: fc.string(), ttlSeconds: fc.double() }), { maxLength: 3 }) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
    );
    const request = fc.record({
      route: fc.constantFrom(...ROUTES),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
      useRouteMethod: fc.boolean(),
      body,
      contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', ''),
      auth: fc.constantFrom(`Bearer ${TOKEN}`, `Bearer ${TOKEN}`, 'Bearer wrong', '', 'Basic abc'),
      query: fc.constantFrom('', '?tenant=a&memoryRef=mem%3A%2F%2Fa%2Fb', `?memoryRef=${encodeURIComponent(HOSTILE_REFS[0]!)}&id=x`, '?fromSeq=-1', '?fromSeq=abc', '?ref=%00', '?limit=1e309'),
      suffix: fc.constantFrom('', '/', '/x', '%2F..', ':fork', '::fork'),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const method = r.useRouteMethod ? r.route[0] : r.method;
        const res = await app.inject({
          method: method as 'GET',
          url: r.route[1] + r.suffix + r.query,
          headers: { ...(r.auth ? { authorization: r.auth } : {}), ...(r.contentType ? { 'content-type': r.contentType } : {}) },
          ...(method !== 'GET' && method !== 'HEAD' ? { payload: r.body } : {}),
        });
        seen.total++;
        if (res.statusCode >= 500) seen.fiveHundreds.push(`${method} ${r.route[1]}${r.suffix}${r.query} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (res.statusCode >= 400 && method !== 'HEAD' && !validateErrorEnvelope(JSON.parse(res.body || 'null'))) seen.badEnvelopes.push(`${method} ${r.route[1]} → ${res.body.slice(0, 100)}`);
      }),
      { numRuns: 3000 },
    );
    // Oversized bodies on every POST route.
    const big = JSON.stringify({ memoryRef: 'mem://a/b', pad: 'x'.repeat(200 * 1024) });
    for (const [m, path] of ROUTES.filter(([m]) => m === 'POST')) {
      const res = await app.inject({ method: m as 'POST', url: path, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, payload: big });
      seen.total++;
      expect(res.statusCode, path).toBe(413);
    }
    expect(seen.fiveHundreds).toEqual([]);
    expect(seen.badEnvelopes).toEqual([]);
    // The real server still answers over loopback.
    const live = await fetch(`${url}${DISCOVERY}`);
    expect(live.status).toBe(200);
    await app.close();
    expect(seen.total).toBeGreaterThan(3000);
  });
  it('raw malformed HTTP over loopback (bad framing, lying Content-Length, header bombs, random bytes): no 5xx, envelope on every answer, server alive', async () => {
    const { app } = await createHost({ token: TOKEN, bodyLimit: 64 * 1024 });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(url).port);
    /** Send raw bytes, collect what comes back until the server closes or 500 ms pass. */
    const raw = (bytes: Buffer | string) => new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      const sock = connect(port, '127.0.0.1');
      const done = () => { clearTimeout(timer); sock.destroy(); resolve(Buffer.concat(chunks).toString('latin1')); };
      const timer = setTimeout(done, 500);
      sock.on('data', (c) => chunks.push(c));
      sock.on('error', done);
      sock.on('close', done);
      sock.on('connect', () => sock.write(bytes, () => sock.end()));
    });
    const auth = `Authorization: Bearer ${TOKEN}\r\n`;
    const paths = ROUTES.map(([, p]) => p);
    const payload = fc.oneof(
      fc.uint8Array({ maxLength: 400 }).map((a) => Buffer.from(a)),
      fc.record({ path: fc.constantFrom(...paths), len: fc.constantFrom('-1', 'abc', '99999999999', '1e3', '5, 6', ''), body: fc.string({ maxLength: 50 }) })
        .map((r) => `POST ${r.path} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: ${r.len}\r\n\r\n${r.body}`),
      fc.record({ path: fc.constantFrom(...paths), chunk: fc.constantFrom('zz\r\n{}\r\n0\r\n\r\n', '2\r\n{}\r\n0\r\n\r\n', 'ffffffff\r\n{', '1\r\n{\r\n0\r\n\r\n') })
        .map((r) => `POST ${r.path} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${r.chunk}`),
      fc.record({ path: fc.constantFrom(...paths), method: fc.constantFrom('GET', 'POST', 'G\u0000T', 'BREW', ''), version: fc.constantFrom('HTTP/1.1', 'HTTP/9.9', 'HTTP/1.1 x', '') })
        .map((r) => `${r.method} ${r.path} ${r.version}\r\nHost: x\r\n${auth}\r\n`),
      fc.constantFrom(
        `GET ${DISCOVERY} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\n\r\n`,
        `POST ${SEED} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
        `POST ${SEED} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{"memoryRef":`,
        'GET / HTTP/1.1\r\n\r\n', '\r\n\r\n', 'GET /\u00ff HTTP/1.1\r\nHost: x\r\n\r\n',
      ),
    );
    const seen = { total: 0, answered: 0, fiveHundreds: [] as string[], badEnvelopes: [] as string[] };
    const samples = fc.sample(payload, { numRuns: 600, seed: 42 });
    for (let i = 0; i < samples.length; i += 50) {
      const answers = await Promise.all(samples.slice(i, i + 50).map((p) => raw(p)));
      for (const [j, a] of answers.entries()) {
        seen.total++;
        const m = /^HTTP\/1\.1 (\d{3})/.exec(a);
        if (m === null) continue; // the server closed without answering (e.g. an incomplete body) — allowed
        seen.answered++;
        const status = Number(m[1]);
        const sent = String(samples[i + j]).slice(0, 80);
        if (status >= 500) seen.fiveHundreds.push(`${JSON.stringify(sent)} → ${status}`);
        const body = a.slice(a.indexOf('\r\n\r\n') + 4);
        if (status >= 400 && !/Transfer-Encoding: chunked/i.test(a)) {
          let ok = false;
          try { ok = validateErrorEnvelope(JSON.parse(body)); } catch { ok = false; }
          if (!ok) seen.badEnvelopes.push(`${JSON.stringify(sent)} → ${status} ${body.slice(0, 100)}`);
        }
      }
    }
    expect(seen.fiveHundreds).toEqual([]);
    expect(seen.badEnvelopes).toEqual([]);
    expect(seen.answered).toBeGreaterThan(300);
    if (process.env.FUZZ_REPORT) console.log(JSON.stringify(seen.total), seen.answered);
    const live = await fetch(`${url}${DISCOVERY}`);
    expect(live.status).toBe(200);
    await app.close();
  });
  it('auth: every route but the public ones (discovery, openapi.json, /livez, /readyz) needs the Bearer token', async () => {
    const { app } = await createHost({ token: TOKEN });
    const publicPaths: string[] = Object.values(CATALOGUE).filter((r) => 'public' in r && r.public).map((r) => r.path);
    expect(publicPaths.sort()).toEqual([DISCOVERY, CATALOGUE.openapi.path, CATALOGUE.liveness.path, CATALOGUE.readiness.path].sort());
    for (const [m, path] of ROUTES) {
      const res = await app.inject({ method: m as 'GET', url: path, headers: { 'content-type': 'application/json' }, ...(m === 'POST' ? { payload: '{}' } : {}) });
      if (publicPaths.includes(path)) expect(res.statusCode, path).toBe(200);
      else expect(res.statusCode, path).toBe(401);
    }
    await app.close();
  });
  it('a served path with another method is a 405 envelope with Allow; an unknown path is a 404 envelope', async () => {
    const { app } = await createHost({ token: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const served = (path: string) => ROUTES.filter(([, p]) => p === path).map(([m]) => m);
    for (const [m, path] of ROUTES) {
      const other = m === 'GET' && !served(path).includes('DELETE') ? 'DELETE' : 'PUT';
      const res = await app.inject({ method: other, url: path, headers: auth });
      expect(res.statusCode, `${other} ${path}`).toBe(405);
      expect(res.json()).toMatchObject({ error: 'method_not_allowed' });
      expect(validateErrorEnvelope(res.json())).toBe(true);
      expect(res.headers.allow).toContain(m);
    }
    const unknown = await app.inject({ method: 'GET', url: '/v1/nothing/here', headers: auth });
    expect([unknown.statusCode, unknown.json().error]).toEqual([404, 'not_found']);
    await app.close();
  });
  it('deeply nested JSON within the body limit (arrays and objects, 50k-200k levels) on every POST route: never a 5xx, never a crash (replay-fixture ignores unknown keys and answers 200)', async () => {
    const { app } = await createHost({ token: TOKEN });
    const deepArr = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const deepObj = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    const bodies = [deepArr(200_000), deepObj(100_000), `{"memoryRef":"mem://t/a","entries":${deepArr(100_000)}}`, `{"turns":${deepArr(100_000)},"schema":"inquirium.generate.request.v1"}`, `{"memoryRef":"mem://t/a","entries":[{"content":"x","tags":${deepArr(50_000)}}]}`];
    for (const [m, path] of ROUTES.filter(([m]) => m === 'POST')) {
      for (const payload of bodies) {
        const res = await app.inject({ method: m as 'POST', url: path, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, payload });
        expect(res.statusCode, `${path} ${payload.slice(0, 30)}`).toBeLessThan(500);
      }
    }
    expect((await app.inject({ method: 'GET', url: DISCOVERY })).statusCode).toBe(200);
    await app.close();
  });
  it('refuses a short token at start-up', async () => {
    await expect(createHost({ token: 'short' })).rejects.toThrow(RangeError);
  });
});
