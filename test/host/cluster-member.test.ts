/**
 * A cluster member's own rules (runtime/host/cluster/standby.ts), with a scripted lease in place of the database:
 * - a standby refuses a request without valid credentials itself (401, nothing read, nothing forwarded) and
 *   forwards an authenticated one; it answers "starting" with the standby marker before it was started;
 * - a failed activation gives the lease back (another host can then take over) and tells `onLost`;
 * - a host closed while waiting for the lease releases it and never becomes active.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { STANDBY_HEADER } from '../../runtime/host/cluster/forward.ts';
import { createHost } from '../../runtime/host/server.ts';
import { openMemoryStore } from '../../runtime/storage/memory/index.ts';
import type { ActiveHost, LeaderLease, StoragePort } from '../../runtime/storage/port.ts';

const TOKEN = 'cluster-member-operator-token';
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
});

/** A lease whose acquisition and active host the test controls, recording what the member does with it. */
function scriptedLease(o: { active?: ActiveHost; grant?: Promise<number> } = {}) {
  const calls: string[] = [];
  let lostListener: ((err: Error) => void) | undefined;
  let activeLookups = 0;
  const lease: LeaderLease = {
    acquire: (signal) => {
      calls.push('acquire');
      return new Promise<number>((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        void o.grant?.then(resolve, reject);
      });
    },
    publish: async (url) => void calls.push(`publish ${url}`),
    active: async () => {
      activeLookups++;
      return o.active;
    },
    onLost: (l) => void (lostListener = l),
    release: async () => void calls.push('release'),
  };
  return { lease, calls, lookups: () => activeLookups, lose: (err: Error) => lostListener?.(err) };
}

async function storeWith(lease: LeaderLease, breakLoading = false): Promise<StoragePort> {
  const base = await openMemoryStore();
  const brokenMemory = { ...base.memory, all: async () => { throw new Error('the store failed while loading'); } };
  return new Proxy(base, {
    get(target, key) {
      if (key === 'lease') return () => lease;
      if (breakLoading && key === 'memory') return brokenMemory;
      const v: unknown = Reflect.get(target, key);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

async function member(storage: StoragePort, onLost?: (err: Error) => void) {
  const h = await createHost({ token: TOKEN, storage, logger: false, cluster: { waitMs: 500, ...(onLost !== undefined ? { onLost } : {}) } });
  closers.push(() => h.app.close());
  const url = await h.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...h, url };
}

describe('a standby', () => {
  it('refuses a request without valid credentials itself, and forwards an authenticated one', async () => {
    const hits: string[] = [];
    const active: Server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"active"}');
    });
    await new Promise<void>((r) => active.listen(0, '127.0.0.1', () => r()));
    closers.push(() => new Promise((r) => active.close(r)));
    const script = scriptedLease({ active: { url: `http://127.0.0.1:${(active.address() as AddressInfo).port}`, epoch: 1 } });
    const m = await member(await storeWith(script.lease));
    m.cluster!.start(m.url);

    const anonymous = await fetch(`${m.url}/v1/runs/r/events`, { method: 'GET' });
    expect(anonymous.status).toBe(401);
    expect(script.lookups()).toBe(0);
    const authed = await fetch(`${m.url}/v1/runs/r/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(authed.status).toBe(200);
    expect(await authed.json()).toEqual({ from: 'active' });
    expect(hits).toEqual([`GET /v1/runs/r/events Bearer ${TOKEN}`]);
  });

  it('before it is started, answers 503 with the standby marker (a forwarding peer retries instead of relaying it)', async () => {
    const m = await member(await storeWith(scriptedLease().lease));
    const r = await fetch(`${m.url}/v1/runs/r/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(503);
    expect(r.headers.get(STANDBY_HEADER)).toBe('1');
    expect((await r.json()) as unknown).toMatchObject({ error: 'runner_unavailable' });
  });
});

describe('taking over', () => {
  it('a failed activation gives the lease back and tells onLost', async () => {
    const script = scriptedLease({ grant: Promise.resolve(7) });
    const lost: Error[] = [];
    const m = await member(await storeWith(script.lease, true), (err) => lost.push(err));
    m.cluster!.start(m.url);
    await expect(m.cluster!.whenActive()).rejects.toThrow('the store failed while loading');
    expect(m.cluster!.role()).toBe('lost');
    expect(lost.map((e) => e.message)).toEqual(['the store failed while loading']);
    expect(script.calls).toEqual(['acquire', 'release']);
  });

  it('a host closed while it waits for the lease releases it and never becomes active', async () => {
    const script = scriptedLease(); // never granted
    const m = await member(await storeWith(script.lease));
    m.cluster!.start(m.url);
    await m.app.close();
    expect(m.cluster!.role()).toBe('stopped');
    await expect(m.cluster!.whenActive()).rejects.toThrow();
    expect(script.calls).toEqual(['acquire', 'release']);
  });

  it('once active it publishes its address and serves; a lost lease stops it serving', async () => {
    const script = scriptedLease({ grant: Promise.resolve(3) });
    const lost: Error[] = [];
    const m = await member(await storeWith(script.lease), (err) => lost.push(err));
    m.cluster!.start(m.url);
    await m.cluster!.whenActive();
    expect(script.calls).toEqual(['acquire', `publish ${m.url}`]);
    expect((await fetch(`${m.url}/.well-known/openwop`)).status).toBe(200);
    script.lose(new Error('session ended'));
    expect(m.cluster!.role()).toBe('lost');
    expect(lost).toHaveLength(1);
    expect(script.calls.at(-1)).toBe('release');
  });
});
