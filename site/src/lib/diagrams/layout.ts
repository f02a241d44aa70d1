/**
 * Lays a diagram out with ELK (elkjs, the Eclipse Layout Kernel compiled to JavaScript), at build time: the layered
 * algorithm (layers by longest path, crossing minimisation, node placement), orthogonal edge routing, and edge labels
 * placed by the engine between the layers, where they can touch neither a node nor another label. Only the
 * resulting coordinates leave this module; ELK itself never reaches a reader.
 *
 * Deterministic: every text is measured from a fixed width table (text.ts), the engine keeps the declaration order
 * of nodes and edges where it has a choice (`considerModelOrder`) with a fixed random seed, and every coordinate is
 * rounded to a tenth of a pixel, so two builds give byte-identical drawings.
 */
import elkModule from 'elkjs/lib/elk.bundled.js';
import type { ELK, ELKConstructorArguments, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';
import type { Graph, GraphEdge, GraphNode } from './graph.ts';
import { LINE_HEIGHT, textWidth, wrapText } from './text.ts';

export interface Point { readonly x: number; readonly y: number }
export interface Box { readonly x: number; readonly y: number; readonly w: number; readonly h: number }
export interface PlacedNode extends GraphNode, Box { readonly lines: readonly string[] }
export interface PlacedLabel extends Box { readonly lines: readonly string[] }
export interface PlacedEdge extends GraphEdge {
  /** The orthogonal route, first point on the source's border, last on the target's. */
  readonly points: readonly Point[];
  /** Where the engine put the label (absent for an unlabelled edge). */
  readonly labelBox?: PlacedLabel;
}
export interface Layout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
  /** The start dot of a lifecycle (a small node of its own for the engine) and its arrow to the initial state. */
  readonly start?: { readonly dot: Box; readonly points: readonly Point[] };
}

/** Padding inside a node box around its text. */
export const NODE_PAD = { x: 14, y: 8 } as const;
/** Padding inside an edge label's box (the box is filled with the page colour, so a crossing line never runs through text). */
export const LABEL_PAD = { x: 4, y: 2 } as const;
/** Longest line of an edge label before it wraps, and of a node label. */
const LABEL_WRAP = 100;
const NODE_WRAP = 220;
const START = '__start';
const START_SIZE = 12;

/** The engine's settings, one table for every diagram (spacings in px). */
const ELK_OPTIONS: Readonly<Record<string, string>> = {
  'elk.algorithm': 'layered',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.edgeLabels.placement': 'CENTER',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.randomSeed': '1',
  'elk.layered.cycleBreaking.strategy': 'MODEL_ORDER',
  'elk.padding': '[top=14,left=14,bottom=14,right=14]',
  'elk.spacing.nodeNode': '22',
  'elk.spacing.edgeEdge': '12',
  'elk.spacing.edgeNode': '14',
  'elk.spacing.edgeLabel': '6',
  'elk.spacing.labelNode': '6',
  'elk.layered.spacing.nodeNodeBetweenLayers': '34',
  'elk.layered.spacing.edgeNodeBetweenLayers': '14',
  'elk.layered.spacing.edgeEdgeBetweenLayers': '12',
  'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
};

const r1 = (v: number): number => Math.round(v * 10) / 10;
const pt = (p: { x: number; y: number }): Point => ({ x: r1(p.x), y: r1(p.y) });

/** A node's text lines and box size. */
export function nodeSize(n: Pick<GraphNode, 'label'>): { lines: string[]; w: number; h: number } {
  const lines = wrapText(n.label, NODE_WRAP);
  return { lines, w: Math.ceil(Math.max(...lines.map((l) => textWidth(l))) + 2 * NODE_PAD.x), h: lines.length * LINE_HEIGHT + 2 * NODE_PAD.y };
}

/** An edge label's text lines and box size. */
export function labelSize(text: string): { lines: string[]; w: number; h: number } {
  const lines = wrapText(text, LABEL_WRAP);
  return { lines, w: Math.ceil(Math.max(...lines.map((l) => textWidth(l))) + 2 * LABEL_PAD.x), h: lines.length * LINE_HEIGHT + 2 * LABEL_PAD.y };
}

