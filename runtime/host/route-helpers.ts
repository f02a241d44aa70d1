/**
 * What every route module uses: registration from a catalogue row (method, path and success status are the
 * catalogue's, never retyped), the validated body, typed path and query parameters, the tenant of a memoryRef, and
 * the tenant a request acts as.
 */
import { MAX_LIST_LIMIT } from '../memory/adapter.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';
import { OPERATOR_DEFAULT_TENANT, tenantActedAs } from './auth-binding.ts';
import { validationFailures } from '../shared/errors.ts';
import { parseMemoryRef } from '../memory/memory-ref.ts';
import { validatorOf, type CatalogueRoute, type PathParams, type QueryParams, type RequestOf, type SchemaTitle } from './seam-catalogue.ts';
import type { MemoryEntry } from '../../generated/ts/index.ts';
import type { MemoryReader } from './host-runtime.ts';

/** The Fastify form of a catalogue path: `{name}` → `:name`; a `{name}:action` segment is matched whole as `:name`. */
export const fastifyUrl = (path: string): string => path.replace(/\{([A-Za-z]+)\}(:[A-Za-z]+)?/g, ':$1');

/**
 * Serve `route` with `handler`; a success answers with the route's catalogue status. A handler that sets a JSON
 * content type on the reply may answer with JSON text, sent as it is.
 */
export function serve(app: FastifyInstance, route: CatalogueRoute, handler: (req: FastifyRequest, reply: FastifyReply) => unknown): void {
  app.route({
    method: route.method,
    url: fastifyUrl(route.path),
    // The row travels with the route: authorisation and tenant binding (auth-binding.ts) read its role and inputs.
    config: { catalogue: route },
    handler: async (req, reply) => {
      const answer = await handler(req, reply);
      if (route.status !== undefined) reply.code(route.status);
      return answer;
    },
  });
}

/** The parsed JSON body checked by the generated validator of the route's request schema, or a 400 validation_failed with pointers. */
export function bodyOf<R extends CatalogueRoute & { readonly request: SchemaTitle }>(req: FastifyRequest, route: R): RequestOf<R> {
  const validate = validatorOf(route.request) as ((v: unknown) => boolean) & { errors?: readonly { instancePath: string; message?: string }[] | null };
  const body = req.body;
  if (!validate(body)) {
    throw new HttpError('validation_failed', 'request body does not match its schema', {
      failures: validationFailures((validate.errors ?? []).map((e) => ({ instancePath: e.instancePath, message: e.message ?? 'invalid' }))),
    });
  }
  return body as RequestOf<R>;
}

/** The route's path parameters, by the names its catalogue path gives them. */
export const paramsOf = <R extends CatalogueRoute>(req: FastifyRequest, _route: R) => req.params as { readonly [K in PathParams<R['path']>]: string };
/** The route's query parameters (each absent unless sent), by the names its catalogue row lists. */
export const queryOf = <R extends CatalogueRoute>(req: FastifyRequest, _route: R) => req.query as { readonly [K in QueryParams<R>]?: string };

export function tenantOrThrow(ref: string): string {
  const p = parseMemoryRef(ref);
  if (p === null) throw new HttpError('validation_failed', 'memoryRef is malformed', { failures: [{ instancePath: '/memoryRef', message: 'must be mem://<tenant>/<scope>' }] });
  return p.tenant;
}

/** The tenant a request acts as (auth-binding.ts tenantActedAs): a tenant key's own, else the named one, else `default`. */
export const actingTenant = (req: FastifyRequest, named: string | undefined): string => tenantActedAs(req.principal, named);

export { OPERATOR_DEFAULT_TENANT };

/** The tenant a request on one of upstream's routes (which name no tenant) acts as. */
export const callerTenant = (req: FastifyRequest): string => tenantActedAs(req.principal, undefined);

/**
 * The memory scope a request names: a `mem://<tenant>/…` ref as it is (its tenant is checked by the auth binding
 * and the read path, CTI-1), or any other string — an upstream-style opaque ref such as `conformance-distill` — as a
 * scope inside the caller's tenant, `mem://<tenant>/upstream/<base64url of the ref>`, so an opaque name can never
 * reach another tenant's memory.
 */
export function scopedRef(req: FastifyRequest, ref: string): string {
  if (parseMemoryRef(ref) !== null) return ref;
  const segments = Buffer.from(ref, 'utf8').toString('base64url').match(/.{1,128}/g) ?? [];
  const scoped = `mem://${callerTenant(req)}/upstream/${segments.join('/')}`;
  if (segments.length === 0 || parseMemoryRef(scoped) === null) throw new HttpError('validation_failed', 'memoryRef is too long', { failures: [{ instancePath: '/memoryRef', message: 'an opaque memoryRef must be 1 to 340 bytes' }] });
  return scoped;
}

/** An integer query value from `min` (to `max`), the fallback when absent, or a 400 naming the parameter. */
export function integerParam(value: string | undefined, name: string, o: { readonly min: number; readonly max?: number; readonly fallback: number }): number {
  if (value === undefined) return o.fallback;
  const n = /^-?\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < o.min || (o.max !== undefined && n > o.max)) {
    throw new HttpError('validation_failed', `${name} must be an integer from ${o.min}${o.max !== undefined ? ` to ${o.max}` : ''}`, { failures: [{ instancePath: `/${name}`, message: `must be integer >= ${o.min}${o.max !== undefined ? ` and <= ${o.max}` : ''}` }] });
  }
  return n;
}

/**
 * One page of a memory list as the list routes answer it: `limit` (a page size from 1; the default and the most is
 * MAX_LIST_LIMIT; anything else is a 400) and `cursor` (opaque, from the previous page's `nextCursor`), `tag` as a filter.
 */
export async function pageOf(reader: MemoryReader, memoryRef: string, q: { readonly limit?: string; readonly tag?: string; readonly cursor?: string }): Promise<{ entries: readonly MemoryEntry[]; nextCursor?: string }> {
  const limit = q.limit === undefined ? undefined : integerParam(q.limit, 'limit', { min: 1, max: MAX_LIST_LIMIT, fallback: MAX_LIST_LIMIT });
  const page = await reader.page(memoryRef, { ...(limit !== undefined ? { limit } : {}), ...(q.tag !== undefined ? { tag: q.tag } : {}), ...(q.cursor !== undefined ? { cursor: q.cursor } : {}) });
  return page.nextCursor === undefined ? { entries: page.entries } : { entries: page.entries, nextCursor: page.nextCursor };
}
