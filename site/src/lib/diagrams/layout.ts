/**
 * A small layered layout for the site's diagrams (a dozen nodes at most), deterministic by construction: no
 * randomness, no floating point carried into the output unrounded, every tie broken by declaration order.
 *
 * 1. Ranks: a depth-first walk from the nodes in declaration order marks back edges (to a node still on the walk)
 *    and self-loops; the rest is a DAG, ranked by longest path.
 * 2. Order within a rank: declaration order, then four barycenter sweeps (down, up, down, up).
 * 3. Edges between adjacent ranks are straight; edges that skip ranks run in a lane on one side, back edges in
 *    lanes on the other, so no edge crosses a node.
 * Text is measured with a fixed per-character estimate (the site's sans-serif at 13 px), which is what keeps the
 * output identical on every machine.
 */
import type { Graph, GraphEdge, GraphNode } from './graph.ts';

export const FONT_SIZE = 13;
const CHAR_WIDTH = 7.4;
const LINE_HEIGHT = 17;
const PAD_X = 12;
const PAD_Y = 8;
const RANK_GAP = 56;
const ORDER_GAP = 28;
const LANE_GAP = 14;
const MARGIN = 16;
/** Room before the initial node for the start dot and its arrow. */
const START_ROOM = 26;

export interface Point { readonly x: number; readonly y: number }
export interface PlacedNode extends GraphNode { readonly x: number; readonly y: number; readonly w: number; readonly h: number; readonly lines: readonly string[] }
export interface PlacedEdge extends GraphEdge {
  /** 1-based: the edge's row in the text alternative and the number on its badge. */
  readonly n: number;
  readonly points: readonly Point[];
  readonly badge: Point;
}
export interface Layout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
  /** The start dot (lifecycles): where it is and the arrow from it to the initial node. */
  readonly start?: { readonly dot: Point; readonly points: readonly Point[] };
}

const r1 = (v: number): number => Math.round(v * 10) / 10;

export function textWidth(s: string): number {
  return s.length * CHAR_WIDTH;
}

/** Rank of each node and the set of back edges (by index). */
export function rankNodes(g: Pick<Graph, 'nodes' | 'edges'>): { rank: Map<string, number>; back: Set<number> } {
  const out = new Map<string, number[]>();
  g.edges.forEach((e, i) => out.set(e.from, [...(out.get(e.from) ?? []), i]));
  const state = new Map<string, 'open' | 'done'>();
  const back = new Set<number>();
  const visit = (id: string): void => {
    state.set(id, 'open');
    for (const i of out.get(id) ?? []) {
      const to = g.edges[i]!.to;
      if (state.get(to) === 'open') back.add(i);
      else if (state.get(to) === undefined) visit(to);
    }
    state.set(id, 'done');
  };
  for (const n of g.nodes) if (state.get(n.id) === undefined) visit(n.id);
  const rank = new Map<string, number>(g.nodes.map((n) => [n.id, 0]));
  // Longest path over the DAG: relax in rounds (at most |nodes| rounds; graphs here are tiny).
  for (let round = 0; round < g.nodes.length; round++) {
    let changed = false;
    g.edges.forEach((e, i) => {
      if (back.has(i) || e.from === e.to) return;
      const want = rank.get(e.from)! + 1;
      if (want > rank.get(e.to)!) {
        rank.set(e.to, want);
        changed = true;
      }
    });
    if (!changed) break;
  }
  return { rank, back };
}

