/**
 * Issue 24: every status the reference host answers is one the OpenAPI document declares for that operation, and
 * every error body validates against the document's schema for it (the error envelope). Probes per route row: no
 * key, a tenant key, an operator key with an empty, a malformed, a non-JSON and an oversized body, and unknown ids —
 * the refusals a client can meet without a fixture. (Phase 2 adds every response of the conformance runs.)
 */
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../generator/ajv.ts';
import { Credentials, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES, targetOf, pathParametersOf, type CatalogueRoute } from '../../runtime/host/seam-catalogue.ts';
import openapi from '../../generated/openapi/openapi.json' with { type: 'json' };

const TENANT = 'statuses-tenant-key-0123456789';
const OPERATOR = 'statuses-operator-key-0123456789';
type Operation = { responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> };
const doc = openapi as unknown as { paths: Record<string, Record<string, Operation>>; components: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } };
const ajv = createAjv({ strict: false });
ajv.addSchema({ ...(openapi as object), $id: 'urn:wopkit:openapi' });
const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Where the document declares the JSON body of a `status` answer on `route`: declared at all, and the schema's pointer. */
function responseSchema(route: CatalogueRoute, status: number): { declared: boolean; pointer?: string } {
  const method = route.method.toLowerCase();
  const r = doc.paths[route.path]![method]!.responses[String(status)];
  if (r === undefined) return { declared: false };
  const base = r.$ref !== undefined ? r.$ref.slice(1) : `/paths/${escape(route.path)}/${method}/responses/${status}`;
  const target = r.$ref !== undefined ? doc.components.responses[r.$ref.split('/').pop()!]! : r;
  return { declared: true, ...(target.content?.['application/json'] !== undefined ? { pointer: `${base}/content/application~1json/schema` } : {}) };
}

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
          const { declared, pointer } = responseSchema(route, r.statusCode);
          const what = `${route.method} ${route.path} → ${r.statusCode}`;
          if (!declared) {
            undeclared.push(`${what} (${r.body.slice(0, 120)})`);
            continue;
          }
          if (pointer !== undefined) {
            const v = ajv.getSchema(`urn:wopkit:openapi#${pointer}`)!;
            if (!v(r.json())) mismatched.push(`${what}: ${JSON.stringify(v.errors?.[0])}`);
          }
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
