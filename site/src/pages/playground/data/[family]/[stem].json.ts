/** The playground data of one schema file (site/src/lib/playground/model.ts), fetched by the validator boxes. */
import type { APIRoute } from 'astro';
import { KNOWN_RUN_EVENT_TYPES, RUN_EVENT_ENVELOPE } from '../../../../../../generated/run-events/index.ts';
import { playgroundFile } from '../../../../lib/playground/model.ts';
import { definitionOf, linkHref, schemaDocs, typeIndexEntries, type SchemaDoc } from '../../../../lib/site-data.ts';

export function getStaticPaths() {
  return schemaDocs.map((doc) => ({ params: { family: doc.family, stem: doc.stem }, props: { doc } }));
}

const index = { definitionOf, hrefOf: (family: string, stem: string, d: { def: string; anchor: string }) => linkHref({ family, stem, anchor: d.anchor }) };

export const GET: APIRoute = ({ props }) =>
  new Response(JSON.stringify(playgroundFile((props as { doc: SchemaDoc }).doc, index, typeIndexEntries, { envelope: RUN_EVENT_ENVELOPE, known: KNOWN_RUN_EVENT_TYPES })), {
    headers: { 'content-type': 'application/json' },
  });
