/**
 * Issue 12 item 5: a client that is slow, stalls or idles cannot hold a socket of the reference host. Over a real
 * loopback socket, with short configured timeouts: a body shorter than its Content-Length, a body trickled byte by
 * byte, headers that never end and an idle keep-alive connection each end within the configured time — the first
 * three with a 408 error envelope, then a close; the last with a close — and a refused request stores nothing.
 *
 * Every exchange has a test-level deadline well under the test timeout, so a host without timeouts fails here by
 * "no answer came" rather than by hanging the suite.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateErrorEnvelope } from '../../generated/validators/validators.js';
import type { HostRuntime } from '../../runtime/host/host-runtime.ts';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import type { StoragePort } from '../../runtime/storage/index.ts';
import { inUnit } from '../support/in-unit.ts';

const TOKEN = 'slow-requests-test-token-0123456789';
const TIMEOUT_MS = 300;
/** How long after the configured timeout an answer may still come (timer granularity, a loaded 2-core machine). */
const SLACK_MS = 1500;
/** Give up on an exchange after this long: a host without timeouts would hold the socket far longer. */
const DEADLINE_MS = 4000;
const SEED = ROUTES.memorySeed.path;

interface Exchange {
  /** Everything the server sent, latin1. */
  readonly received: string;
  /** Ms from connect to the server's first byte (undefined: it sent nothing). */
  readonly firstByteAfterMs: number | undefined;
  /** Ms from connect to the server closing the socket (undefined: still open at the deadline). */
  readonly closedAfterMs: number | undefined;
}

/** Connect, then write `parts` one after another `gapMs` apart (never ending the socket ourselves), and record what happens until `deadlineMs`. */
function exchange(port: number, parts: readonly string[], { gapMs = 0, deadlineMs = DEADLINE_MS } = {}): Promise<Exchange> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const t0 = Date.now();
    let firstByteAfterMs: number | undefined;
    let closedAfterMs: number | undefined;
    const sock = connect(port, '127.0.0.1');
    const timers: NodeJS.Timeout[] = [];
    const finish = () => {
      for (const t of timers) clearTimeout(t);
      sock.destroy();
      resolve({ received: Buffer.concat(chunks).toString('latin1'), firstByteAfterMs, closedAfterMs });
    };
    timers.push(setTimeout(finish, deadlineMs));
    sock.on('data', (c) => {
      firstByteAfterMs ??= Date.now() - t0;
      chunks.push(c);
    });
    sock.on('error', () => undefined);
    sock.on('close', () => {
      closedAfterMs = Date.now() - t0;
      finish();
    });
    sock.on('connect', () => parts.forEach((p, i) => timers.push(setTimeout(() => sock.writable && sock.write(p), i * gapMs))));
  });
}

const statusOf = (raw: string): number | undefined => {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(raw);
  return m === null ? undefined : Number(m[1]);
};
const bodyOf = (raw: string): unknown => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));

