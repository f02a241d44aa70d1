/**
 * Issue 24: every status the reference host answers is one the OpenAPI document declares for that operation, and
 * every error body validates against the document's schema for it (the error envelope). Probes per route row: no
 * key, a tenant key, an operator key with an empty, a malformed, a non-JSON and an oversized body, and unknown ids —
 * the refusals a client can meet without a fixture. (Phase 2 adds every response of the conformance runs.)
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
        const probes: { headers: Record<string, string>; payload?: string }[] = [];
        for (const key of [undefined, TENANT, OPERATOR]) {
          const auth: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
          for (const payload of bodies) probes.push({ headers: { ...auth, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(payload !== undefined ? { payload } : {}) });
          if (route.request !== undefined) probes.push({ headers: { ...auth, 'content-type': 'text/plain' }, payload: 'hello' });
        }
        for (const p of probes) {
          const r = await app.inject({ method: route.method, url, headers: p.headers, ...(p.payload !== undefined ? { payload: p.payload } : {}) });
          seen.add(r.statusCode);
          const problem = checkAnswer(route.method, url, r.statusCode, r.body === '' ? null : r.json());
          if (problem !== undefined) (problem.includes('not declared') ? undeclared : mismatched).push(`${problem} (${r.body.slice(0, 120)})`);
        }
      }
    } finally {
      await app.close();
    }
    expect(undeclared).toEqual([]);
    expect(mismatched).toEqual([]);
    // The probes reach the refusals they are for (a vacuous run would see only one status).
    for (const s of [200, 400, 401, 403, 404, 413, 415]) expect(seen, String(s)).toContain(s);
  });
});
