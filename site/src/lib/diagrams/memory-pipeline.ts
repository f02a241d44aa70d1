/**
 * The memory pipeline's data flow, from the runtime's wiring table (runtime/openwop/wiring.ts: which components the
 * composition root builds and which component each is given — pure data that a runtime test holds to the import
 * graph). An arrow a → b says b is built with a; its label says what b does with it.
 */
import { MEMORY_PIPELINE_WIRING, type WiringTable } from '../../../../runtime/openwop/wiring.ts';
import type { Graph } from './graph.ts';

export function memoryPipelineGraph(wiring: WiringTable = MEMORY_PIPELINE_WIRING): Graph {
  return {
    id: 'memory-pipeline',
    title: 'Memory pipeline: compaction → distillation → consolidation',
    source: `runtime/openwop/wiring.ts MEMORY_PIPELINE_WIRING (how ${wiring.root.fn}() in ${wiring.root.module} wires the runtime)`,
    summary:
      'Boxes are what the runtime builds (shaded: the pipeline’s stages; plain: the stores they read and write); an arrow a → b means b is built with a, and its label says what b does with it. Compaction feeds distillation, the scheduler runs the distiller, and consolidation merges long-term entries of the same store.',
    nodes: wiring.components.map((c) => ({ id: c.id, label: `${c.className}\n${c.role}`, kind: c.kind === 'stage' ? ('stage' as const) : ('artifact' as const) })),
    edges: wiring.edges.map((e) => ({ from: e.from, to: e.to, label: e.label })),
    columns: ['Given', 'To', 'Which'],
  };
}
