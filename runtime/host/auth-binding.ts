/**
 * Authentication and tenant binding, once, for every route (docs/security.md, "Threat model").
 *
 * 1. `onRequest`: every path but the public ones needs `Authorization: Bearer <key>` of a configured key (401
 *    otherwise, before routing: an unknown path without a key is a 401, not a 404). The key's principal is put
 *    on the request.
 * 2. `preValidation` (after the body is parsed, before Fastify validates the inputs and before the handler): the route's catalogue row says which role it
 *    needs; a tenant key on an operator route is a 403 `forbidden`. A tenant key's request is then bound to its
 *    tenant, from the table below — whatever the route: every input that names a tenant's resource must name one
 *    of the key's tenant:
 *    - a `tenant` (query or body) or `tenantId` (the run start's body, as upstream names it) of another tenant: 403
 *      `forbidden`;
 *    - a `memoryRef` (query or body) of another tenant: 403 `forbidden` (the ref itself names its tenant, so the
 *      refusal tells the caller nothing it did not send);
 *    - a `runId` (path or body) of a run of another tenant (every event log belongs to a run of one tenant, host
 *      work included): 404 `not_found`, the same answer as a run that does not exist — run ids are opaque, and
 *      whether one exists must not leak;
 *    - a `proposalId` (path) of another tenant's proposal: 404 `not_found`, as for a run.
 *    A route marked `role: 'tenant'` may read only inputs of this table or of `NEUTRAL_INPUTS` (checked by
 *    test/security/tenancy-credentials.test.ts), so a new tenant route cannot take an unbound identifier.
 *
 * An operator key acts across tenants: nothing is bound, and a route's `tenant` input names the tenant it acts as
 * (`default` when it names none: {@link tenantActedAs}).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tenantOf } from '../memory/memory-ref.ts';
import type { Credentials, Principal } from './auth.ts';
import { HttpError, sendError } from './errors.ts';
import type { HostRuntime } from './host-runtime.ts';
import type { Tx, Units } from '../storage/index.ts';
import { actionOf, ROUTES, type CatalogueRoute } from './seam-catalogue.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request acts as (null on public routes). */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** The catalogue row a route was registered from (route-helpers.ts `serve`). */
    catalogue?: CatalogueRoute;
  }
}

type Binding = (value: string, tenant: string, host: HostRuntime, tx: Tx) => HttpError | undefined | Promise<HttpError | undefined>;

const forbidden = (what: string): HttpError => new HttpError('forbidden', `${what} belongs to another tenant than the API key's`);

/** How each tenant-naming input is bound to the key's tenant. */
export const BOUND_INPUTS: Readonly<Record<string, Binding>> = {
  tenant: (v, t) => (v === t ? undefined : forbidden('tenant')),
  tenantId: (v, t) => (v === t ? undefined : forbidden('tenantId')),
  memoryRef: (v, t) => {
    const owner = tenantOf(v);
    return owner === undefined || owner === t ? undefined : forbidden('memoryRef');
  },
  runId: async (v, t, host, tx) => {
    const owner = await host.runTenant(tx, v);
    return owner !== undefined && owner !== t ? new HttpError('not_found', 'no such run') : undefined;
  },
  proposalId: async (v, t, host, tx) => {
    const owner = await host.proposalTenant(tx, v);
    return owner !== undefined && owner !== t ? new HttpError('not_found', 'no such proposal') : undefined;
  },
};

/**
 * Inputs that name nothing of a tenant by themselves: a position, a list cursor (signed for the list it resumes, and
 * refused for any other: memory/cursor.ts), an entry id inside a bound ref, a filter, a fork
 * mode and its run options, an interrupt of a bound run and the answer to it, a workflow id (the host's own fixture workflows, shared by every tenant) and its inputs (which the fixtures
 * ignore), or the content a client sends for a resource that is itself bound (a proposal revision).
 */
export const NEUTRAL_INPUTS: ReadonlySet<string> = new Set(['fromSeq', 'id', 'tag', 'limit', 'cursor', 'mode', 'workflowId', 'inputs', 'state', 'kind', 'artifact', 'title', 'rationale', 'nodeId', 'resumeValue', 'runOptionsOverlay']);

