import type { APIRoute } from 'astro';
import { badgeSvg } from '../../../lib/badge';
import { badgeMessage } from '../../../lib/interop-model';
import { matrix } from '../../../lib/interop';

/** /interop/badge/<host>.svg: a shields-style badge per host, drawn at build time from its latest results. */
export function getStaticPaths() {
  return matrix.hosts.map((h) => ({ params: { host: h.slug }, props: badgeMessage(h) }));
}
export const GET: APIRoute = ({ props }) => {
  const { message, color } = props as ReturnType<typeof badgeMessage>;
  return new Response(badgeSvg('conformance', message, color), { headers: { 'content-type': 'image/svg+xml' } });
};
