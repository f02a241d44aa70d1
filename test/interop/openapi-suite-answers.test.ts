/**
 * Issue 24: every response the conformance suite receives from the reference host (errors included) is one the
 * OpenAPI document declares for that operation and status, with a body matching the document's schema for it. The
 * whole suite runs, strict, through a recording proxy in front of a host with the conformance fixtures seeded.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHost } from '../../runtime/host/server.ts';
import { configFrom } from '../../conformance/config.ts';
import { runSuite } from '../../conformance/run.ts';
import { checkAnswer } from './openapi-oracle.ts';

const TOKEN = 'openapi-suite-answers-token-0123456789';

interface Answer { method: string; path: string; status: number; body: unknown }

describe('the conformance suite against the reference host: every answer is in the OpenAPI document', () => {
  let app: FastifyInstance;
  let proxy: Server;
  const answers: Answer[] = [];

  beforeAll(async () => {
    ({ app } = await createHost({ token: TOKEN, seedConformanceFixtures: true }));
    const upstream = await app.listen({ port: 0, host: '127.0.0.1' });
    proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const r = await fetch(`${upstream}${req.url}`, {
        method: req.method,
        headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length' && k !== 'connection').map(([k, v]) => [k, String(v)])),
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const text = await r.text();
      answers.push({ method: req.method ?? 'GET', path: req.url ?? '/', status: r.status, body: text === '' ? null : (JSON.parse(text) as unknown) });
      res.writeHead(r.status, Object.fromEntries([...r.headers].filter(([k]) => k !== 'content-length' && k !== 'transfer-encoding' && k !== 'content-encoding'))).end(text);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    proxy?.close();
    await app?.close();
  });

  it('runs the whole suite (strict, all pass) and checks each of its answers against the document', async () => {
    const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    const results = await runSuite(configFrom({}, { 'base-url': url, 'api-key': TOKEN, strict: true }));
    expect(results.summary.fail).toBe(0);
    expect(answers.length).toBeGreaterThan(100);
    const statuses = new Set(answers.map((a) => a.status));
    for (const s of [200, 201, 304, 400, 404, 409, 422]) expect(statuses, `the suite met a ${s}`).toContain(s);
    const problems = answers.map((a) => checkAnswer(a.method, a.path, a.status, a.body)).filter((p) => p !== undefined);
    expect([...new Set(problems)]).toEqual([]);
  }, 180_000);
});
