import type { APIRoute } from 'astro';
import { schemaDocs } from '../../../lib/site-data';

/** The raw schema files, downloadable from every reference page. */
export function getStaticPaths() {
  return schemaDocs.map((d) => ({ params: { family: d.family, file: d.fileName }, props: { doc: d } }));
}

export const GET: APIRoute = ({ props }) =>
  new Response(`${JSON.stringify((props as { doc: { schema: unknown } }).doc.schema, null, 2)}\n`, { headers: { 'content-type': 'application/schema+json' } });