/** elkjs is CommonJS: its module object is the constructor (its typings declare it as a default export). */
const Elk = elkModule as unknown as new (args?: ELKConstructorArguments) => ELK;
let engine: ELK | undefined;

/** Width of the site's content column at a 1280 px window: a drawing this wide or narrower needs no scrolling there. */
export const COLUMN_WIDTH = 632;

/**
 * Lay the graph out top to bottom (layers read like a page) unless that drawing is wider than the content column
 * and left to right is markedly narrower (by a fifth): then left to right, so the drawing scrolls less, or not at all.
 */
export async function layout(g: Graph): Promise<Layout> {
  const down = await layoutIn(g, 'DOWN');
  if (down.width <= COLUMN_WIDTH) return down;
  const right = await layoutIn(g, 'RIGHT');
  return right.width < 0.8 * down.width ? right : down;
}

async function layoutIn(g: Graph, direction: 'DOWN' | 'RIGHT'): Promise<Layout> {
  engine ??= new Elk();
  const initial = g.nodes.find((n) => n.initial === true);
  const sizes = new Map(g.nodes.map((n) => [n.id, nodeSize(n)]));
  const labels = g.edges.map((e) => (e.label === '' ? undefined : labelSize(e.label)));
  const children: ElkNode[] = [
    ...(initial !== undefined ? [{ id: START, width: START_SIZE, height: START_SIZE, layoutOptions: { 'elk.layered.layering.layerConstraint': 'FIRST' } }] : []),
    ...g.nodes.map((n) => ({ id: n.id, width: sizes.get(n.id)!.w, height: sizes.get(n.id)!.h })),
  ];
  const edges: ElkExtendedEdge[] = [
    ...(initial !== undefined ? [{ id: 'start', sources: [START], targets: [initial.id] }] : []),
    ...g.edges.map((e, i) => ({
      id: `e${i}`,
      sources: [e.from],
      targets: [e.to],
      ...(labels[i] !== undefined ? { labels: [{ id: `l${i}`, text: e.label, width: labels[i]!.w, height: labels[i]!.h }] } : {}),
    })),
  ];
  const graph: ElkNode = { id: g.id, layoutOptions: { ...ELK_OPTIONS, 'elk.direction': direction }, children, edges };
  const out = await engine.layout(graph);
  const at = new Map((out.children ?? []).map((c) => [c.id, c]));
  const routeOf = (id: string): Point[] => {
    const e = out.edges?.find((x) => x.id === id);
    const s = e?.sections?.[0];
    if (s === undefined || (e?.sections?.length ?? 0) !== 1) throw new Error(`diagram ${g.id}: the engine routed edge ${id} in ${e?.sections?.length ?? 0} sections`);
    return [s.startPoint, ...(s.bendPoints ?? []), s.endPoint].map(pt);
  };
  const nodes: PlacedNode[] = g.nodes.map((n) => {
    const c = at.get(n.id)!;
    const s = sizes.get(n.id)!;
    return { ...n, x: r1(c.x!), y: r1(c.y!), w: s.w, h: s.h, lines: s.lines };
  });
  const placedEdges: PlacedEdge[] = g.edges.map((e, i) => {
    const l = out.edges?.find((x) => x.id === `e${i}`)?.labels?.[0];
    const size = labels[i];
    return {
      ...e,
      points: routeOf(`e${i}`),
      ...(l !== undefined && size !== undefined ? { labelBox: { x: r1(l.x!), y: r1(l.y!), w: size.w, h: size.h, lines: size.lines } } : {}),
    };
  });
  const dot = at.get(START);
  return {
    width: Math.ceil(out.width!),
    height: Math.ceil(out.height!),
    nodes,
    edges: placedEdges,
    ...(dot !== undefined ? { start: { dot: { x: r1(dot.x!), y: r1(dot.y!), w: START_SIZE, h: START_SIZE }, points: routeOf('start') } } : {}),
  };
}
