/** A reference host over a runtime the test can inspect, and JSON requests to it (issue 12, items 2–4 and 7). */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createOpenwopRuntime, type OpenwopRuntime, type OpenwopRuntimeOptions } from '../../runtime/openwop/index.ts';
import { createHost, type HostOptions } from '../../runtime/host/server.ts';
import type { CatalogueRoute } from '../../runtime/host/seam-catalogue.ts';

export const TOKEN = 'amplification-test-token-0123456789';
export const HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

export interface TestHost {
  readonly app: FastifyInstance;
  readonly openwop: OpenwopRuntime;
  post(route: CatalogueRoute, body: unknown): Promise<LightMyRequestResponse>;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
}

export async function testHost(options: Partial<HostOptions> = {}, runtime: OpenwopRuntimeOptions = {}): Promise<TestHost> {
  const openwop = createOpenwopRuntime(runtime);
  const { app } = await createHost({ token: TOKEN, openwop, ...options });
  return {
    app,
    openwop,
    post: (route, body) => app.inject({ method: route.method, url: route.path, headers: HEADERS, payload: JSON.stringify(body) }),
    get: (url, headers = HEADERS) => app.inject({ method: 'GET', url, headers }),
  };
}