describe('slow and idle clients (item 5)', () => {
  let port: number;
  let runtime: HostRuntime;
  let store: StoragePort;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const host = await createHost({ token: TOKEN, limits: { requestTimeoutMs: TIMEOUT_MS, headersTimeoutMs: TIMEOUT_MS, keepAliveTimeoutMs: TIMEOUT_MS } });
    runtime = host.runtime;
    store = host.store;
    port = Number(new URL(await host.app.listen({ port: 0, host: '127.0.0.1' })).port);
    close = () => host.app.close();
  });
  afterAll(() => close());

  const head = (contentLength: number) =>
    `POST ${SEED} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`;
  const seedBody = (ref: string) => JSON.stringify({ memoryRef: ref, entries: [{ content: 'slow write' }] });

  /** The answer is a 408 error envelope that came within the timeout (plus slack), and the socket was closed after it. */
  const expectTimedOut = (x: Exchange) => {
    expect(x.firstByteAfterMs, 'an answer came before the test deadline').toBeDefined();
    expect(x.firstByteAfterMs!).toBeLessThan(TIMEOUT_MS + SLACK_MS);
    expect(statusOf(x.received)).toBe(408);
    const body = bodyOf(x.received);
    expect(validateErrorEnvelope(body)).toBe(true);
    expect(body).toMatchObject({ error: 'request_timeout' });
    expect(x.closedAfterMs, 'the server closed the socket after answering').toBeDefined();
  };

  it('a body shorter than its Content-Length: 408 envelope within the timeout, socket closed, nothing stored', async () => {
    const ref = 'mem://slowbody/short';
    const body = seedBody(ref);
    const x = await exchange(port, [head(body.length + 50) + body]);
    expectTimedOut(x);
    expect(await inUnit(store, (tx) => runtime.storedCount(tx, ref))).toBe(0);
  });

  it('a body trickled one byte at a time (the socket never idles): 408 within the request timeout, nothing stored', async () => {
    const ref = 'mem://slowbody/trickle';
    const body = seedBody(ref);
    const x = await exchange(port, [head(body.length), ...body], { gapMs: 50 });
    expectTimedOut(x);
    expect(await inUnit(store, (tx) => runtime.storedCount(tx, ref))).toBe(0);
  });

  it('headers that never end (sent a byte at a time): 408 within the headers timeout', async () => {
    const start = `POST ${SEED} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\n`;
    const x = await exchange(port, [start, ...'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'], { gapMs: 50 });
    expectTimedOut(x);
  });

  it('an idle keep-alive connection is closed by the server within the keep-alive timeout', async () => {
    const x = await exchange(port, [`GET ${ROUTES.discovery.path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`]);
    expect(statusOf(x.received)).toBe(200);
    expect(x.closedAfterMs, 'the server closed the idle socket before the test deadline').toBeDefined();
    // Node keeps an idle socket 1 s past the advertised keep-alive timeout (its buffer against a client racing it).
    expect(x.closedAfterMs! - x.firstByteAfterMs!).toBeLessThan(TIMEOUT_MS + 1000 + SLACK_MS);
  });

  it('a complete request still succeeds on the same host (the timeouts do not cut honest clients)', async () => {
    const ref = 'mem://slowbody/honest';
    const body = seedBody(ref);
    const x = await exchange(port, [head(body.length) + body]);
    expect(statusOf(x.received)).toBe(200);
    expect(await inUnit(store, (tx) => runtime.storedCount(tx, ref))).toBe(1);
  });
});

describe('requests per socket (item 5)', () => {
  it('after maxRequestsPerSocket answers the server says Connection: close and closes; requests pipelined past it are neither run nor answered, never a 5xx', async () => {
    const { app, runtime, store } = await createHost({ token: TOKEN, limits: { maxRequestsPerSocket: 2 } });
    const port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
    const seed = (ref: string) => {
      const body = JSON.stringify({ memoryRef: ref, entries: [{ content: 'pipelined' }] });
      return `POST ${SEED} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    };
    const refs = ['mem://pipe/a', 'mem://pipe/b', 'mem://pipe/c', 'mem://pipe/d'];
    const x = await exchange(port, [refs.map(seed).join('')]);
    const answers = x.received.split(/(?=HTTP\/1\.1 \d{3})/).map((a) => ({ status: statusOf(a), head: a.slice(0, a.indexOf('\r\n\r\n')) }));
    // The second answer is the last (it says so), and the connection closes after it: the third and fourth requests
    // are not answered (a client sends them again on a new connection) and none of them ran.
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[1]!.head).toMatch(/connection: close/i);
    expect(x.closedAfterMs).toBeDefined();
    expect(await Promise.all(refs.map((r) => inUnit(store, (tx) => runtime.storedCount(tx, r))))).toEqual([1, 1, 0, 0]);
    await app.close();
  });
});
