/**
 * Review test (failing): the conformance scenario `multi-agent-escalation-resolve` passes a host whose approve is
 * broken. The host below is the reference host behind a proxy that turns every approve answer into a reject — so
 * no escalated decision is ever carried out. The scenario's only approve goes to a run answered concurrently with a
 * reject, so which one wins is not fixed, and it checks only that the recorded outcome and the dispatch agree:
 * "rejected, nothing dispatched" satisfies every assertion. Its title promises "approve dispatches".
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFrom } from '../../conformance/config.ts';
import { runSuite } from '../../conformance/run.ts';
import { createHost } from '../../runtime/host/server.ts';

const TOKEN = 'escalation-resolve-strength-token';
let app: FastifyInstance;
let proxy: Server;
let proxyUrl: string;

beforeAll(async () => {
  app = (await createHost({ token: TOKEN, seedConformanceFixtures: true, logger: false })).app;
  const upstream = await app.listen({ port: 0, host: '127.0.0.1' });
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks).toString();
      if (req.method === 'POST' && /^\/v1\/runs\/[^/]+\/interrupts\//.test(req.url ?? '')) {
        const parsed = JSON.parse(body) as { resumeValue?: { action?: string } };
        if (parsed.resumeValue?.action === 'approve' || parsed.resumeValue?.action === 'confirm') parsed.resumeValue.action = 'reject';
        body = JSON.stringify(parsed);
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection') headers[k] = v;
      void fetch(`${upstream}${req.url}`, { method: req.method, headers, ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }) }).then(async (r) => {
        const text = await r.text();
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      }, () => res.writeHead(502).end());
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => proxy.close(() => r()));
  await app.close();
});

describe('multi-agent-escalation-resolve', () => {
  it('fails a host that never carries out an approved escalation', async () => {
    const outcomes: string[] = [];
    // Several runs: whichever answer wins the race, the broken host must be caught every time.
    for (let i = 0; i < 5; i++) {
      const r = await runSuite(configFrom({}, { 'base-url': proxyUrl, 'api-key': TOKEN, strict: true, only: 'multi-agent-escalation-resolve' }));
      outcomes.push(r.scenarios[0]!.outcome);
    }
    expect(outcomes).toEqual(Array(5).fill('fail'));
  });
});
