import { schemaDocs } from '../../lib/site-data';

/**
 * Every schema served at exactly the path of its `$id` (`https://wopkit.dev/schemas/openwop/v1/memory-entry.schema.json`
 * → `/schemas/openwop/v1/memory-entry.schema.json`), so `$id`s, examples' `$schema` and cross-file `$ref`s resolve when
 * the site is deployed at the `$id` base. Paths come from the `$id`s themselves; a schema whose `$id` lies outside
 * `/schemas/` is left out. The body is the raw file, as the reference pages' `/raw/` downloads serve it.
 */
export function getStaticPaths() {
  return schemaDocs.flatMap((doc) => {
    const path = new URL(doc.id).pathname;
    return path.startsWith('/schemas/') && path.endsWith('.json') ? [{ params: { id: path.slice('/schemas/'.length) }, props: { doc } }] : [];
  });
}

export { GET } from '../raw/[family]/[file].ts';
