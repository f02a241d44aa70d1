/**
 * The upstream discovery MUSTs a host can fail, checked from outside (issue 24): the discovery document and the
 * OpenAPI document answer without a key; discovery carries the four root members (the Capabilities schema requires
 * them, with the limits counters and unique fixture ids) and Cache-Control; a validator, when sent, answers a matching
 * If-None-Match with 304; a `capabilities` mirror, when sent, says what the root says; GET /v1/openapi.json is an
 * OpenAPI 3.1 (or later) document. `wopkit validate Capabilities <file> --profile upstream` checks the document-only
 * part without a host.
 */
import { ROUTES, validatorOf, type CatalogueRoute } from '../../runtime/host/seam-catalogue.ts';
import type { Scenario, ScenarioContext } from '../scenario.ts';

/** GET a public document without the key: its body validated by the route's schema, and its caching headers checked. */
async function publicDocument(t: ScenarioContext, route: CatalogueRoute, name: string): Promise<Record<string, unknown> | undefined> {
  const r = await t.client.request<Record<string, unknown>>('GET', route.path, undefined, validatorOf(route.response), { authenticated: false });
  if (!t.equal(r.status, 200, `${name} without a key`)) return undefined;
  t.check(r.schemaFailures.length === 0, `${name} does not match ${route.response}: ${r.schemaFailures.slice(0, 3).join('; ')}`);
  t.check((r.headers.get('cache-control') ?? '') !== '', `${name} carries no Cache-Control`);
  const etag = r.headers.get('etag');
  if (etag !== null) {
    t.check(etag.trim() !== '', `${name}: an empty ETag`);
    const again = await t.client.request('GET', route.path, undefined, undefined, { authenticated: false, headers: { 'if-none-match': etag } });
    t.equal(again.status, 304, `${name} with If-None-Match naming its ETag`);
    t.equal(again.headers.get('etag'), etag, `${name}: the 304 names the same ETag`);
  }
  return r.body;
}

export const discoveryScenarios: Scenario[] = [
  {
    id: 'discovery-upstream-musts',
    title: 'Discovery and the OpenAPI document answer without a key, with the root members, caching headers and a faithful capabilities mirror',
    rfc: 'upstream capabilities.md §2–§4, RFC 0003, RFC 0073, rest-endpoints.md (GET /v1/openapi.json)',
    profile: 'discovery',
    async run(t) {
      t.req('openwop.requirement.proposed.core.discovery-public-documents');
      const doc = await publicDocument(t, ROUTES.discovery, 'the discovery document');
      if (doc !== undefined && doc.capabilities !== undefined) {
        const mirror = doc.capabilities as Record<string, unknown>;
        for (const [k, v] of Object.entries(mirror)) t.equal(v, doc[k], `capabilities.${k} mirrors the root`);
      }
      const openapi = await publicDocument(t, ROUTES.openapi, 'GET /v1/openapi.json');
      if (openapi !== undefined) t.check(/^3\.([1-9]|[1-9]\d)\./.test(String(openapi.openapi)), `openapi.json declares openapi ${String(openapi.openapi)}, not 3.1 or later`);
    },
  },
];
