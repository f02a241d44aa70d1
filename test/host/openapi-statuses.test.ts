/**
 * Issue 24: every status the reference host answers is one the OpenAPI document declares for that operation, and
 * every error body validates against the document's schema for it (the error envelope). Probes per route row: no
 * key, a tenant key, an operator key with an empty, a malformed, a non-JSON and an oversized body, and unknown ids —
 * the refusals a client can meet without a fixture. (Phase 2 adds every response of the conformance runs.) Issue 32
 * adds the edges of HTTP on every row: a repeated query parameter, a malformed percent escape, OPTIONS, HEAD and
 * unserved methods, with and without a key (405s checked against the document's Allow).
 */
import { describe, expect, it } from 'vitest';
import { Credentials, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES, targetOf, pathParametersOf, type CatalogueRoute } from '../../runtime/host/seam-catalogue.ts';
import { checkAnswer } from '../interop/openapi-oracle.ts';

const TENANT = 'statuses-tenant-key-0123456789';
const OPERATOR = 'statuses-operator-key-0123456789';

describe('every answer the host gives is declared in the OpenAPI document', () => {
  it('probes every route row; each status is declared for its operation and each body matches the declared schema', async () => {
    const { app } = await createHost({ credentials: new Credentials(parseApiKeysEnv(`${TENANT}=acme:tenant,${OPERATOR}=*:operator`)), bodyLimit: 4096 });
    const undeclared: string[] = [];
    const mismatched: string[] = [];
    const seen = new Set<number>();
    try {
      for (const route of Object.values(ROUTES) as CatalogueRoute[]) {
        const params = Object.fromEntries(pathParametersOf(route.path).map((p) => [p, `no-such-${p}`]));
        const url = targetOf(route, { params });
        const bodies = route.request === undefined ? [undefined] : ['{}', '{"x":', '[]', JSON.stringify({ pad: 'x'.repeat(8192) })];
        const probes: { headers: Record<string, string>; payload?: string; method?: string; url?: string }[] = [];
        for (const key of [undefined, TENANT, OPERATOR]) {
          const auth: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
          for (const payload of bodies) probes.push({ headers: { ...auth, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(payload !== undefined ? { payload } : {}) });
          if (route.request !== undefined) probes.push({ headers: { ...auth, 'content-type': 'text/plain' }, payload: 'hello' });
        }
        // Issue 32: the edges of HTTP on every row — a repeated query parameter, a malformed percent escape in a path
        // parameter, OPTIONS, HEAD and a method no row serves — with and without a key.
        const op = { authorization: `Bearer ${OPERATOR}` };
        const edges: { method: string; url: string; headers: Record<string, string> }[] = [
          ...(route.query ?? []).slice(0, 1).map((q) => ({ method: route.method, url: `${url}${url.includes('?') ? '&' : '?'}${q}=a&${q}=a`, headers: op })),
          ...(pathParametersOf(route.path).length > 0 ? [{ method: route.method, url: url.replace(/no-such-[A-Za-z]+/, '%zz'), headers: op }] : []),
          ...[{}, op].flatMap((headers) => ['OPTIONS', 'HEAD', 'PUT', 'TRACE'].map((method) => ({ method, url, headers }))),
        ];
        for (const e of edges) probes.push({ headers: e.headers, method: e.method, url: e.url });
        for (const p of probes) {
          const method = p.method ?? route.method;
          const target = p.url ?? url;
          const r = await app.inject({ method: method as 'GET', url: target, headers: p.headers, ...(p.payload !== undefined ? { payload: p.payload } : {}) });
          seen.add(r.statusCode);
          const problem = checkAnswer(method, target, r.statusCode, r.body === '' || method === 'HEAD' ? null : r.json(), typeof r.headers.allow === 'string' ? r.headers.allow : undefined);
          if (problem !== undefined) (problem.includes('not declared') ? undeclared : mismatched).push(`${problem} (${r.body.slice(0, 120)})`);
        }
      }
    } finally {
      await app.close();
    }
    expect(undeclared).toEqual([]);
    expect(mismatched).toEqual([]);
    // The probes reach the refusals they are for (a vacuous run would see only one status).
    for (const s of [200, 204, 400, 401, 403, 404, 405, 413, 415]) expect(seen, String(s)).toContain(s);
  });
});
