/**
 * Draws a laid-out graph as inline SVG. Colours come from `currentColor` and the classes styled in
 * site/src/styles/site.css (the site's light and dark palettes); without that stylesheet the drawing still reads
 * (outlines and text in the text colour, no fills). Every id is prefixed with the diagram's id, so several
 * diagrams can share a page. Numbers on the edges are the rows of the table under the drawing.
 */
import type { Graph } from './graph.ts';
import { FONT_SIZE, layout, type Layout, type Point } from './layout.ts';

export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const path = (pts: readonly Point[]): string => pts.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' ');

/** Narrowest the drawing may be scaled to (as a share of its natural width) before its box scrolls instead. */
export const MIN_SCALE = 0.7;

/**
 * The SVG element around a drawing: its size (shrinking to MIN_SCALE before its box scrolls), accessible name and
 * description, the font, and the arrowhead marker (`url(#<id>-arrow)`).
 */
export function svgDocument(id: string, width: number, height: number, title: string, desc: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="dg-svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
    `style="min-width:${Math.ceil(width * MIN_SCALE)}px" role="img" aria-labelledby="${id}-title ${id}-desc" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="${FONT_SIZE}">` +
    `<title id="${id}-title">${esc(title)}</title><desc id="${id}-desc">${esc(desc)}</desc>` +
    `<defs><marker id="${id}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="currentColor"/></marker></defs>` +
    `${body}</svg>`
  );
}

export interface RenderedDiagram {
  readonly graph: Graph;
  readonly layout: Layout;
  readonly svg: string;
}

export function renderSvg(g: Graph): RenderedDiagram {
  const l = layout(g);
  const id = `dg-${g.id}`;
  const nodes = l.nodes.map((n) => {
    const cls = ['dg-node', `dg-${n.kind}`, ...(n.initial === true ? ['dg-initial'] : []), ...(n.terminal === true ? ['dg-terminal'] : [])].join(' ');
    const rx = n.kind === 'state' ? 14 : n.kind === 'artifact' ? 2 : 6;
    const inner = n.terminal === true ? `<rect x="${n.x + 3}" y="${n.y + 3}" width="${n.w - 6}" height="${n.h - 6}" rx="${Math.max(rx - 3, 0)}" fill="none" stroke="currentColor"/>` : '';
    const text = n.lines.map((line, i) => `<text x="${n.x + n.w / 2}" y="${n.y + 8 + 17 * i + 13}" text-anchor="middle" fill="currentColor">${esc(line)}</text>`).join('');
    const body = `<rect x="${n.x}" y="${n.y}" width="${n.w}" height="${n.h}" rx="${rx}" fill="none" stroke="currentColor"/>${inner}${text}`;
    const g1 = `<g class="${cls}" data-node="${esc(n.id)}">${body}</g>`;
    return n.href === undefined ? g1 : `<a href="${esc(n.href)}">${g1}</a>`;
  });
  const edges = l.edges.map((e) => {
    const title = `${e.n}. ${e.from} → ${e.to}: ${e.label}`;
    return (
      `<g class="dg-edge" data-from="${esc(e.from)}" data-to="${esc(e.to)}"><title>${esc(title)}</title>` +
      `<path d="${path(e.points)}" fill="none" stroke="currentColor" marker-end="url(#${id}-arrow)"/>` +
      `<circle class="dg-badge" cx="${e.badge.x}" cy="${e.badge.y}" r="8" fill="none" stroke="currentColor"/>` +
      `<text class="dg-badge-text" x="${e.badge.x}" y="${e.badge.y + 3.5}" text-anchor="middle" fill="currentColor" font-size="10">${e.n}</text></g>`
    );
  });
  const start = l.start === undefined ? '' : `<g class="dg-start"><circle cx="${l.start.dot.x}" cy="${l.start.dot.y}" r="5" fill="currentColor"/><path d="${path(l.start.points)}" fill="none" stroke="currentColor" marker-end="url(#${id}-arrow)"/></g>`;
  const desc = `${g.nodes.length} ${g.direction === 'TB' && g.nodes.some((n) => n.kind === 'state') ? 'states' : 'nodes'} and ${g.edges.length} numbered edges; the table below lists every edge.`;
  const svg = svgDocument(id, l.width, l.height, g.title, desc, `${start}<g class="dg-edges">${edges.join('')}</g><g class="dg-nodes">${nodes.join('')}</g>`);
  return { graph: g, layout: l, svg };
}
