import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { CompactResponse, EntriesResponse, RunEventsResponse, SeedResponse } from '../../conformance/seam-schemas.ts';
import { configFrom } from '../../conformance/config.ts';
import { runSuite } from '../../conformance/run.ts';

const entry = { id: 'mem-1', content: 'x', tags: [], createdAt: '2026-11-22T00:00:00.000Z' };

describe('seam response schemas (generated from schemas/openwop/v1)', () => {
  it('accept the documented shapes', () => {
    expect(EntriesResponse({ entries: [entry] })).toBe(true);
    expect(SeedResponse({ memoryRef: 'mem://t/a', runId: 'r', entries: [entry] })).toBe(true);
    expect(RunEventsResponse({ runId: 'r', events: [] })).toBe(true);
  });
  it('reject missing keys and invalid nested spec objects, with pointers', () => {
    expect(EntriesResponse({ entries: [{ ...entry, id: 5 }] })).toBe(false);
    expect(EntriesResponse.errors?.[0]?.instancePath).toMatch(/^\/entries\/0/);
    expect(EntriesResponse({ entries: [], diagnostics: { tookMs: 1 } })).toBe(true); // responses are open: hosts may add diagnostics
    expect(SeedResponse({ memoryRef: 'mem://t/a', entries: [] })).toBe(false);
    expect(RunEventsResponse({ runId: 'r', events: [{ type: 'memory.compacted' }] })).toBe(false);
    expect(CompactResponse({ compactionRunId: 'c', event: { memoryRef: 'mem://t/a' }, output: entry })).toBe(false);
    expect(EntriesResponse([])).toBe(false);
  });
});

describe('a host whose seam bodies are off-schema fails the scenario', () => {
  it('an entries list with a malformed entry fails the CTI-1 scenario', async () => {
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      const path = (req.url ?? '').split('?')[0];
      if (path === '/.well-known/openwop') return void res.end(JSON.stringify({ protocolVersion: '1.1', agents: { supported: true, memoryBackends: ['long-term'] } }));
      if (path === '/v1/host/sample/memory/seed') return void res.end(JSON.stringify({ memoryRef: 'mem://t/a', runId: 'r', entries: [entry] }));
      if (path === '/v1/host/sample/memory/entries') return void res.end(JSON.stringify({ entries: req.url!.includes('tenant-a-probe') ? [] : [{ id: 'mem-1', content: 'x' }] }));
      res.statusCode = 404;
      res.end(JSON.stringify({ error: 'not_found', message: 'no such entry' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const r = await runSuite(configFrom({}, { 'base-url': url, strict: true, only: 'agent-memory-cross-tenant-isolation' }));
      expect(r.scenarios[0]!.outcome).toBe('fail');
      expect(r.scenarios[0]!.failures.join('\n')).toMatch(/does not match its schema/);
    } finally {
      server.close();
    }
  });
  it('a success where a refusal was due is a failure even though no schema was named for it', async () => {
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      const path = (req.url ?? '').split('?')[0];
      if (path === '/.well-known/openwop') return void res.end(JSON.stringify({ protocolVersion: '1.1', agents: { supported: true, memoryBackends: ['long-term'] } }));
      if (path === '/v1/host/sample/memory/seed') return void res.end(JSON.stringify({ memoryRef: 'mem://t/a', runId: 'r', entries: [entry] }));
      if (path === '/v1/host/sample/memory/entries') return void res.end(JSON.stringify({ entries: req.url!.includes('tenant-a-probe') ? [] : [entry] }));
      // CTI-1 violation: tenant A's get of tenant B's entry answers 200.
      if (path === '/v1/host/sample/memory/entry') return void res.end(JSON.stringify(entry));
      res.statusCode = 404;
      res.end(JSON.stringify({ error: 'not_found', message: 'no such entry' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const r = await runSuite(configFrom({}, { 'base-url': url, strict: true, only: 'agent-memory-cross-tenant-isolation' }));
      expect(r.scenarios[0]!.outcome).toBe('fail');
      expect(r.scenarios[0]!.failures.join('\n')).toMatch(/named no success schema|tenant A get/);
    } finally {
      server.close();
    }
  });
  it('a seam answering a generic 404 or 501 is blocked (lenient) and fails (strict), never a pass', async () => {
    for (const status of [404, 501]) {
      const server = createServer((req, res) => {
        res.setHeader('content-type', 'application/json');
        if (req.url === '/.well-known/openwop') return void res.end(JSON.stringify({ protocolVersion: '1.1', agents: { supported: true, memoryBackends: ['long-term'] } }));
        res.statusCode = status;
        res.end(JSON.stringify(status === 404 ? { error: 'not_found', message: 'Not Found' } : { error: 'capability_not_provided', message: 'no', details: { capability: 'memory' } }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      try {
        const lenient = await runSuite(configFrom({}, { 'base-url': url, only: 'agent-memory-redaction' }));
        expect(lenient.scenarios[0]).toMatchObject({ outcome: 'skip', skipClass: 'blocked' });
        expect(lenient.scenarios[0]!.reason).toContain(`answered ${status}`);
        const strict = await runSuite(configFrom({}, { 'base-url': url, strict: true, only: 'agent-memory-redaction' }));
        expect(strict.scenarios[0]!.outcome).toBe('fail');
      } finally {
        server.close();
      }
    }
  });
});
