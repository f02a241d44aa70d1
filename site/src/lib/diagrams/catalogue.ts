/**
 * Every diagram of the site, in the order the diagrams page shows them, each built from runtime or generator data
 * at build time and drawn by svg.ts.
 */
import { checkGraph, type Graph } from './graph.ts';
import { lifecycleTables, stateMachineGraph } from './lifecycles.ts';
import { memoryPipelineGraph } from './memory-pipeline.ts';
import { ORDERS, orderGraph } from './orders.ts';
import { renderSvg, type RenderedDiagram } from './svg.ts';
import { toolkitFlowGraph } from './toolkit-flow.ts';

export type DiagramGroup = 'Lifecycles' | 'Orders' | 'Data flow';

export interface CatalogueEntry extends RenderedDiagram {
  readonly group: DiagramGroup;
}

export function diagramGraphs(): { group: DiagramGroup; graph: Graph }[] {
  return [
    ...lifecycleTables().map(({ module, machine }) => ({ group: 'Lifecycles' as const, graph: stateMachineGraph(machine, module) })),
    ...ORDERS.map((o) => ({ group: 'Orders' as const, graph: orderGraph(o) })),
    { group: 'Data flow' as const, graph: memoryPipelineGraph() },
    { group: 'Data flow' as const, graph: toolkitFlowGraph() },
  ];
}

export function diagramCatalogue(): CatalogueEntry[] {
  return diagramGraphs().map(({ group, graph }) => ({ group, ...renderSvg(checkGraph(graph)) }));
}

/** The page of a diagram. */
export const diagramUrl = (id: string): string => `/diagrams/${id}/`;
