/**
 * A standby's forwarding (runtime/host/cluster/forward.ts) against plain HTTP servers standing in for the active
 * host: relayed unchanged; retried only when provably not delivered (refused connection, a host that says it is
 * not the active one); never sent twice once delivered; 503 `unavailable` with Retry-After past the wait; 413 past
 * the body limit; a forwarded request never forwarded again.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BufferBudget, FORWARDED_HEADER, forwardToActive, sharedLookup, STANDBY_HEADER, type ForwardOptions } from '../../runtime/host/cluster/forward.ts';
import type { ActiveHost } from '../../runtime/storage/port.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void, port = 0): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** A free port nobody listens on (bound, then released). */
async function freePort(): Promise<number> {
  const { server } = await listen(() => undefined);
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  servers.splice(servers.indexOf(server), 1);
  return port;
}

/** A standby (a server whose every request goes through forwardToActive) with `o`. */
async function standby(o: Omit<ForwardOptions, 'self' | 'bodyLimitBytes' | 'waitMs'> & Partial<ForwardOptions>): Promise<string> {
  const self = await listen((req, res) => {
    void forwardToActive(req, res, { self: 'http://standby.test', waitMs: 2_000, bodyLimitBytes: 1024, retryMs: 10, ...o });
  });
  return self.url;
}

async function send(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; headers: Headers; body: string }> {
  const res = await fetch(url, { method: init.method ?? 'POST', ...(init.body !== undefined ? { body: init.body } : {}), headers: { 'content-type': 'application/json', ...init.headers } });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

const at = (url: string, epoch = 1): (() => Promise<ActiveHost>) => async () => ({ url, epoch });

describe('forwarding to the active host', () => {
  it('relays method, path, query, headers and body, and the answer unchanged', async () => {
    const seen: { method?: string; url?: string; auth?: string; forwarded?: string; body?: string } = {};
    const active = await listen((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        Object.assign(seen, { method: req.method, url: req.url, auth: req.headers.authorization, forwarded: req.headers[FORWARDED_HEADER], body });
        res.writeHead(201, { 'content-type': 'application/json', 'x-answer': 'yes' });
        res.end('{"ok":"ünïcödé"}');
      });
    });
    const url = await standby({ active: at(active.url) });
    const r = await send(`${url}/v1/things/1?x=2`, { body: '{"a":"ü"}', headers: { authorization: 'Bearer k' } });
    expect(r).toMatchObject({ status: 201, body: '{"ok":"ünïcödé"}' });
    expect(r.headers.get('x-answer')).toBe('yes');
    expect(seen).toEqual({ method: 'POST', url: '/v1/things/1?x=2', auth: 'Bearer k', forwarded: 'http://standby.test', body: '{"a":"ü"}' });
  });

  it('waits through a takeover: a refused connection is retried until the active host answers, and the request reaches it once', async () => {
    const port = await freePort();
    let hits = 0;
    const url = await standby({ active: at(`http://127.0.0.1:${port}`) });
    const pending = send(url, { body: '{}' });
    await new Promise((r) => setTimeout(r, 200)); // refused for a while: nothing listens yet
    await listen((_req, res) => {
      hits++;
      res.end('{}');
    }, port);
    expect((await pending).status).toBe(200);
    expect(hits).toBe(1);
  });

  it('retries a host that answers it is not the active one, then reaches the one that is', async () => {
    let standbyHits = 0;
    const other = await listen((_req, res) => {
      standbyHits++;
      res.writeHead(503, { [STANDBY_HEADER]: '1' }).end('{}');
    });
    const real = await listen((_req, res) => res.end('{"from":"active"}'));
    let reads = 0;
    const url = await standby({ active: async () => ({ url: reads++ < 2 ? other.url : real.url, epoch: reads }) });
    const r = await send(url, { body: '{}' });
    expect(r).toMatchObject({ status: 200, body: '{"from":"active"}' });
    expect(standbyHits).toBe(2);
  });

  it('answers 503 unavailable with Retry-After when no active host appears within the wait', async () => {
    const url = await standby({ active: async () => undefined, waitMs: 150 });
    const r = await send(url, { body: '{}' });
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(JSON.parse(r.body)).toMatchObject({ error: 'runner_unavailable' });
    expect(JSON.parse(r.body).message).toMatch(/no active host took the request within 150 ms/);
  });

  it('never sends a delivered request twice: the active host dying mid-request is a 503 saying the outcome is unknown', async () => {
    let hits = 0;
    const dying = await listen((req) => {
      hits++;
      req.socket.destroy(); // read the request, then die without answering
    });
    const url = await standby({ active: at(dying.url) });
    const r = await send(url, { body: '{"x":1}' });
    expect(r.status).toBe(503);
    expect(JSON.parse(r.body).message).toMatch(/may or may not have been applied/);
    expect(hits).toBe(1);
  });

  it('refuses a body past the limit itself (413), before forwarding anything', async () => {
    let hits = 0;
    const active = await listen((_req, res) => {
      hits++;
      res.end('{}');
    });
    const url = await standby({ active: at(active.url), bodyLimitBytes: 16 });
    const r = await send(url, { body: JSON.stringify({ pad: 'x'.repeat(64) }) });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ error: 'payload_too_large' });
    expect(hits).toBe(0);
  });

  it('a request that was already forwarded is answered 503 standby, not forwarded again (no loops between standbys)', async () => {
    let hits = 0;
    const active = await listen((_req, res) => {
      hits++;
      res.end('{}');
    });
    const url = await standby({ active: at(active.url) });
    const r = await send(url, { body: '{}', headers: { [FORWARDED_HEADER]: 'http://elsewhere.test' } });
    expect(r.status).toBe(503);
    expect(r.headers.get(STANDBY_HEADER)).toBe('1');
    expect(hits).toBe(0);
  });

  it('a GET without a body is forwarded as such', async () => {
    const active = await listen((req, res) => res.end(JSON.stringify({ method: req.method, length: req.headers['content-length'] })));
    const url = await standby({ active: at(active.url) });
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const out = request(`${url}/v1/x`, { method: 'GET' }, (answer) => {
        let body = '';
        answer.on('data', (c: Buffer) => (body += c.toString()));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
      });
      out.on('error', reject);
      out.end();
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ method: 'GET', length: '0' });
  });
});

