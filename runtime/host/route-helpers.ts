/**
 * What every route module uses: the request boundary (`serve` opens the request's one unit of work), registration from a catalogue row (method, path, success status and the input checks
 * are the catalogue's, never retyped), the body, path and query parameters as Fastify validated and converted them
 * (route-validation.ts), the tenant of a memoryRef, and the tenant a request acts as.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';
import { OPERATOR_DEFAULT_TENANT, tenantActedAs } from './auth-binding.ts';
import { parseMemoryRef } from '../memory/memory-ref.ts';
import { routeSchemaOf } from './route-validation.ts';
import type { CatalogueRoute, PARAMETERS, PathParams, QueryParams, RequestOf, SchemaTitle, ShapeOf } from './seam-catalogue.ts';
import type { MemoryEntry } from '../../generated/ts/index.ts';
import type { MemoryReader } from './host-runtime.ts';
import type { Tx, UnitOfWorkOptions, Units } from '../storage/index.ts';

/** The Fastify form of a catalogue path: `{name}` → `:name`; a `{name}:action` segment is matched whole as `:name`. */
export const fastifyUrl = (path: string): string => path.replace(/\{([A-Za-z]+)\}(:[A-Za-z]+)?/g, ':$1');

declare module 'fastify' {
  interface FastifyInstance {
    /** The store's unit-of-work opener (server.ts decorates the app with it): the request boundary's, and only its. */
    units: Units;
  }
}

/**
 * What a handler answers once its unit committed: the answer is computed after the commit (a route that reports what
 * the committed writes produced — a stored entry's value, a fork's status as the fixture runner records it).
 */
export class AfterCommit {
  constructor(readonly answer: () => unknown) {}
}
/** Answer with what `f` computes once the request's unit committed. */
export const afterCommit = (f: () => unknown): AfterCommit => new AfterCommit(f);

/**
 * A step of a seam that composes several operations, each of which must see what the one before it committed (a
 * fixture seeded, then consolidated): each step is its own unit of work. Only the routes registered with
 * `serveSteps` get one — the explicit exception to one unit per request.
 */
export type Step = Units;

/** Register `route` on `app`; `run` answers a request (the catalogue's success status is set here). */
function register(app: FastifyInstance, route: CatalogueRoute, run: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>): void {
  app.route({
    method: route.method,
    url: fastifyUrl(route.path),
    // The row travels with the route: authorisation and tenant binding (auth-binding.ts) read its role and inputs.
    config: { catalogue: route },
    // Fastify checks the path, query and body from the row before any hook that reads them and before the handler.
    schema: routeSchemaOf(route),
    handler: async (req, reply) => {
      const answer = await run(req, reply);
      if (route.status !== undefined) reply.code(route.status);
      return answer;
    },
  });
}

/**
 * Serve `route` with `handler`, the request boundary: ONE unit of work per request, handed to the handler as `tx` and
 * committed once after it returns (with `commitOnThrow`, also when it throws — a supervisor step keeps the events it
 * recorded up to its interrupt). A success answers with the route's catalogue status; a handler that sets a JSON
 * content type on the reply may answer with JSON text, sent as it is; one that answers `afterCommit(f)` answers what
 * `f` computes once the unit committed.
 */
export function serve(app: FastifyInstance, route: CatalogueRoute, handler: (req: FastifyRequest, reply: FastifyReply, tx: Tx) => unknown, options: UnitOfWorkOptions = {}): void {
  register(app, route, async (req, reply) => {
    const answer = await app.units((tx) => handler(req, reply, tx), options);
    return answer instanceof AfterCommit ? answer.answer() : answer;
  });
}

/**
 * Serve a route for which the boundary opens no unit: it touches no store (health, the OpenAPI document), or it calls
 * only operations that are their own boundary — the fixture runner (discovery's fixture list) and the schedulers'
 * tick (test/architecture/unit-of-work.test.ts names every module that may open units).
 */
export function serveWithoutUnit(app: FastifyInstance, route: CatalogueRoute, handler: (req: FastifyRequest, reply: FastifyReply) => unknown): void {
  register(app, route, async (req, reply) => handler(req, reply));
}

/**
 * Serve a route whose operations open their own units: a seam composed of steps that each must see the last one
 * committed (`step`), or one that calls a service that is its own boundary (the fixture runner, which drives the
 * host as a client does).
 */
export function serveSteps(app: FastifyInstance, route: CatalogueRoute, handler: (req: FastifyRequest, reply: FastifyReply, step: Step) => unknown): void {
  register(app, route, async (req, reply) => handler(req, reply, app.units));
}

/** The request body, as the route's request schema validated it (route-validation.ts). */
export const bodyOf = <R extends CatalogueRoute & { readonly request: SchemaTitle }>(req: FastifyRequest, _route: R): RequestOf<R> => req.body as RequestOf<R>;

/** The type a parameter's table schema converts it to: a number for `type: integer`, the corpus type of a title. */
type ParameterValue<N> = N extends keyof typeof PARAMETERS
  ? (typeof PARAMETERS)[N]['schema'] extends { readonly type: 'integer' } ? number
    : (typeof PARAMETERS)[N]['schema'] extends { readonly title: infer T extends SchemaTitle } ? ShapeOf<T> : string
  : string;

/** The route's path parameters, by the names its catalogue path gives them. */
export const paramsOf = <R extends CatalogueRoute>(req: FastifyRequest, _route: R) => req.params as { readonly [K in PathParams<R['path']>]: string };
/** The route's headers of the table (each absent unless sent), as validated. */
export const headersOf = <R extends CatalogueRoute>(req: FastifyRequest, _route: R) => req.headers as { readonly [K in R extends { readonly headers: readonly (infer H)[] } ? H & string : never]?: string };
/** The route's query parameters (each absent unless sent), converted by their table schemas. */
export const queryOf = <R extends CatalogueRoute>(req: FastifyRequest, _route: R) => req.query as { readonly [K in QueryParams<R>]?: ParameterValue<K> };

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

/**
 * One page of a memory list as the list routes answer it: `limit` (a page size from 1 to MAX_LIST_LIMIT, checked by
 * the parameter table; the reader's default when absent) and `cursor` (opaque, from the previous page's
 * `nextCursor`), `tag` as a filter.
 */
export async function pageOf(reader: MemoryReader, memoryRef: string, q: { readonly limit?: number; readonly tag?: string; readonly cursor?: string }): Promise<{ entries: readonly MemoryEntry[]; nextCursor?: string }> {
  const page = await reader.page(memoryRef, { ...(q.limit !== undefined ? { limit: q.limit } : {}), ...(q.tag !== undefined ? { tag: q.tag } : {}), ...(q.cursor !== undefined ? { cursor: q.cursor } : {}) });
  return page.nextCursor === undefined ? { entries: page.entries } : { entries: page.entries, nextCursor: page.nextCursor };
}
