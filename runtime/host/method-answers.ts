/**
 * What a served path answers to a method no row serves there (RFC 9110 §9.3.7, §15.5.6):
 *
 * - `OPTIONS` on every served path: 204 with `Allow` listing what the path serves (`HEAD` with `GET`, and `OPTIONS`
 *   itself). It needs no key: it says only what the public OpenAPI document says.
 * - any other method Fastify knows: 405 `method_not_allowed` in the error envelope, with the same `Allow` — after the
 *   key is checked, like every request that is not public.
 *
 * One router path can hold two of the document's paths: the run (runRead's path) and its fork action (runFork's,
 * the run's path with `:fork` after the id) are one path with one parameter to Fastify. The *form* of the request —
 * its last segment ends with `:<action>` of a row, or not — picks which rows it addresses, so a POST to a run is a
 * 405 (Allow: GET, HEAD, OPTIONS) and a GET of a run's fork action a 405 (Allow: OPTIONS, POST), exactly as the
 * document's two paths say.
 *
 * The OpenAPI emitter declares the OPTIONS operation of every path (generator/emit/openapi.ts) with the same Allow.
 */
import { METHODS } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from './errors.ts';
import { fastifyUrl } from './route-helpers.ts';
import { actionOf, type CatalogueRoute } from './seam-catalogue.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served without the Bearer token (the OPTIONS answers; the catalogue's public rows say so themselves). */
    keyless?: true;
  }
}

/** The `Allow` value of a path that serves `methods`: with HEAD when it serves GET, and OPTIONS, sorted. */
export function allowOf(methods: Iterable<string>): string {
  const all = new Set(methods);
  if (all.has('GET')) all.add('HEAD');
  all.add('OPTIONS');
  return [...all].sort().join(', ');
}

/** The rows one router path holds, split by form: the rows of each action, and the plain ones. */
interface RouterPath {
  readonly url: string;
  readonly plain: readonly CatalogueRoute[];
  readonly actions: ReadonlyMap<string, readonly CatalogueRoute[]>;
}

/** The rows of `path` a request addresses, by the form of its last segment. */
function rowsAddressed(p: RouterPath, requestPath: string): readonly CatalogueRoute[] {
  const last = requestPath.split('?')[0]!.replace(/\/+$/, '').split('/').pop() ?? '';
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // The router has decoded it already, or refused it; the raw segment decides then.
  }
  for (const [action, rows] of p.actions) if (decoded.endsWith(`:${action}`)) return rows;
  return p.plain;
}

/** Every router path of `routes`, with its rows by form. */
export function routerPaths(routes: readonly CatalogueRoute[]): RouterPath[] {
  const byUrl = new Map<string, CatalogueRoute[]>();
  for (const r of routes) byUrl.set(fastifyUrl(r.path), [...(byUrl.get(fastifyUrl(r.path)) ?? []), r]);
  return [...byUrl].map(([url, rows]) => {
    const actions = new Map<string, CatalogueRoute[]>();
    for (const r of rows) {
      const a = actionOf(r);
      if (a !== undefined) actions.set(a, [...(actions.get(a) ?? []), r]);
    }
    return { url, plain: rows.filter((r) => actionOf(r) === undefined), actions };
  });
}

const refuse = (req: FastifyRequest, allow: string) => ({ code: 'method_not_allowed' as const, message: `${req.method} is not allowed here; use ${allow}`, allow });
const allowFor = (p: RouterPath, req: FastifyRequest) => allowOf(rowsAddressed(p, req.url).map((r) => r.method));

/**
 * Refuse (405) a request whose form addresses rows that do not serve its method — a row's route reached in the other
 * form, a POST to a run on the fork row — as the document has no such operation. A `preValidation` hook: after
 * the key check and after the body was read (an answer before the body would leave its bytes on the connection).
 */
export function installMethodForms(app: FastifyInstance, routes: readonly CatalogueRoute[]): void {
  const byUrl = new Map(routerPaths(routes).map((p) => [p.url, p]));
  app.addHook('preValidation', async (req, reply) => {
    const row = req.routeOptions.config.catalogue;
    const p = row === undefined ? undefined : byUrl.get(fastifyUrl(row.path));
    if (row === undefined || p === undefined || p.actions.size === 0) return;
    const rows = rowsAddressed(p, req.url);
    if (rows.some((r) => r.method === req.method || (req.method === 'HEAD' && r.method === 'GET'))) return;
    const { code, message, allow } = refuse(req, allowFor(p, req));
    await sendError(reply.header('allow', allow), code, message);
  });
}

/**
 * Register the OPTIONS and 405 answers of every router path of `routes`. Every method Node's parser accepts (but
 * CONNECT, which never reaches a route) is made known to Fastify first, with a body, so that `SEARCH` or `PROPFIND`
 * on a served path is a 405 too (not a 404) and answered only once its body was read.
 */
export function registerMethodAnswers(app: FastifyInstance, routes: readonly CatalogueRoute[]): void {
  for (const m of METHODS) if (m !== 'CONNECT' && !app.supportedMethods.includes(m)) app.addHttpMethod(m, { hasBody: true });
  for (const p of routerPaths(routes)) {
    const served = new Set<string>([...p.plain, ...[...p.actions.values()].flat()].map((r) => r.method));
    if (served.has('GET')) served.add('HEAD');
    app.route({ method: 'OPTIONS', url: p.url, config: { keyless: true }, handler: async (req, reply) => reply.code(204).header('allow', allowFor(p, req)).send() });
    const others = app.supportedMethods.filter((m) => m !== 'OPTIONS' && !served.has(m));
    if (others.length > 0) {
      app.route({ method: others, url: p.url, handler: async (req, reply) => {
        const { code, message, allow } = refuse(req, allowFor(p, req));
        return sendError(reply.header('allow', allow), code, message);
      } });
    }
  }
}
