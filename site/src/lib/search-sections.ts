/**
 * Search ranks the specification first and still finds the API. Every page belongs to a section (a filter in the
 * search dialog) and to one of two Pagefind indexes:
 * - the main index (Starlight's): the spec with the home page, the RFCs and the schema reference of the protocol; and
 *   the API's overview pages (the reference's start, each subpath's page, each kind's index, the HTTP API), whose
 *   headings name every function and whose tables list every entry, weighted OVERVIEW_TEXT_WEIGHT (a weight on a
 *   page's content applies to its headings too, so it is used to lower, never to raise);
 * - a second index, merged by the search dialog with its scores multiplied by SECONDARY_WEIGHT: the ~560 pages of
 *   single API entries (a class, an interface, a type, whose title is a name such as `RedactionFailedError`), the
 *   schemas of the host test seams (`host-sample-*`, fixtures a conformance run drives, named after what they
 *   exercise) and the pages built from data (diagrams, interop, benchmarks, changelog, widget gallery, playground,
 *   other languages).
 * So "redaction" finds the spec's SR-1 section and the schemas before `RedactionFailedError`, and `createHost` still
 * finds the host's API page. Pure data and functions, used by the route middleware, the content wrapper (filter,
 * weight) and the integration that builds the second index; the weights are held to the acceptance queries by
 * test/site/search.test.ts.
 */

import { isHostSeam } from './schema-groups.ts';

export type SearchIndex = 'main' | 'secondary';

export interface SearchPlacement {
  /** Shown in the search dialog's filter. */
  readonly section: 'Spec' | 'RFC' | 'Schema' | 'API' | 'Tools and results';
  readonly index: SearchIndex;
  /** Weight of the page's content, headings included (Pagefind's default weights when absent). */
  readonly textWeight?: number;
}

/** Weight of the content of the API's overview pages (Pagefind's default is 1): lists of names. */
export const OVERVIEW_TEXT_WEIGHT = 0.5;
/** Where the second index is written and served from. */
export const SECONDARY_BUNDLE = '/pagefind-secondary/';
/** The second index's scores are multiplied by this when merged. */
export const SECONDARY_WEIGHT = 0.1;
/**
 * Ranking of both indexes: Pagefind's own defaults. Starlight's (page length and term frequency 0.1, similarity 9)
 * rank a near match such as `Validator` above the exact identifier `validateMemoryEntry`.
 */
export const SEARCH_RANKING = { pageLength: 0.75, termFrequency: 1.0, termSaturation: 1.4, termSimilarity: 1.0 } as const;

const PRIMARY: Readonly<Record<string, SearchPlacement['section']>> = { '': 'Spec', spec: 'Spec', rfcs: 'RFC', schemas: 'Schema' };

/**
 * Where a page goes, by its route id (`spec/inquirium`, `api/wopkit/host`, `` for home). `isApiOverview` says
 * whether an API page is an overview (from the API index: the reference's start, a subpath's page, a kind's index).
 */
export function searchPlacement(routeId: string, isApiOverview: (url: string) => boolean): SearchPlacement {
  const id = routeId.replace(/^\/+|\/+$/g, '');
  const first = id.split('/')[0] ?? '';
  const primary = PRIMARY[first];
  if (first === 'schemas' && isHostSeam(id.split('/')[2] ?? '')) return { section: 'Schema', index: 'secondary' };
  if (primary !== undefined) return { section: primary, index: 'main' };
  if (first === 'http-api' || (first === 'api' && isApiOverview(`/${id}/`))) return { section: 'API', index: 'main', textWeight: OVERVIEW_TEXT_WEIGHT };
  if (first === 'api') return { section: 'API', index: 'secondary' };
  return { section: 'Tools and results', index: 'secondary' };
}
