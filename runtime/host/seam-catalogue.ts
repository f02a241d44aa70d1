/**
 * Every route the reference host serves, typed: the rows of route-table.ts (pure data, also read by the generator's
 * OpenAPI emitter) with their schema titles checked against the generated validators, plus the request-target
 * helpers. The route registration (runtime/host/), the conformance suite (conformance/), the tests and the
 * docs/host.md table all read these rows; no other module spells a path.
 *
 * Pure data plus the generated validators it names: no Fastify, no runtime. The conformance suite imports it and
 * stays usable against any host over HTTP.
 */
import { validatorIndex, type Validator } from '../../generated/validators/validators.js';
import { ROUTE_TABLE, type RouteRow } from './route-table.ts';

export { COMMON_ERRORS, errorStatusesOf, PARAMETERS, pathParametersOf, type ErrorStatus, type ParameterName } from './route-table.ts';

/** A schema title of the corpus: the name of a generated type and of its validator (`validate<Title>`). */
export type SchemaTitle = keyof typeof validatorIndex;
/** The generated type a schema title names. */
export type ShapeOf<S extends SchemaTitle> = (typeof validatorIndex)[S]['validator'] extends Validator<infer T> ? T : never;

/** A route row whose schema titles name generated validators. */
export interface CatalogueRoute extends Omit<RouteRow, 'request' | 'response' | 'alsoResponds'> {
  /** Schema of the request body (absent: the route reads no body). */
  readonly request?: SchemaTitle;
  /** Schema of a successful answer. */
  readonly response: SchemaTitle;
  /** Other shapes a successful answer can take (e.g. one entry instead of a list). */
  readonly alsoResponds?: readonly SchemaTitle[];
}

export const ROUTES = ROUTE_TABLE satisfies Record<string, CatalogueRoute>;

export type RouteName = keyof typeof ROUTES;
export type Route = (typeof ROUTES)[RouteName];

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
