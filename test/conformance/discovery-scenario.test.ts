/**
 * The discovery scenario (conformance/scenarios/discovery.ts) passes the reference host and fails a host that breaks
 * any one upstream discovery MUST: a tampering proxy in front of the reference host drops Cache-Control, keeps the
 * OpenAPI document behind the key, answers a matching If-None-Match with 200, sends a capabilities mirror that
 * disagrees with the root, drops a required root member, or declares OpenAPI 3.0.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { configFrom } from '../../conformance/config.ts';
import { runSuite } from '../../conformance/run.ts';

const TOKEN = 'discovery-scenario-token-0123456789';
type Tamper = 'none' | 'no-cache-control' | 'openapi-needs-key' | 'ignores-if-none-match' | 'mirror-disagrees' | 'no-limits' | 'openapi-3-0';

/** A proxy in front of the reference host that breaks one MUST (the current `tamper`). */
function tamperingProxy(app: FastifyInstance, tamper: () => Tamper): Server {
  return createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const mode = tamper();
    const headers = { ...req.headers } as Record<string, string>;
    if (mode === 'ignores-if-none-match') delete headers['if-none-match'];
    const path = (req.url ?? '/').split('?')[0];
    if (mode === 'openapi-needs-key' && path === ROUTES.openapi.path && headers.authorization === undefined) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unauthorized', message: 'a valid Bearer token is required' }));
      return;
    }
    const r = await app.inject({ method: req.method as 'GET', url: req.url ?? '/', headers, ...(chunks.length > 0 ? { payload: Buffer.concat(chunks) } : {}) });
    const out = { ...r.headers } as Record<string, string>;
    let body = r.rawPayload;
    if (mode === 'no-cache-control') delete out['cache-control'];
    const rewrite = (f: (doc: Record<string, unknown>) => void) => {
      const doc = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      f(doc);
      body = Buffer.from(JSON.stringify(doc));
      delete out.etag; // the tag was the hash of the original body
    };
    if (r.statusCode === 200 && path === ROUTES.discovery.path) {
      if (mode === 'mirror-disagrees') rewrite((d) => ((d.capabilities as Record<string, unknown>).protocolVersion = '9.9'));
      if (mode === 'no-limits') rewrite((d) => delete d.limits);
    }
    if (r.statusCode === 200 && path === ROUTES.openapi.path && mode === 'openapi-3-0') rewrite((d) => (d.openapi = '3.0.3'));
    delete out['content-length'];
    delete out['transfer-encoding'];
    res.writeHead(r.statusCode, out).end(body);
  });
}

describe('the discovery scenario fails a host that breaks an upstream discovery MUST', () => {
  let app: FastifyInstance;
  let proxy: Server;
  let url = '';
  let mode: Tamper = 'none';

  beforeAll(async () => {
    ({ app } = await createHost({ token: TOKEN }));
    proxy = tamperingProxy(app, () => mode);
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    proxy?.close();
    await app?.close();
  });

  const run = async () => (await runSuite(configFrom({}, { 'base-url': url, 'api-key': TOKEN, only: 'discovery-upstream-musts', strict: true }))).scenarios[0]!;

  it('passes the reference host (every assertion made, none failed)', async () => {
    mode = 'none';
    const s = await run();
    expect(s.failures).toEqual([]);
    expect(s.outcome).toBe('pass');
    expect(s.assertions).toBeGreaterThan(10);
  });

  it.each<[Tamper, RegExp]>([
    ['no-cache-control', /Cache-Control/],
    ['openapi-needs-key', /openapi\.json without a key/],
    ['ignores-if-none-match', /If-None-Match/],
    ['mirror-disagrees', /capabilities\.protocolVersion mirrors the root/],
    ['no-limits', /does not match Capabilities/],
    ['openapi-3-0', /not 3\.1 or later|does not match OpenApiDocument/],
  ])('fails when the host breaks it: %s', async (tamper, message) => {
    mode = tamper;
    const s = await run();
    expect(s.outcome).toBe('fail');
    expect(s.failures.join('\n')).toMatch(message);
  });
});