/** The tenant an operator key acts as when a request names none. */
export const OPERATOR_DEFAULT_TENANT = 'default';

/**
 * The tenant a request acts as, the one rule for every route: a tenant key's own tenant, whatever the request names
 * (a different name was already refused by {@link authorize}); an operator key's named tenant, or
 * {@link OPERATOR_DEFAULT_TENANT} when it names none — so an operator key lists, reads and starts runs as `default`
 * alike instead of acting as nobody on some routes.
 */
export function tenantActedAs(principal: Principal | null, named: string | undefined): string {
  return principal?.role === 'tenant' ? principal.tenant : (named ?? OPERATOR_DEFAULT_TENANT);
}

/** Paths served without a key (the catalogue marks them; none has a path parameter). */
const PUBLIC_PATHS = new Set<string>(Object.values(ROUTES).filter((r) => 'public' in r && r.public).map((r) => r.path));

/** The string inputs of a request, by where they came from. */
function inputsOf(req: FastifyRequest, route: CatalogueRoute): [string, string][] {
  const out: [string, string][] = [];
  const action = actionOf(route);
  for (const [k, v] of Object.entries((req.params ?? {}) as Record<string, unknown>)) {
    if (typeof v === 'string') out.push([k, action !== undefined && v.endsWith(`:${action}`) ? v.slice(0, -action.length - 1) : v]);
  }
  for (const source of [req.query, req.body]) {
    if (typeof source !== 'object' || source === null || Array.isArray(source)) continue;
    for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
      for (const s of [v].flat()) if (typeof s === 'string') out.push([k, s]);
    }
  }
  return out;
}

/**
 * Refuse `req` when `principal` may not call `route` with these inputs (see the module comment). The owners of the
 * ids it names are read in a read-only unit of its own: the binding runs before Fastify validates the request, so
 * before the request's unit is opened (test/architecture/unit-of-work.test.ts names this exception).
 */
export async function authorize(principal: Principal, route: CatalogueRoute, req: FastifyRequest, host: HostRuntime, units: Units): Promise<void> {
  if (principal.role === 'operator') return;
  if (route.role === 'operator') throw new HttpError('forbidden', 'this route needs an operator key');
  const bound = inputsOf(req, route).filter(([name]) => BOUND_INPUTS[name] !== undefined);
  if (bound.length === 0) return;
  const refusal = await units(async (tx) => {
    for (const [name, value] of bound) {
      const found = await BOUND_INPUTS[name]!(value, principal.tenant, host, tx);
      if (found !== undefined) return found;
    }
    return undefined;
  });
  if (refusal !== undefined) throw refusal;
}

/** The path of a request URL (without its query string). */
const pathOf = (url: string): string => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/**
 * Install authentication (onRequest) and authorisation + tenant binding (preValidation) on `app`. The onRequest hook
 * runs on every request, public ones included, so it is callback-style (an async hook costs a promise): a refusal
 * answers and does not continue.
 */
export function installAuth(app: FastifyInstance, credentials: Credentials, host: HostRuntime): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', (req, reply, done) => {
    if (PUBLIC_PATHS.has(pathOf(req.url)) || req.routeOptions.config.keyless === true) return done();
    const principal = credentials.authenticate(req.headers.authorization);
    if (principal === undefined) {
      // Refused before its body is read: the connection closes after the answer, so no byte of that body is ever
      // read as a request of its own.
      if (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0) reply.header('connection', 'close');
      return void sendError(reply, 'unauthorized', 'a valid Bearer token is required');
    }
    req.principal = principal;
    done();
  });
  // preValidation: after the body is parsed, before Fastify validates it — a tenant key on an operator route, or naming
  // another tenant, is refused as such (403/404) whatever else is wrong with the request.
  app.addHook('preValidation', async (req) => {
    const route = req.routeOptions.config.catalogue;
    if (route === undefined || req.principal === null) return;
    await authorize(req.principal, route, req, host, app.units);
  });
}
