/**
 * Draws a laid-out graph as inline SVG at its natural size: one CSS pixel per layout unit, text at FONT_SIZE, never
 * scaled — a drawing wider than its column scrolls inside its own box instead of shrinking its text. Colours come
 * from `currentColor` and the classes styled in site/src/styles/site.css (the site's light and dark palettes);
 * without that stylesheet the drawing still reads (outlines and text in the text colour). Every id is prefixed with
 * the diagram's id, so several diagrams can share a page.
 */
import type { Graph } from './graph.ts';
import { layout, LABEL_PAD, NODE_PAD, type Layout, type PlacedLabel, type Point } from './layout.ts';
import { FONT_SIZE, LINE_HEIGHT } from './text.ts';

export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const path = (pts: readonly Point[]): string => pts.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x} ${p.y}`).join(' ');
/** Baseline of a text line inside a line box of LINE_HEIGHT (the glyphs centred in it). */
const BASELINE = Math.round((LINE_HEIGHT + FONT_SIZE * 0.72) / 2);
/** The font stack of the site's body text (Starlight's system stack), which text.ts measures. */
export const DIAGRAM_FONT = "ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/**
 * The SVG element around a drawing: its natural size, accessible name and description, the font, and the
 * arrowhead marker (`url(#<id>-arrow)`). A drawing whose boxes are links is a group (its links stay reachable);
 * any other is one image.
 */
export function svgDocument(id: string, width: number, height: number, title: string, desc: string, body: string, hasLinks = false): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="dg-svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" ` +
    `role="${hasLinks ? 'group' : 'img'}" aria-labelledby="${id}-title ${id}-desc" font-family="${DIAGRAM_FONT}" font-size="${FONT_SIZE}">` +
    `<title id="${id}-title">${esc(title)}</title><desc id="${id}-desc">${esc(desc)}</desc>` +
    `<defs><marker id="${id}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="currentColor"/></marker></defs>` +
    `${body}</svg>`
  );
}

/** Text lines centred in a box, `padY` below its top. */
function lines(texts: readonly string[], cx: number, top: number, cls: string): string {
  return texts.map((t, i) => `<text class="${cls}" x="${cx}" y="${Math.round((top + i * LINE_HEIGHT + BASELINE) * 10) / 10}" text-anchor="middle" fill="currentColor">${esc(t)}</text>`).join('');
}

function label(l: PlacedLabel): string {
  return `<g class="dg-label"><rect class="dg-label-bg" x="${l.x}" y="${l.y}" width="${l.w}" height="${l.h}" rx="3" fill="none"/>${lines(l.lines, Math.round((l.x + l.w / 2) * 10) / 10, l.y + LABEL_PAD.y, 'dg-label-text')}</g>`;
}

export interface RenderedDiagram {
  readonly graph: Graph;
  readonly layout: Layout;
  readonly svg: string;
}

/** The SVG of a laid-out graph. */
export function drawSvg(g: Graph, l: Layout): string {
  const id = `dg-${g.id}`;
  const nodes = l.nodes.map((n) => {
    const cls = ['dg-node', `dg-${n.kind}`, ...(n.initial === true ? ['dg-initial'] : []), ...(n.terminal === true ? ['dg-terminal'] : [])].join(' ');
    const rx = n.kind === 'state' ? 14 : n.kind === 'artifact' ? 2 : 6;
    const inner = n.terminal === true ? `<rect class="dg-inner" x="${n.x + 3}" y="${n.y + 3}" width="${n.w - 6}" height="${n.h - 6}" rx="${Math.max(rx - 3, 0)}" fill="none" stroke="currentColor"/>` : '';
    const body = `<rect x="${n.x}" y="${n.y}" width="${n.w}" height="${n.h}" rx="${rx}" fill="none" stroke="currentColor"/>${inner}${lines(n.lines, Math.round((n.x + n.w / 2) * 10) / 10, n.y + NODE_PAD.y, 'dg-node-text')}`;
    const group = `<g class="${cls}" data-node="${esc(n.id)}">${body}</g>`;
    return n.href === undefined ? group : `<a href="${esc(n.href)}">${group}</a>`;
  });
  const edges = l.edges.map(
    (e) =>
      `<g class="dg-edge" data-from="${esc(e.from)}" data-to="${esc(e.to)}"><path d="${path(e.points)}" fill="none" stroke="currentColor" marker-end="url(#${id}-arrow)"/></g>`,
  );
  const edgeLabels = l.edges.flatMap((e) => (e.labelBox === undefined ? [] : [label(e.labelBox)]));
  const start =
    l.start === undefined
      ? ''
      : `<g class="dg-start"><circle cx="${l.start.dot.x + l.start.dot.w / 2}" cy="${l.start.dot.y + l.start.dot.h / 2}" r="${l.start.dot.w / 2}" fill="currentColor"/><path d="${path(l.start.points)}" fill="none" stroke="currentColor" marker-end="url(#${id}-arrow)"/></g>`;
  const states = g.nodes.some((n) => n.kind === 'state');
  const desc = `${g.nodes.length} ${states ? 'states' : 'nodes'} and ${g.edges.length} ${g.edges.length === 1 ? 'edge' : 'edges'}, each labelled; the table below lists every edge.`;
  // Labels last: drawn over the edges they sit on, on the page colour.
  const body = `${start}<g class="dg-edges">${edges.join('')}</g><g class="dg-nodes">${nodes.join('')}</g><g class="dg-labels">${edgeLabels.join('')}</g>`;
  return svgDocument(id, l.width, l.height, g.title, desc, body, l.nodes.some((n) => n.href !== undefined));
}

export async function renderSvg(g: Graph): Promise<RenderedDiagram> {
  const l = await layout(g);
  return { graph: g, layout: l, svg: drawSvg(g, l) };
}
