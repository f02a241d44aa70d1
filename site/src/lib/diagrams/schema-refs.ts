/**
 * The reference diagram of a schema page: the schema files whose definitions reference this file's (used by),
 * this file, and the files its definitions reference (uses), from the site data's `references` / `referencedBy`
 * (generated/site-data, the generator's resolved ref graph). Drawn as two buses — however many files reference
 * a schema, the drawing grows downwards and stays as narrow as its longest name, so it reads at 390 px.
 */
import type { Link, SchemaDoc } from '../../../../generator/site-data-format.ts';
import { schemaUrl } from '../urls.ts';
import { textWidth } from './layout.ts';
import { esc, svgDocument } from './svg.ts';

export interface RefRow {
  readonly direction: 'used by' | 'uses';
  readonly family: string;
  readonly stem: string;
  /** `Their definition → ours` (used by) or `ours → their definition` (uses), sorted. */
  readonly via: readonly string[];
}

/** Other schema files this one uses and is used by, each with the definition pairs that make the reference. */
export function schemaRefRows(doc: SchemaDoc): RefRow[] {
  const rows = new Map<string, { direction: RefRow['direction']; family: string; stem: string; via: Set<string> }>();
  const add = (direction: RefRow['direction'], l: Link, pair: string): void => {
    if (l.family === doc.family && l.stem === doc.stem) return;
    const key = `${direction}\u0000${l.family}/${l.stem}`;
    const row = rows.get(key) ?? { direction, family: l.family, stem: l.stem, via: new Set<string>() };
    row.via.add(pair);
    rows.set(key, row);
  };
  for (const d of doc.definitions) {
    for (const l of d.referencedBy) add('used by', l, `${l.title ?? l.pointer ?? l.stem} → ${d.title}`);
    for (const l of d.references) add('uses', l, `${d.title} → ${l.title ?? l.pointer ?? l.stem}`);
  }
  const order = (r: { direction: string; family: string; stem: string }): string => `${r.direction === 'used by' ? 0 : 1}${r.family}/${r.stem}`;
  return [...rows.values()].sort((a, b) => order(a).localeCompare(order(b))).map((r) => ({ direction: r.direction, family: r.family, stem: r.stem, via: [...r.via].sort() }));
}

const ROW = 30;
const GAP = 8;
const BUS_X = 26;
const BOX_X = 44;
const MARGIN = 14;
const HEAD = 20;

/** The diagram as inline SVG (empty string when the file neither uses nor is used by another). */
export function schemaRefSvg(doc: SchemaDoc, rows: readonly RefRow[] = schemaRefRows(doc)): string {
  if (rows.length === 0) return '';
  const id = `dg-refs-${doc.family}-${doc.stem}`.replace(/[^a-zA-Z0-9_-]/g, '-');
  const label = (r: { family: string; stem: string }): string => (r.family === doc.family ? r.stem : `${r.family}/${r.stem}`);
  const usedBy = rows.filter((r) => r.direction === 'used by');
  const uses = rows.filter((r) => r.direction === 'uses');
  const boxW = (s: string): number => Math.ceil(textWidth(s) + 24);
  const width = Math.ceil(Math.max(BOX_X + Math.max(0, ...rows.map((r) => boxW(label(r)))), MARGIN + boxW(doc.stem) + 8) + MARGIN);
  const parts: string[] = [];
  let y = MARGIN;
  const box = (r: RefRow | undefined, text: string, x: number, top: number, focus: boolean): void => {
    const w = focus ? boxW(text) + 8 : boxW(text);
    const g = `<g class="dg-node ${focus ? 'dg-focus' : 'dg-artifact'}" data-node="${esc(text)}"><rect x="${x}" y="${top}" width="${w}" height="${ROW}" rx="4" fill="none" stroke="currentColor"${focus ? ' stroke-width="2"' : ''}/><text x="${x + 12}" y="${top + 19}" fill="currentColor"${focus ? ' font-weight="600"' : ''}>${esc(text)}</text></g>`;
    parts.push(r === undefined ? g : `<a href="${esc(schemaUrl(r.family, r.stem))}">${g}</a>`);
  };
  const heading = (text: string): void => {
    parts.push(`<text class="dg-heading" x="${MARGIN}" y="${y + 13}" fill="currentColor" font-size="11">${esc(text)}</text>`);
    y += HEAD;
  };
  const arrow = `marker-end="url(#${id}-arrow)"`;
  if (usedBy.length > 0) {
    heading(`Used by (${usedBy.length})`);
    const top = y;
    for (const r of usedBy) {
      box(r, label(r), BOX_X, y, false);
      parts.push(`<path class="dg-edge" d="M${BOX_X} ${y + ROW / 2} L${BUS_X} ${y + ROW / 2}" fill="none" stroke="currentColor"/>`);
      y += ROW + GAP;
    }
    parts.push(`<path class="dg-edge" d="M${BUS_X} ${top + ROW / 2} L${BUS_X} ${y + GAP}" fill="none" stroke="currentColor" ${arrow}/>`);
    y += GAP + 2;
  }
  box(undefined, doc.stem, MARGIN, y, true);
  y += ROW;
  if (uses.length > 0) {
    const top = y;
    y += GAP + 4;
    heading(`Uses (${uses.length})`);
    let last = top;
    for (const r of uses) {
      box(r, label(r), BOX_X, y, false);
      parts.push(`<path class="dg-edge" d="M${BUS_X} ${y + ROW / 2} L${BOX_X} ${y + ROW / 2}" fill="none" stroke="currentColor" ${arrow}/>`);
      last = y + ROW / 2;
      y += ROW + GAP;
    }
    parts.push(`<path class="dg-edge" d="M${BUS_X} ${top} L${BUS_X} ${last}" fill="none" stroke="currentColor"/>`);
    y -= GAP;
  }
  const height = y + MARGIN;
  const title = `References of ${doc.fileName}`;
  const desc = `${usedBy.length} schema files use it, it uses ${uses.length}; the table below lists each with the definitions involved.`;
  return svgDocument(id, width, height, title, desc, parts.join(''));
}
