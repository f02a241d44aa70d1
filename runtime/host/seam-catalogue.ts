/**
 * Every route the reference host serves, typed: the rows of the corpus route table (`schemas/openwop/v1/routes.json`,
 * emitted as generated/routes/routes.ts by the generator, which also writes the OpenAPI document from it) with their
 * schema titles checked against the generated validators, plus the request-target helpers. The route registration
 * (runtime/host/), the conformance suite (conformance/), the tests and the docs/host.md table all read these rows; no
 * other module spells a path.
 *
 * Pure data plus the generated validators it names: no Fastify, no runtime. The conformance suite imports it and
 * stays usable against any host over HTTP.
 */
import { validatorIndex, type Validator } from '../../generated/validators/validators.js';
import { COMMON_ERRORS, ERROR_STATUSES, PARAMETERS, ROUTE_TABLE } from '../../generated/routes/routes.ts';

export { COMMON_ERRORS, PARAMETERS };

/** A schema title of the corpus: the name of a generated type and of its validator (`validate<Title>`). */
export type SchemaTitle = keyof typeof validatorIndex;
/** The generated type a schema title names. */
export type ShapeOf<S extends SchemaTitle> = (typeof validatorIndex)[S]['validator'] extends Validator<infer T> ? T : never;

/** An HTTP status the host answers with the error envelope. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 422 | 429 | 500 | 501 | 503;
/** A parameter the route table declares. */
export type ParameterName = keyof typeof PARAMETERS;

/** One route row (the route table's schema, generator/route-table-schema.ts, says what each member means). */
export interface CatalogueRoute {
  /** protocol (a client's), seam (a fixture under /v1/host/sample/), upstream-seam (upstream's /v1/test/ paths), health. */
  readonly kind: 'protocol' | 'seam' | 'upstream-seam' | 'health';
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path, with `{name}` for a path parameter; a last segment `{name}:action` is an action on a resource. */
  readonly path: string;
  /** Query parameters the route reads, in the order the docs list them. */
  readonly query?: readonly ParameterName[];
  /** Request headers the route reads (lower-case names of the parameter table), each optional. */
  readonly headers?: readonly ParameterName[];
  /** Schema of the request body (absent: the route reads no body). */
  readonly request?: SchemaTitle;
  /** The body may be left out entirely (read as `{}`). */
  readonly bodyOptional?: true;
  /** Schema of a successful answer. */
  readonly response: SchemaTitle;
  /** Other shapes a successful answer can take (e.g. one entry instead of a list). */
  readonly alsoResponds?: readonly SchemaTitle[];
  /** Status of a successful answer (default 200). */
  readonly status?: 201;
  /** Served without the Bearer token. */
  readonly public?: true;
  /** Served with Cache-Control, a content-hash ETag and 304 (routes/cached-document.ts). */
  readonly cached?: { readonly maxAgeSeconds: number };
  /** The least role a key needs (auth.ts, auth-binding.ts). */
  readonly role: 'tenant' | 'operator';
  /** What the route does, in one line (the OpenAPI operation summary). */
  readonly summary: string;
  /** Error statuses this route answers besides {@link COMMON_ERRORS}. */
  readonly errors: readonly ErrorStatus[];
  /** Error statuses answered with another body than the envelope, by status (the readiness probe's 503). */
  readonly errorBodies?: { readonly [status: string]: SchemaTitle };
}

export const ROUTES = ROUTE_TABLE satisfies Record<string, CatalogueRoute>;

export type RouteName = keyof typeof ROUTES;
export type Route = (typeof ROUTES)[RouteName];

/** The error statuses a route can answer, its own and the shared ones, ascending (what the OpenAPI document declares). */
export const errorStatusesOf = (name: RouteName): readonly ErrorStatus[] => ERROR_STATUSES[name];

/** The `{name}` path parameters of a path, in order. */
export function pathParametersOf(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);
}

/** Names of the `{name}` parameters in a path. */
export type PathParams<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | PathParams<Rest> : never;
/** Names of a route's query parameters. */
export type QueryParams<R extends CatalogueRoute> = R extends { readonly query: readonly (infer Q)[] } ? Q & string : never;
/** The generated type of a route's request body. */
export type RequestOf<R extends CatalogueRoute> = R extends { readonly request: infer S extends SchemaTitle } ? ShapeOf<S> : never;

/** The generated validator a schema title names. */
export function validatorOf<S extends SchemaTitle>(title: S): (typeof validatorIndex)[S]['validator'] {
  return validatorIndex[title].validator;
}

/** The action of a path whose last segment is `{name}:action` (`fork` for the fork route, runFork), else undefined. */
export function actionOf(route: CatalogueRoute): string | undefined {
  return /\{[A-Za-z]+\}:([A-Za-z]+)$/.exec(route.path)?.[1];
}

/** Where a request goes: the path parameters (required when the path has any) and the query parameters that are set. */
export type Target<R extends CatalogueRoute> = ([PathParams<R['path']>] extends [never] ? { readonly params?: undefined } : { readonly params: { readonly [K in PathParams<R['path']>]: string } })
  & { readonly query?: { readonly [K in QueryParams<R>]?: string | number | undefined } };

/** Path and query values of a request, checked against the route when the target is built (urlOf also checks their names at compile time). */
export interface TargetValues {
  readonly params?: Readonly<Record<string, string>> | undefined;
  readonly query?: Readonly<Record<string, string | number | undefined>> | undefined;
}

/**
 * The request target of a route: each `{name}` filled with its URI-encoded value, then the query parameters that
 * are set, URI-encoded, in the order given (`?a=1&b=x`).
 */
export function targetOf(route: CatalogueRoute, { params = {}, query = {} }: TargetValues = {}): string {
  const declared: readonly string[] = route.query ?? [];
  const undeclared = Object.keys(query).filter((k) => !declared.includes(k));
  if (undeclared.length > 0) throw new RangeError(`${route.method} ${route.path} reads no query parameter ${undeclared.join(', ')}`);
  const path = route.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new RangeError(`${route.method} ${route.path} needs the path parameter ${name}`);
    return encodeURIComponent(params[name]);
  });
  const q = Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return q.length === 0 ? path : `${path}?${q.join('&')}`;
}

/** `targetOf`, with the parameter names checked against the route (path parameters required when it has any). */
export function urlOf<R extends CatalogueRoute>(route: R, ...[target]: [PathParams<R['path']>] extends [never] ? [Target<R>?] : [Target<R>]): string {
  return targetOf(route, target);
}
