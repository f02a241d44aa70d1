/**
 * Starlight route middleware, for every page:
 * - pages placed in the second search index leave Starlight's Pagefind index (site/src/lib/search-sections.ts; the
 *   second index is built by site/src/integrations/secondary-search.ts);
 * - the edit link of every page of the docs collection that is generated rather than written (the API reference,
 *   which starlight-typedoc writes into src/content/docs/api/ during the build and which is not committed) names the
 *   source file that declares what the page documents, from the API index the typedoc plugin writes
 *   (site/typedoc/api-index.ts); the overview names the Markdown it is made from. Written pages keep Starlight's own
 *   link (editLink.baseUrl + their file).
 */
import { defineRouteMiddleware } from '@astrojs/starlight/route-data';
import { apiIndex } from './lib/api-index.ts';
import { editUrl } from './lib/edit-links.ts';
import { placementOf } from './lib/search-placement.ts';
import { API_DIR } from './lib/urls.ts';

/** The Markdown the API overview page is made from (typedoc.json `readme`). */
const API_OVERVIEW_SOURCE = 'site/typedoc/overview.md';

export const onRequest = defineRouteMiddleware((context) => {
  const route = context.locals.starlightRoute;
  if (placementOf(route.id).index === 'secondary') route.entry.data.pagefind = false;
  if (!route.id.startsWith(`${API_DIR}/`) && route.id !== API_DIR) return;
  const url = `/${route.id.replace(/\/?$/, '/')}`;
  const source = url === `/${API_DIR}/` ? API_OVERVIEW_SOURCE : apiIndex.sources[url];
  route.editUrl = source === undefined ? undefined : new URL(editUrl(source));
});
