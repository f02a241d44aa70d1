/**
 * The reference diagram of a schema page: the schema files whose definitions reference this file's (used by),
 * this file, and the files its definitions reference (uses), from the site data's `references` / `referencedBy`
 * (generated/site-data, the generator's resolved ref graph), laid out by the same engine as every other diagram.
 */
import type { Link, SchemaDoc } from '../../../../generator/site-data-format.ts';
import { schemaUrl } from '../urls.ts';
import type { Graph } from './graph.ts';

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

/** The reference graph of a schema file: used-by files → this file → files it uses, each box a link to its page. */
export function schemaRefGraph(doc: SchemaDoc, rows: readonly RefRow[] = schemaRefRows(doc)): Graph {
  const label = (r: { family: string; stem: string }): string => (r.family === doc.family ? r.stem : `${r.family}/${r.stem}`);
  const nodeId = (r: RefRow): string => `${r.direction === 'used by' ? 'by' : 'uses'}:${r.family}/${r.stem}`;
  const usedBy = rows.filter((r) => r.direction === 'used by');
  const uses = rows.filter((r) => r.direction === 'uses');
  return {
    id: `refs-${doc.family}-${doc.stem}`.replace(/[^a-zA-Z0-9_-]/g, '-'),
    title: `References of ${doc.fileName}`,
    source: "the generator's resolved $ref graph (the site data's references / referencedBy)",
    summary: `${usedBy.length} schema ${usedBy.length === 1 ? 'file uses' : 'files use'} this one (arrows into it); it uses ${uses.length} (arrows out of it). Each box links to its page.`,
    nodes: [
      ...usedBy.map((r) => ({ id: nodeId(r), label: label(r), kind: 'artifact' as const, href: schemaUrl(r.family, r.stem) })),
      { id: 'self', label: doc.stem, kind: 'focus' as const },
      ...uses.map((r) => ({ id: nodeId(r), label: label(r), kind: 'artifact' as const, href: schemaUrl(r.family, r.stem) })),
    ],
    // One relation on every edge: bare arrows; the table names the definitions involved.
    edges: rows.map((r) => ({ ...(r.direction === 'used by' ? { from: nodeId(r), to: 'self' } : { from: 'self', to: nodeId(r) }), label: '', detail: r.via.join('; ') })),
    columns: ['From', 'To', 'Through'],
  };
}
