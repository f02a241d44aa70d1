/** A page's search placement (search-sections.ts) with the API overviews read from the API index. */
import { apiIndex } from './api-index.ts';
import { searchPlacement, type SearchPlacement } from './search-sections.ts';
import { API_DIR } from './urls.ts';

const overviews = new Set<string>([`/${API_DIR}/`, ...Object.values(apiIndex.modules).flatMap((m) => [m.url, ...m.kindPages.map((k) => k.url)])]);

export const placementOf = (routeId: string): SearchPlacement => searchPlacement(routeId, (url) => overviews.has(url));
