/**
 * What a laid-out diagram must never do, checked on the engine's output (the coordinates the SVG is drawn from):
 * two edges running along one stretch (a reader could not tell them apart), an edge label over a node or over
 * another label, a label or node outside the drawing, a route that is not orthogonal. The tests run it over every
 * diagram of the site.
 */
import type { Box, Layout, Point } from './layout.ts';

/** Two boxes share area (touching edges do not count). */
export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

interface Segment { readonly edge: number; readonly a: Point; readonly b: Point }

const segmentsOf = (points: readonly Point[], edge: number): Segment[] => points.slice(1).map((b, i) => ({ edge, a: points[i]!, b }));
const EPS = 0.05;

/** Length two axis-parallel segments run along each other (0 when they only cross or touch at a point). */
export function sharedLength(s: Pick<Segment, 'a' | 'b'>, t: Pick<Segment, 'a' | 'b'>): number {
  const horizontal = (x: Pick<Segment, 'a' | 'b'>) => Math.abs(x.a.y - x.b.y) < EPS;
  const vertical = (x: Pick<Segment, 'a' | 'b'>) => Math.abs(x.a.x - x.b.x) < EPS;
  const overlap = (p0: number, p1: number, q0: number, q1: number) => Math.max(0, Math.min(Math.max(p0, p1), Math.max(q0, q1)) - Math.max(Math.min(p0, p1), Math.min(q0, q1)));
  if (horizontal(s) && horizontal(t) && Math.abs(s.a.y - t.a.y) < EPS) return overlap(s.a.x, s.b.x, t.a.x, t.b.x);
  if (vertical(s) && vertical(t) && Math.abs(s.a.x - t.a.x) < EPS) return overlap(s.a.y, s.b.y, t.a.y, t.b.y);
  return 0;
}

/** Every rule the layout breaks, in words (empty: it reads). */
export function layoutProblems(l: Layout): string[] {
  const problems: string[] = [];
  const name = (i: number) => (i < 0 ? 'start' : `${l.edges[i]!.from} → ${l.edges[i]!.to}`);
  const routes = [...(l.start !== undefined ? [{ edge: -1, points: l.start.points }] : []), ...l.edges.map((e, i) => ({ edge: i, points: e.points }))];
  const segments = routes.flatMap((r) => segmentsOf(r.points, r.edge));
  for (const s of segments) {
    if (Math.abs(s.a.x - s.b.x) >= EPS && Math.abs(s.a.y - s.b.y) >= EPS) problems.push(`edge ${name(s.edge)} has a diagonal segment`);
  }
  for (const [i, s] of segments.entries()) {
    for (const t of segments.slice(i + 1)) {
      if (s.edge !== t.edge && sharedLength(s, t) > EPS) problems.push(`edges ${name(s.edge)} and ${name(t.edge)} share ${sharedLength(s, t).toFixed(1)} px of one line`);
    }
  }
  const labelled = l.edges.flatMap((e, i) => (e.labelBox === undefined ? [] : [{ i, box: e.labelBox }]));
  for (const { i, box } of labelled) {
    for (const n of l.nodes) if (overlaps(box, n)) problems.push(`label of ${name(i)} overlaps node ${n.id}`);
    if (l.start !== undefined && overlaps(box, l.start.dot)) problems.push(`label of ${name(i)} overlaps the start dot`);
  }
  for (const [k, a] of labelled.entries()) for (const b of labelled.slice(k + 1)) if (overlaps(a.box, b.box)) problems.push(`labels of ${name(a.i)} and ${name(b.i)} overlap`);
  const inside = (b: Box) => b.x >= 0 && b.y >= 0 && b.x + b.w <= l.width && b.y + b.h <= l.height;
  for (const n of l.nodes) if (!inside(n)) problems.push(`node ${n.id} is outside the drawing`);
  for (const { i, box } of labelled) if (!inside(box)) problems.push(`label of ${name(i)} is outside the drawing`);
  return problems;
}
