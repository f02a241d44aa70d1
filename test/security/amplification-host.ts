/**
 * A reference host whose store the test can read, and JSON requests to it (issue 12, items 2–4 and 7; issue 22).
 * What the store holds is read with SQL over its tables, so a test checks what was persisted, not what the runtime
 * says it persisted.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { MemoryEntry } from '../../generated/ts/index.ts';
import type { BackgroundWork } from '../../runtime/host/background.ts';
import type { HostRuntime } from '../../runtime/host/host-runtime.ts';
import { createHost, type HostOptions } from '../../runtime/host/server.ts';
import type { CatalogueRoute } from '../../runtime/host/seam-catalogue.ts';
import type { StoragePort } from '../../runtime/storage/port.ts';

export const TOKEN = 'amplification-test-token-0123456789';
export const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

export interface TestHost {
  readonly app: FastifyInstance;
  readonly runtime: HostRuntime;
  readonly store: StoragePort;
  readonly background: BackgroundWork;
  post(route: CatalogueRoute, body: unknown): Promise<LightMyRequestResponse>;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** The entries stored under a ref, exactly as the store holds them (expired ones included). */
  stored(memoryRef: string): Promise<MemoryEntry[]>;
  /** How many live secret registries the tenant has in the store. */
  liveRegistries(tenant: string): Promise<number>;
}

export async function testHost(options: Partial<HostOptions> = {}): Promise<TestHost> {
  const { app, runtime, store, background } = await createHost({ token: TOKEN, logger: false, ...options });
  return {
    app,
    runtime,
    store,
    background,
    post: (route, body) => app.inject({ method: route.method, url: route.path, headers: HEADERS, payload: JSON.stringify(body) }),
    get: (url, headers = HEADERS) => app.inject({ method: 'GET', url, headers }),
    stored: async (memoryRef) => (await store.reads.all('SELECT doc FROM entries WHERE memory_ref = ? ORDER BY neg_created, id', [memoryRef], 100_000)).map((r) => JSON.parse(String(r.doc)) as MemoryEntry),
    liveRegistries: async (tenant) => Number((await store.reads.get("SELECT count(*) AS n FROM secret_registries WHERE tenant = ? AND state = 'live'", [tenant]))!.n),
  };
}
