/**
 * The HTTP API reference's one adapter: the reference host's route table (`ROUTES`, runtime/host/seam-catalogue.ts,
 * the same rows the host registers its routes from and the conformance suite calls) as a neutral list of operations.
 * The page renders only this model, so switching its source to the generated OpenAPI document (issue 24) changes
 * this file alone.
 */
import { ROUTES, type CatalogueRoute } from '../../../runtime/host/seam-catalogue.ts';

export type OperationGroup = CatalogueRoute['kind'];

export interface HttpOperation {
  /** Stable id (the route's name in the table): the operation's anchor. */
  readonly id: string;
  readonly group: OperationGroup;
  readonly method: CatalogueRoute['method'];
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly query: readonly string[];
  /** Who may call it: no key, any tenant key (bound to its tenant), or an operator key. */
  readonly access: 'public' | 'tenant' | 'operator';
  /** Schema title of the request body, when it reads one. */
  readonly requestBody?: string;
  /** Status of a successful answer and the schema titles it may take. */
  readonly success: { readonly status: number; readonly schemas: readonly string[] };
}

export const GROUP_TITLES: Readonly<Record<OperationGroup, string>> = {
  protocol: 'Protocol',
  health: 'Health (supervisors and load balancers)',
  seam: 'Host test seams',
  'upstream-seam': 'Test seams at upstream’s paths',
};

const params = (path: string): string[] => [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);

export function httpOperations(routes: Readonly<Record<string, CatalogueRoute>> = ROUTES): HttpOperation[] {
  return Object.entries(routes).map(([id, r]) => ({
    id,
    group: r.kind,
    method: r.method,
    path: r.path,
    pathParams: params(r.path),
    query: r.query ?? [],
    access: r.public === true ? 'public' : r.role,
    ...(r.request !== undefined ? { requestBody: r.request } : {}),
    success: { status: r.status ?? 200, schemas: [r.response, ...(r.alsoResponds ?? [])] },
  }));
}
