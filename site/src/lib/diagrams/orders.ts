/**
 * Order diagrams: the classification lattice and the mode and safety-setting orders, drawn from the lists the
 * runtime ranks with (runtime/inquirium/lattice.ts, safety-axes.ts). Each is a chain, least restrictive (or least
 * severe) at the top; an edge a → b reads "b is more restrictive than a".
 */
import { CLASSIFICATIONS, MODES } from '../../../../runtime/inquirium/lattice.ts';
import { EGRESS_ORDER, RIGOR_ORDER, TRACE_LEVEL_ORDER } from '../../../../runtime/inquirium/safety-axes.ts';
import type { Graph } from './graph.ts';

export interface OrderSpec {
  readonly id: string;
  readonly title: string;
  readonly source: string;
  /** Least → most restrictive (or severe). */
  readonly keys: readonly string[];
  /** The word an edge stands for ("more restrictive", "more severe"). */
  readonly relation: string;
  readonly note: string;
}

export const ORDERS: readonly OrderSpec[] = [
  {
    id: 'classification-lattice',
    title: 'Classification lattice',
    source: 'P066 (classification); runtime/inquirium/lattice.ts CLASSIFICATIONS',
    keys: CLASSIFICATIONS,
    relation: 'more restrictive',
    note: 'A missing or unknown label counts as the most restrictive. Joining two labels takes the lower one in the drawing.',
  },
  {
    id: 'mode-order',
    title: 'Node-mode severity order',
    source: 'P066 (node modes; our reading: crisis is the most severe); runtime/inquirium/lattice.ts MODES',
    keys: MODES,
    relation: 'more severe',
    note: 'An unknown mode counts as crisis. Safety settings keyed by mode may only tighten as severity rises (the orders below).',
  },
  {
    id: 'rigor-order',
    title: 'Verification-rigor order',
    source: 'inquirium.assistant-config.v1 verification_rigor; runtime/inquirium/safety-axes.ts RIGOR_ORDER',
    keys: RIGOR_ORDER,
    relation: 'stricter',
    note: 'A more severe mode may not configure a lower rigor than a less severe one.',
  },
  {
    id: 'egress-order',
    title: 'Egress order',
    source: 'inquirium.assistant-config.v1 egress; runtime/inquirium/safety-axes.ts EGRESS_ORDER',
    keys: EGRESS_ORDER,
    relation: 'stricter',
    note: 'Denying egress is stricter than allowing it to accepting remotes.',
  },
  {
    id: 'trace-level-order',
    title: 'Trace-level order',
    source: 'inquirium.assistant-turn-trace.v1 trace level; runtime/inquirium/safety-axes.ts TRACE_LEVEL_ORDER',
    keys: TRACE_LEVEL_ORDER,
    relation: 'stricter',
    note: 'Keeping less in the trace is stricter.',
  },
];

export function orderGraph(o: OrderSpec): Graph {
  return {
    id: o.id,
    title: o.title,
    source: o.source,
    summary: `${o.keys[0]} (top) is the least, ${o.keys[o.keys.length - 1]} (bottom) the most; each arrow points to the ${o.relation} key and says so. ${o.note}`,
    nodes: o.keys.map((k) => ({ id: k, label: k, kind: 'stage' as const })),
    edges: o.keys.slice(1).map((k, i) => ({ from: o.keys[i]!, to: k, label: o.relation })),
    columns: ['Less', 'More', 'Relation'],
  };
}
