/**
 * The API index the typedoc plugin writes while starlight-typedoc generates the API pages (before Astro renders any
 * page): what a schema definition links to in the API reference.
 */
import { apiEntriesOf, type ApiEntry, type ApiIndex } from './api-links';
import type { Definition } from './site-data';

const found = Object.values(import.meta.glob<ApiIndex>('../../generated/api-index.json', { eager: true, import: 'default' }));
const PACKAGE = 'wopkit';
export const apiIndex: ApiIndex = found[0] ?? { formatVersion: 1, modules: {}, sources: {} };

export const apiEntries = (d: Definition): ApiEntry[] => apiEntriesOf(apiIndex, PACKAGE, d);
