/**
 * Site URLs, as pure functions: used by the Astro pages (through site-data.ts) and by the typedoc plugin
 * (site/typedoc/), which runs in plain Node while the site's API pages are generated.
 */

/** The reference page of a schema file. */
export const schemaUrl = (family: string, stem: string): string => `/schemas/${family}/${stem}/`;

/** A definition's place on its schema page (a root or `$defs` entry; the anchor is its title). */
export const definitionUrl = (family: string, stem: string, anchor: string | null): string =>
  anchor === null ? schemaUrl(family, stem) : `${schemaUrl(family, stem)}#${anchor}`;

/** The raw schema file, as downloaded from its reference page. */
export const rawUrl = (family: string, fileName: string): string => `/raw/${family}/${fileName}`;

/** Where the generated API reference lives inside the docs collection (and under the site root). */
export const API_DIR = 'api';
