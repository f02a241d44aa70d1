/**
 * A standby forwards only to the published active host, whatever the request target looks like. Node hands the
 * raw request target to the app as `req.url`; a target in absolute form (`http://other/…`), network-path form
 * (`//other/…`) or with a leading backslash (`/\other/…`, read as `//other/…` by the URL parser for http URLs) must
 * not make the standby resolve it to another origin: that would turn every standby into an unauthenticated open
 * proxy that also hands the client's Authorization header to wherever the client points it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { forwardToActive } from '../../runtime/host/cluster/forward.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return (server.address() as AddressInfo).port;
}

/** Send `head` as the raw request (no client library normalises the target); resolves with the raw answer. */
function rawRequest(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.write(head));
    let out = '';
    s.on('data', (c: Buffer) => (out += c.toString()));
    s.on('close', () => resolve(out));
    s.on('error', reject);
  });
}

it('a request target naming another origin is never sent anywhere but the active host', async () => {
  const elsewhere: string[] = [];
  const other = await listen((req, res) => {
    elsewhere.push(`${req.url} (authorization: ${req.headers.authorization ?? 'none'})`);
    res.end('{"from":"elsewhere"}');
  });
  const reachedActive: string[] = [];
  const active = await listen((req, res) => {
    reachedActive.push(req.url ?? '');
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
  });
  const standby = await listen((req, res) => {
    void forwardToActive(req, res, { active: async () => ({ url: `http://127.0.0.1:${active}`, epoch: 1 }), self: 'http://standby.test', waitMs: 1_000, bodyLimitBytes: 1024, retryMs: 10 });
  });
  for (const target of [`//127.0.0.1:${other}/network-path`, `http://127.0.0.1:${other}/absolute-form`, `/\\127.0.0.1:${other}/backslash`]) {
    await rawRequest(standby, `GET ${target} HTTP/1.1\r\nHost: standby.test\r\nAuthorization: Bearer client-secret\r\nConnection: close\r\n\r\n`);
  }
  expect(elsewhere).toEqual([]);
});
