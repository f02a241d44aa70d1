import type { APIRoute } from 'astro';
import { hostResults } from '../../../lib/interop';

/** Each host's results file, published as the evidence behind its column of the matrix. */
export function getStaticPaths() {
  return hostResults.map((r) => ({ params: { file: r.file }, props: { r } }));
}
export const GET: APIRoute = ({ props }) => {
  const { file: _f, ...body } = (props as { r: Record<string, unknown> }).r;
  return new Response(`${JSON.stringify(body, null, 2)}\n`, { headers: { 'content-type': 'application/json' } });
};
