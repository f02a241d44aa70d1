/**
 * Issue 24: the two public documents (discovery, GET /v1/openapi.json) are served without a key, with
 * `Cache-Control`, a strong ETag that is a hash of the body (so two hosts serving the same document send the same
 * tag), and `304 Not Modified` for a matching `If-None-Match`; discovery also carries the RFC 0073 `capabilities`
 * mirror of its root, from the same document.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../runtime/host/server.ts';
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import { ifNoneMatchMatches } from '../../runtime/host/routes/cached-document.ts';
import { validateCapabilities, validateOpenApiDocument } from '../../generated/validators/validators.js';

const TOKEN = 'cached-documents-token-0123456789';
const hashTag = (body: string) => `"sha256-${createHash('sha256').update(body, 'utf8').digest('base64url')}"`;

describe('cached public documents', () => {
  it('GET /v1/openapi.json answers 200 without a key: the generated document, byte for byte', async () => {
    const { app } = await createHost({ token: TOKEN });
    try {
      const r = await app.inject({ method: 'GET', url: ROUTES.openapi.path });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.body).toBe(readFileSync('generated/openapi/openapi.json', 'utf8'));
      expect(validateOpenApiDocument(r.json())).toBe(true);
      expect(r.json().openapi).toMatch(/^3\.1\./);
    } finally {
      await app.close();
    }
  });

  for (const name of ['discovery', 'openapi'] as const) {
    const route = ROUTES[name];
    it(`${route.path}: Cache-Control, a strong content-hash ETag equal on two hosts, 304 for a matching If-None-Match`, async () => {
      const a = await createHost({ token: TOKEN });
      const b = await createHost({ token: `${TOKEN}-other` });
      try {
        const first = await a.app.inject({ method: 'GET', url: route.path });
        expect(first.statusCode).toBe(200);
        expect(first.headers['cache-control']).toBe(`public, max-age=${route.cached.maxAgeSeconds}`);
        const etag = first.headers.etag as string;
        expect(etag).toBe(hashTag(first.body)); // strong (no W/), and a hash of the body
        const other = await b.app.inject({ method: 'GET', url: route.path });
        expect(other.headers.etag).toBe(etag);
        expect(other.body).toBe(first.body);
        // With a key the document is the same: nothing depends on the credential, so no Vary: Authorization.
        const keyed = await a.app.inject({ method: 'GET', url: route.path, headers: { authorization: `Bearer ${TOKEN}` } });
        expect(keyed.body).toBe(first.body);
        expect(keyed.headers.vary ?? '').not.toMatch(/authorization/i);
        for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
          const again = await a.app.inject({ method: 'GET', url: route.path, headers: { 'if-none-match': inm } });
          expect(again.statusCode, inm).toBe(304);
          expect(again.body, inm).toBe('');
          expect(again.headers.etag, inm).toBe(etag);
          expect(again.headers['cache-control'], inm).toBe(first.headers['cache-control']);
        }
        for (const inm of ['"sha256-stale"', etag.slice(0, -2) + '"', 'W/"x"']) {
          const fresh = await a.app.inject({ method: 'GET', url: route.path, headers: { 'if-none-match': inm } });
          expect(fresh.statusCode, inm).toBe(200);
          expect(fresh.body, inm).toBe(first.body);
        }
      } finally {
        await a.app.close();
        await b.app.close();
      }
    });
  }

  it('discovery carries the capabilities mirror of its root, from the same document, valid against Capabilities', async () => {
    const { app } = await createHost({ token: TOKEN });
    try {
      const d = (await app.inject({ method: 'GET', url: ROUTES.discovery.path })).json() as Record<string, unknown>;
      const { capabilities, ...root } = d;
      expect(capabilities).toEqual(root);
      expect(Object.keys(root)).toEqual(expect.arrayContaining(['protocolVersion', 'memory', 'multiAgent']));
      expect(validateCapabilities(d)).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('If-None-Match comparison: weak comparison, lists and *, nothing else', () => {
    const tag = '"sha256-abc"';
    expect(ifNoneMatchMatches(undefined, tag)).toBe(false);
    expect(ifNoneMatchMatches('', tag)).toBe(false);
    expect(ifNoneMatchMatches('"sha256-abc"', tag)).toBe(true);
    expect(ifNoneMatchMatches('W/"sha256-abc"', tag)).toBe(true);
    expect(ifNoneMatchMatches(' "x" ,W/"sha256-abc" ', tag)).toBe(true);
    expect(ifNoneMatchMatches('*', tag)).toBe(true);
    expect(ifNoneMatchMatches('sha256-abc', tag)).toBe(false);
    expect(ifNoneMatchMatches('"sha256-ab"', tag)).toBe(false);
  });
});
