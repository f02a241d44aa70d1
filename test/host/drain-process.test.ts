/**
 * SIGTERM drains `npm start` (issue 23 item 4), on the process: /readyz answers 503 `draining` at once while the
 * host still serves for WOPKIT_DRAIN_DELAY_MS, then new connections are refused, a request in flight finishes and is
 * stored, and the process exits 0; a request that does not finish within WOPKIT_DRAIN_GRACE_MS is cut and the process
 * exits 1 with one line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { CRASH_TOKEN, startHost } from '../storage/crash/host-process.ts';

const root = mkdtempSync(join(tmpdir(), 'wopkit-drain-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A seed whose body is sent in two halves: the request is in flight between them. */
function halfSentSeed(url: string, content: string): { socket: Socket; finish: () => Promise<string> } {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ memoryRef: 'mem://acme/drain', entries: [{ content }] });
  const socket = connect(Number(port), hostname);
  let answer = '';
  socket.on('data', (c) => (answer += c.toString()));
  socket.write(`POST ${ROUTES.memorySeed.path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${CRASH_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`);
  return {
    socket,
    finish: () => new Promise((resolve) => {
      socket.write(body.slice(10));
      const done = () => resolve(answer);
      socket.on('close', done);
      setTimeout(done, 3000);
    }),
  };
}

describe('SIGTERM drains npm start', () => {
  it('readyz 503 draining during the delay, then no new connection; the request in flight finishes and is stored; exit 0', async () => {
    const dataDir = join(root, 'a');
    const args = ['--store', 'sqlite', '--data-dir', dataDir];
    const host = await startHost({ args, env: { WOPKIT_DRAIN_DELAY_MS: '800', WOPKIT_DRAIN_GRACE_MS: '5000' } });
    const inFlight = halfSentSeed(host.url, 'sent across the stop');
    await sleep(200);
    host.signal('SIGTERM');
    await sleep(150);
    const ready = await fetch(`${host.url}/readyz`);
    expect([ready.status, await ready.json(), ready.headers.get('retry-after')]).toEqual([503, { status: 'unavailable', reason: 'draining' }, '1']);
    await sleep(900);
    await expect(fetch(`${host.url}/livez`), 'no new connection after the delay').rejects.toThrow();
    const answer = await inFlight.finish();
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const ended = await host.exit;
    expect([ended.code, ended.stderr]).toEqual([0, '']);

    const again = await startHost({ args });
    const list = await fetch(`${again.url}/v1/memory/${encodeURIComponent('mem://acme/drain')}`, { headers: { authorization: `Bearer ${CRASH_TOKEN}` } });
    expect(((await list.json()) as { entries: { content: string }[] }).entries.map((e) => e.content)).toEqual(["sent across the stop"]);
    await again.stop();
  }, 60_000);

  it('a request that does not finish within the grace period is cut: exit 1 with one line', async () => {
    const host = await startHost({ args: ['--store', 'sqlite', '--data-dir', join(root, 'b')], env: { WOPKIT_DRAIN_GRACE_MS: '700' } });
    const stuck = halfSentSeed(host.url, 'never finished');
    await sleep(200);
    const t0 = Date.now();
    host.signal('SIGTERM');
    const ended = await host.exit;
    stuck.socket.destroy();
    expect(ended.code).toBe(1);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(ended.stderr.trim().split('\n')).toEqual(['wopkit reference host: stopping: requests in flight did not finish within WOPKIT_DRAIN_GRACE_MS (700 ms); exiting without them']);
  }, 60_000);
});
