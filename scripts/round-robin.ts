/**
 * A round-robin HTTP proxy: each request goes to the next host in turn, method, path, headers and body as sent,
 * the answer streamed back as the host gave it. Stands for a load balancer in front of several host processes on one
 * database, so a client's consecutive requests (create a run, then read its events, then answer its interrupt) land
 * on different hosts — the test that every host can serve every request.
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobin {
  /** The proxy's origin, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** How many requests each target received, in target order. */
  readonly counts: readonly number[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

function forwardHeaders(msg: IncomingMessage): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(msg.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

/** Listen on 127.0.0.1 (an ephemeral port) and spread requests over `targets` (http origins) in turn. */
export async function roundRobin(targets: readonly string[]): Promise<RoundRobin> {
  if (targets.length === 0) throw new Error('roundRobin needs at least one target');
  const counts = targets.map(() => 0);
  let next = 0;
  const server: Server = createServer((req, res) => {
    const i = next++ % targets.length;
    counts[i]! += 1;
    const target = new URL(req.url ?? '/', targets[i]);
    const upstream = request(target, { method: req.method, headers: { ...forwardHeaders(req), host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, forwardHeaders(answer));
      answer.pipe(res);
    });
    upstream.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'bad_gateway', message: `host ${targets[i]} did not answer: ${e.message}` }));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
