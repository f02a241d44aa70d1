/**
 * What the host's request log may say about a request (issue 12, item 7): its method, the route pattern it matched
 * (with `:name` for a path parameter, never the path as sent, which may carry an id or a secret), and the names of the
 * query parameters it sent that some catalogue route reads — never a value, never a header. A query string carries
 * tag filters, ids and, from careless clients, API keys (`?api_key=…`, `?token=…`); none of it reaches the log.
 *
 * Pino's `redact` additionally censors credential-bearing paths should any log call pass headers or a query
 * object explicitly. Whatever serializers a caller configures, the request serializer here wins.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { ROUTES } from './seam-catalogue.ts';

/** Query parameter names the log may name: those a catalogue route reads. Any other name is only counted. */
const KNOWN_QUERY_NAMES: ReadonlySet<string> = new Set(Object.values(ROUTES).flatMap((r) => ('query' in r ? [...r.query] : [])));

/** Paths pino censors wherever a log call puts them. */
const REDACTED_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'req.query', 'req.url',
  'headers.authorization', 'headers.cookie', 'headers["x-api-key"]', 'authorization', 'query', 'url',
];

export type RequestLogSummary = {
  readonly method: string;
  /** The matched route pattern; absent when no route matched (a 404 or a refusal before routing). */
  readonly route?: string;
  /** Names of the known query parameters sent, in order (values are never logged). */
  readonly queryParams?: readonly string[];
  /** How many other query parameters were sent (their names may themselves be secrets). */
  readonly otherQueryParams?: number;
  readonly remoteAddress?: string;
};

/** The request serializer: the summary above, nothing else. */
export function requestSummary(req: FastifyRequest): RequestLogSummary {
  const at = req.url.indexOf('?');
  const names = at < 0 ? [] : [...new URLSearchParams(req.url.slice(at + 1)).keys()];
  const known = names.filter((n) => KNOWN_QUERY_NAMES.has(n));
  const route = req.routeOptions?.url;
  return {
    method: req.method,
    ...(route !== undefined ? { route } : {}),
    ...(known.length > 0 ? { queryParams: known } : {}),
    ...(names.length > known.length ? { otherQueryParams: names.length - known.length } : {}),
    ...(req.ip !== undefined ? { remoteAddress: req.ip } : {}),
  };
}

/** The host's logger options: the caller's (level, stream, …) with the request serializer and redaction above. */
export function hostLogger(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === undefined || logger === false) return false;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { ...base.serializers, req: requestSummary }, redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' } };
}
