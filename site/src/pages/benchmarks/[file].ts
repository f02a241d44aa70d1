import type { APIRoute } from 'astro';
import { benchViews } from '../../lib/bench';

/** Each benchmark results file, published beside the page that renders it. */
export function getStaticPaths() {
  return benchViews.map((b) => ({ params: { file: b.file } }));
}
const raw = import.meta.glob<string>('../../../../bench/results/*.json', { eager: true, query: '?raw', import: 'default' });
export const GET: APIRoute = ({ params }) => {
  const body = Object.entries(raw).find(([p]) => p.endsWith(`/${params.file}`))?.[1] ?? '';
  return new Response(body, { headers: { 'content-type': 'application/json' } });
};
