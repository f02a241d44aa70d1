/** Loopback servers standing in for a host under test: a table of canned JSON routes, or any request handler. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** Serve `handler` on 127.0.0.1 for the duration of `fn(url)`, then close. */
export async function withServer(handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>, fn: (url: string) => Promise<void>): Promise<void> {
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  } finally {
    server.close();
  }
}

/** A discovery document advertising long-term agent memory only. */
export const LONG_TERM_DISCOVERY = { protocolVersion: '1.1', agents: { supported: true, memoryBackends: ['long-term'] } };

/**
 * A handler answering each path in `routes` with 200 and the JSON its function returns for the full request URL;
 * any other path gets `fallback` (status and body).
 */
export function jsonRoutes(routes: Record<string, (url: string) => unknown>, fallback: { status: number; body: unknown } = { status: 404, body: { error: 'not_found', message: 'no such entry' } }) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    res.setHeader('content-type', 'application/json');
    const url = req.url ?? '/';
    const route = routes[url.split('?')[0]!];
    if (route !== undefined) return void res.end(JSON.stringify(route(url)));
    res.statusCode = fallback.status;
    res.end(JSON.stringify(fallback.body));
  };
}
