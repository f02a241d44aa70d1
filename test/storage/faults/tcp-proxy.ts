/**
 * A TCP proxy on 127.0.0.1 between a store and its PostgreSQL server, so a test can do to a connection what a network
 * does: `cut()` closes every client-side socket at once while the server side stays open (the server does not notice
 * until it writes: a COMMIT it is running completes), and `hold` keeps a client's bytes from the server for a while
 * (a client paused inside its transaction, as the server sees it), and `loseReply` drops the server's answer that
 * matches and closes that client's socket (a COMMIT done, its answer lost on the way).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The server URL with its host and port replaced by the proxy's. */
  readonly url: string;
  /** Close every client-side socket now (the server side stays open, its output discarded). */
  cut(): void;
  /** From now on, a client chunk that matches `when` (and everything after it on that socket) reaches the server `ms` later. */
  hold(when: (chunk: Buffer) => boolean, ms: number): void;
  /** The next server chunk that matches `when` is dropped, and its client's socket closed. */
  loseReply(when: (chunk: Buffer) => boolean): void;
  close(): Promise<void>;
}

export async function tcpProxy(serverUrl: string): Promise<TcpProxy> {
  const target = new URL(serverUrl);
  const clients = new Set<Socket>();
  const upstreams = new Set<Socket>();
  let holdRule: { when: (chunk: Buffer) => boolean; ms: number } | undefined;
  let loseRule: ((chunk: Buffer) => boolean) | undefined;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    clients.add(client);
    upstreams.add(upstream);
    let heldUntil = 0;
    let queue = Promise.resolve();
    client.on('data', (chunk: Buffer) => {
      if (holdRule !== undefined && heldUntil === 0 && holdRule.when(chunk)) heldUntil = Date.now() + holdRule.ms;
      const wait = Math.max(0, heldUntil - Date.now());
      queue = queue.then(() => (wait > 0 ? new Promise((r) => setTimeout(r, wait)) : undefined)).then(() => void (upstream.destroyed || upstream.write(chunk)));
    });
    upstream.on('data', (chunk: Buffer) => {
      if (loseRule?.(chunk) === true) {
        loseRule = undefined;
        client.destroy();
        return;
      }
      if (!client.destroyed) client.write(chunk);
    });
    client.on('close', () => clients.delete(client));
    upstream.on('close', () => {
      upstreams.delete(upstream);
      client.destroy();
    });
    client.on('error', () => undefined);
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address');
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    cut: () => {
      for (const c of clients) c.destroy();
    },
    hold: (when, ms) => {
      holdRule = { when, ms };
    },
    loseReply: (when) => {
      loseRule = when;
    },
    close: async () => {
      for (const c of clients) c.destroy();
      for (const u of upstreams) u.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