describe('forwarding hygiene', () => {
  it('drops hop-by-hop headers and the ones Connection names, both ways, and adds x-forwarded-for', async () => {
    let seen: Record<string, unknown> = {};
    const active = await listen((req, res) => {
      seen = { ...req.headers };
      res.writeHead(200, { connection: 'x-inner', 'x-inner': 'hidden', 'x-kept': 'yes', 'keep-alive': 'timeout=5' });
      res.end('{}');
    });
    const url = await standby({ active: at(active.url) });
    const res = await new Promise<{ headers: Record<string, unknown> }>((resolve, reject) => {
      const out = request(`${url}/v1/x`, { method: 'POST', headers: { connection: 'close, x-secret', 'x-secret': 'do not pass', 'x-kept': 'yes', 'content-type': 'application/json' } }, (answer) => {
        answer.resume();
        answer.on('end', () => resolve({ headers: { ...answer.headers } }));
      });
      out.on('error', reject);
      out.end('{}');
    });
    expect(seen['x-secret']).toBeUndefined();
    expect(seen['x-kept']).toBe('yes');
    expect(seen['x-forwarded-for']).toBe('127.0.0.1');
    expect(res.headers['x-inner']).toBeUndefined();
    expect(res.headers['keep-alive']).toBeUndefined();
    expect(res.headers['x-kept']).toBe('yes');
  });

  it('a 503 names no internals: what the store or the network said goes to the log, not to the client', async () => {
    const logged: string[] = [];
    const url = await standby({ active: async () => { throw new Error('password authentication failed for user "wopkit" at 10.1.2.3:5432'); }, waitMs: 100, log: (d, m) => logged.push(`${m} ${JSON.stringify(d)}`) });
    const r = await send(url, { body: '{}' });
    expect(r.status).toBe(503);
    expect(r.body).not.toMatch(/password|wopkit|10\.1\.2\.3/);
    expect(logged.join('\n')).toMatch(/password authentication failed/);
  });

  it('holds at most the buffered-bytes budget across waiting requests: past it a request is refused with 503 at once', async () => {
    const budget = new BufferBudget(100);
    const url = await standby({ active: async () => undefined, waitMs: 400, buffered: budget, bodyLimitBytes: 1024 });
    const first = send(url, { body: JSON.stringify({ pad: 'x'.repeat(60) }) }); // waits, holding ~70 bytes
    await new Promise((r) => setTimeout(r, 100));
    expect(budget.used).toBeGreaterThan(60);
    const second = await send(url, { body: JSON.stringify({ pad: 'y'.repeat(60) }) });
    expect(second.status).toBe(503);
    expect(JSON.parse(second.body).message).toMatch(/too many forwarded requests/);
    expect((await first).status).toBe(503); // no active host: the wait ran out
    expect(budget.used).toBe(0);
  });

  it('holds at most the budget\'s number of requests, bodies or not', async () => {
    const budget = new BufferBudget(1024, 2);
    const url = await standby({ active: async () => undefined, waitMs: 300, buffered: budget });
    const waiting = [send(url, { body: '{}' }), send(url, { body: '{}' })];
    await new Promise((r) => setTimeout(r, 100));
    expect(budget.requests).toBe(2);
    const third = await send(url, { body: '{}' });
    expect(third.status).toBe(503);
    expect(JSON.parse(third.body).message).toMatch(/too many forwarded requests/);
    await Promise.all(waiting);
    expect(budget.requests).toBe(0);
  });

  it('the lookup of the active host is shared: many waiting requests make one query per interval', async () => {
    let lookups = 0;
    const shared = sharedLookup(async () => {
      lookups++;
      return undefined;
    }, 1_000);
    await Promise.all(Array.from({ length: 50 }, () => shared()));
    expect(lookups).toBe(1);
    const failing = sharedLookup(async () => {
      lookups++;
      throw new Error('down');
    }, 1_000);
    await expect(failing()).rejects.toThrow('down');
    await expect(failing()).rejects.toThrow('down');
    expect(lookups).toBe(3); // a failed lookup is not kept
  });
});
