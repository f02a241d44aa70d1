import type { APIRoute } from 'astro';
import { latestResults } from '../../../lib/interop';

/** Each latest results file, published as the evidence behind its cells of the matrix. */
export function getStaticPaths() {
  return latestResults.map((r) => ({ params: { file: r.file }, props: { r } }));
}
export const GET: APIRoute = ({ props }) => {
  const { file: _f, ...body } = (props as { r: Record<string, unknown> }).r;
  return new Response(`${JSON.stringify(body, null, 2)}\n`, { headers: { 'content-type': 'application/json' } });
};
