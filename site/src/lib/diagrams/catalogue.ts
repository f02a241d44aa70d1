/**
 * Every diagram of the site, in the order the diagrams page shows them, each built from data the runtime or the
 * generator exports, laid out by ELK at build time and drawn by svg.ts. Where each one is also shown (the spec or
 * RFC page whose text it illustrates): DIAGRAM_HOMES.
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

let built: Promise<CatalogueEntry[]> | undefined;

/** Every diagram, laid out and drawn (once per build: the pages that show a diagram share the drawing). */
export function diagramCatalogue(): Promise<CatalogueEntry[]> {
  built ??= Promise.all(diagramGraphs().map(async ({ group, graph }) => ({ group, ...(await renderSvg(checkGraph(graph))) })));
  return built;
}

/** One diagram of the catalogue by id; a missing id is a build error naming it. */
export async function diagramById(id: string): Promise<CatalogueEntry> {
  const d = (await diagramCatalogue()).find((x) => x.graph.id === id);
  if (d === undefined) throw new Error(`no diagram "${id}" in the catalogue (ids: ${(await diagramCatalogue()).map((x) => x.graph.id).join(', ')})`);
  return d;
}

/** The page of a diagram. */
export const diagramUrl = (id: string): string => `/diagrams/#${id}`;
