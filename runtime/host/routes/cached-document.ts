import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serveWithoutUnit } from '../route-helpers.ts';
import type { CatalogueRoute } from '../seam-catalogue.ts';

/**
 * A JSON document every caller gets the same bytes of (the discovery document, the OpenAPI document), served with
 * HTTP caching (RFC 9111, RFC 9110 §13):
 *
 * - `ETag`: a strong validator, `"sha256-<base64url of the SHA-256 of the body>"` — a hash of the content and
 *   nothing else, so every host serving the same document sends the same tag;
 * - `Cache-Control: public, max-age=<the row's maxAgeSeconds>`;
 * - `If-None-Match` naming the current tag (weak comparison, a list, or `*`) → `304 Not Modified` with the same
 *   `ETag` and `Cache-Control` and no body.
 *
 * Neither document depends on the request's credentials (both are public and identical for every caller), so no
 * `Vary: Authorization` is sent; a document that came to depend on the key would have to add it here.
 */
export interface CachedText {
  readonly text: string;
  readonly etag: string;
}

/** The body and strong ETag of a document's JSON text. */
export function cachedText(text: string): CachedText {
  return { text, etag: `"sha256-${createHash('sha256').update(text, 'utf8').digest('base64url')}"` };
}

/** Whether an `If-None-Match` header value matches `etag` (RFC 9110 §13.1.2: weak comparison; `*` matches any). */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return header.split(',').some((t) => t.trim() === '*' || opaque(t) === wanted);
}

/** Serve `route` (a row with `cached`) with the document `current()` returns, cached as above. */
export function serveCached(app: FastifyInstance, route: CatalogueRoute & { readonly cached: { readonly maxAgeSeconds: number } }, current: () => CachedText | Promise<CachedText>): void {
  const cacheControl = `public, max-age=${route.cached.maxAgeSeconds}`;
  serveWithoutUnit(app, route, async (req: FastifyRequest, reply: FastifyReply) => {
    const doc = await current();
    reply.header('etag', doc.etag).header('cache-control', cacheControl);
    const inm = req.headers['if-none-match'];
    if (ifNoneMatchMatches(Array.isArray(inm) ? inm.join(',') : inm, doc.etag)) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    return doc.text;
  });
}