export function layout(g: Graph): Layout {
  const tb = g.direction === 'TB';
  const { rank, back } = rankNodes(g);
  const sized = g.nodes.map((n) => {
    const lines = n.label.split('\n');
    const w = Math.ceil(Math.max(...lines.map(textWidth)) + 2 * PAD_X);
    const h = lines.length * LINE_HEIGHT + 2 * PAD_Y;
    return { node: n, lines, w, h, main: tb ? h : w, cross: tb ? w : h };
  });
  const byId = new Map(sized.map((s) => [s.node.id, s]));
  const rankCount = Math.max(0, ...rank.values()) + 1;
  const ranks: string[][] = Array.from({ length: rankCount }, () => []);
  for (const n of g.nodes) ranks[rank.get(n.id)!]!.push(n.id);

  // Order within ranks: barycenter sweeps over adjacent-rank neighbours.
  const adjacent = (id: string, dir: -1 | 1): string[] =>
    g.edges.flatMap((e) => {
      const other = e.from === id ? e.to : e.to === id ? e.from : undefined;
      return other !== undefined && other !== id && rank.get(other) === rank.get(id)! + dir ? [other] : [];
    });
  const pos = (id: string): number => ranks[rank.get(id)!]!.indexOf(id);
  for (let sweep = 0; sweep < 4; sweep++) {
    const dir: -1 | 1 = sweep % 2 === 0 ? -1 : 1;
    const order = dir === -1 ? ranks.map((_, i) => i) : ranks.map((_, i) => rankCount - 1 - i);
    for (const ri of order) {
      const row = ranks[ri]!;
      const keyed = row.map((id, i) => {
        const ns = adjacent(id, dir);
        return { id, i, key: ns.length === 0 ? i : ns.reduce((s, o) => s + pos(o), 0) / ns.length };
      });
      keyed.sort((a, b) => a.key - b.key || a.i - b.i);
      ranks[ri] = keyed.map((k) => k.id);
    }
  }

  // Coordinates along the main axis (rank) and the cross axis (order), before lanes.
  const hasStart = g.nodes.some((n) => n.initial === true);
  const rankMain = ranks.map((row) => Math.max(...row.map((id) => byId.get(id)!.main)));
  const rankCross = ranks.map((row) => row.reduce((s, id) => s + byId.get(id)!.cross, 0) + ORDER_GAP * (row.length - 1));
  const crossSpan = Math.max(...rankCross);
  const skip = g.edges.map((e, i) => !back.has(i) && e.from !== e.to && rank.get(e.to)! - rank.get(e.from)! > 1);
  const backIdx = g.edges.flatMap((e, i) => (back.has(i) ? [i] : []));
  const skipIdx = g.edges.flatMap((_, i) => (skip[i] ? [i] : []));
  const hasLoop = g.edges.some((e) => e.from === e.to);
  const beforeLanes = skipIdx.length * LANE_GAP + (skipIdx.length > 0 ? LANE_GAP : 0);
  const afterLanes = backIdx.length * LANE_GAP + (backIdx.length > 0 || hasLoop ? LANE_GAP + (hasLoop ? 18 : 0) : 0);
  const crossStart = MARGIN + beforeLanes;
  const mainStart = MARGIN + (hasStart ? START_ROOM : 0);

  const at = new Map<string, { main: number; cross: number }>();
  let main = mainStart;
  ranks.forEach((row, ri) => {
    let cross = crossStart + (crossSpan - rankCross[ri]!) / 2;
    for (const id of row) {
      const s = byId.get(id)!;
      at.set(id, { main: main + (rankMain[ri]! - s.main) / 2, cross });
      cross += s.cross + ORDER_GAP;
    }
    main += rankMain[ri]! + RANK_GAP;
  });
  const mainEnd = main - RANK_GAP;
  const crossEnd = crossStart + crossSpan;

  const toPoint = (m: number, c: number): Point => (tb ? { x: r1(c), y: r1(m) } : { x: r1(m), y: r1(c) });
  const placed: PlacedNode[] = sized.map((s) => {
    const p = at.get(s.node.id)!;
    const xy = toPoint(p.main, p.cross);
    return { ...s.node, x: xy.x, y: xy.y, w: s.w, h: s.h, lines: s.lines };
  });
  const box = (id: string) => {
    const s = byId.get(id)!;
    const p = at.get(id)!;
    return { m0: p.main, m1: p.main + s.main, c0: p.cross, c1: p.cross + s.cross, cm: p.cross + s.cross / 2, mm: p.main + s.main / 2 };
  };

  // Spread several edges meeting one side of a node so their ends do not coincide.
  const ends = new Map<string, number[]>();
  const claim = (key: string, i: number): void => void ends.set(key, [...(ends.get(key) ?? []), i]);
  g.edges.forEach((e, i) => {
    if (e.from === e.to) return;
    const side = back.has(i) ? 'after' : skip[i] ? 'before' : 'main';
    claim(`${e.from}:out:${side}`, i);
    claim(`${e.to}:in:${side}`, i);
  });
  const spread = (key: string, i: number, span: number): number => {
    const list = ends.get(key) ?? [i];
    const k = list.indexOf(i);
    const step = Math.min(10, span / (list.length + 1));
    return (k - (list.length - 1) / 2) * step;
  };

  let backLane = 0;
  let skipLane = 0;
  const edges: PlacedEdge[] = g.edges.map((e, i) => {
    const a = box(e.from);
    const b = box(e.to);
    let pts: Point[];
    let badge: Point;
    if (e.from === e.to) {
      const c = crossEnd + LANE_GAP;
      pts = [toPoint(a.mm - 6, a.c1), toPoint(a.mm - 6, c + 10), toPoint(a.mm + 6, c + 10), toPoint(a.mm + 6, a.c1)];
      badge = toPoint(a.mm, c + 10);
    } else if (back.has(i) || skip[i]) {
      // Leave and enter through the gaps between ranks, then run along a lane beside every rank: no node is crossed.
      const isBack = back.has(i);
      const k = isBack ? backLane++ : skipLane++;
      const lane = isBack ? crossEnd + LANE_GAP * (1 + k) : crossStart - LANE_GAP * (1 + k);
      const g = 8 + (k % 4) * 5;
      const ca = (isBack ? a.c1 - 10 : a.c0 + 10) + spread(`${e.from}:out:${isBack ? 'after' : 'before'}`, i, 12);
      const cb = (isBack ? b.c1 - 10 : b.c0 + 10) + spread(`${e.to}:in:${isBack ? 'after' : 'before'}`, i, 12);
      const ma = isBack ? a.m0 : a.m1;
      const mb = isBack ? b.m1 : b.m0;
      const ga = isBack ? ma - g : ma + g;
      const gb = isBack ? mb + g : mb - g;
      pts = [toPoint(ma, ca), toPoint(ga, ca), toPoint(ga, lane), toPoint(gb, lane), toPoint(gb, cb), toPoint(mb, cb)];
      badge = toPoint((ga + gb) / 2, lane);
    } else {
      const ca = a.cm + spread(`${e.from}:out:main`, i, a.c1 - a.c0);
      const cb = b.cm + spread(`${e.to}:in:main`, i, b.c1 - b.c0);
      pts = [toPoint(a.m1, ca), toPoint(b.m0, cb)];
      badge = toPoint((a.m1 + b.m0) / 2, (ca + cb) / 2);
    }
    return { ...e, n: i + 1, points: pts, badge };
  });

  const initial = g.nodes.find((n) => n.initial === true);
  const start = initial === undefined ? undefined : (() => {
    const b = box(initial.id);
    return { dot: toPoint(b.m0 - START_ROOM + 5, b.cm), points: [toPoint(b.m0 - START_ROOM + 10, b.cm), toPoint(b.m0, b.cm)] };
  })();
  const crossTotal = crossEnd + afterLanes + MARGIN;
  const mainTotal = mainEnd + MARGIN;
  return {
    width: Math.ceil(tb ? crossTotal : mainTotal),
    height: Math.ceil(tb ? mainTotal : crossTotal),
    nodes: placed,
    edges,
    ...(start !== undefined ? { start } : {}),
  };
}
