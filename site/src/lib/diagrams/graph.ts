/**
 * A diagram as data: nodes, edges and what each means. Every diagram of the site is built as a `Graph` from data
 * the runtime or the generator exports (a lifecycle table, an order, the runtime's wiring table, the emitter table,
 * the schema reference graph), laid out by ELK (layout.ts) and drawn by svg.ts; its edges are also shown as a table
 * under the drawing, its text alternative.
 */

/** How a node is drawn: a lifecycle state (initial / terminal marked), a stage of a flow, or a thing a flow passes. */
export type NodeKind = 'state' | 'stage' | 'artifact' | 'focus';

export interface GraphNode {
  readonly id: string;
  /** Shown in the box; `\n` breaks a line. */
  readonly label: string;
  readonly kind: NodeKind;
  readonly initial?: boolean;
  readonly terminal?: boolean;
  /** Makes the node a link (schema reference diagrams). */
  readonly href?: string;
}

export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  /**
   * What the edge means (the event that causes a transition, what a stage hands on): drawn on the edge and the
   * table's last column. An empty label draws a bare arrow (the schema reference diagrams, whose relation is the
   * same on every edge).
   */
  readonly label: string;
  /** What the text alternative says about the edge when it says more than the drawn label (the schema references: the definitions involved). */
  readonly detail?: string;
}

export interface Graph {
  /** Stable id: the diagram's page and the prefix of every id inside its SVG. */
  readonly id: string;
  readonly title: string;
  /** Where the data comes from (RFC / module), shown under the diagram. */
  readonly source: string;
  /** One or two sentences on how to read it. */
  readonly summary: string;
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /** Headings of the text alternative's from / to / label columns. */
  readonly columns: readonly [string, string, string];
}

/** Check that every edge names declared nodes and that ids are unique; returns the graph. */
export function checkGraph(g: Graph): Graph {
  const ids = new Set<string>();
  for (const n of g.nodes) {
    if (ids.has(n.id)) throw new Error(`diagram ${g.id}: duplicate node ${n.id}`);
    ids.add(n.id);
  }
  const missing = g.edges.flatMap((e) => [e.from, e.to]).filter((id) => !ids.has(id));
  if (missing.length > 0) throw new Error(`diagram ${g.id}: edges name undeclared nodes ${[...new Set(missing)].join(', ')}`);
  return g;
}
