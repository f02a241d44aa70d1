/// <reference types="vite/client" />
/**
 * The memory pipeline's data flow, read from the runtime's own wiring: `createOpenwopRuntime`
 * (runtime/openwop/index.ts) builds each component from the ones it is given. Every `const` of that function is a
 * candidate; those built with `new` of a class in PIPELINE_CLASSES are drawn, and an edge a → b says b is built
 * with a (directly, or through intermediate constants such as an options object, named in the edge's label).
 * Change the wiring and the diagram follows at the next build.
 */
import ts from 'typescript';
import wiringSource from '../../../../runtime/openwop/index.ts?raw';
import type { Graph, NodeKind } from './graph.ts';

/** The wiring file and the function in it that wires the runtime. */
export const WIRING = { file: 'runtime/openwop/index.ts', fn: 'createOpenwopRuntime' } as const;

/** Classes drawn, with how (a stage of the pipeline, or a store it reads and writes) and what they stand for. */
export const PIPELINE_CLASSES: Readonly<Record<string, { readonly kind: NodeKind; readonly role: string }>> = {
  SharedMemoryStore: { kind: 'artifact', role: 'memory store' },
  MemoryWriter: { kind: 'artifact', role: 'SR-1 write path' },
  Workspace: { kind: 'artifact', role: 'MEMORY-INDEX workspace' },
  Compactor: { kind: 'stage', role: 'compaction (RFC 0012)' },
  Distiller: { kind: 'stage', role: 'distillation (RFC 0062)' },
  DistillationScheduler: { kind: 'stage', role: 'scheduled distillation' },
  ConsolidationService: { kind: 'stage', role: 'consolidation (RFC 0068 §D)' },
};

export interface WiredConst {
  readonly name: string;
  /** The class of the first `new` in its initializer, if any. */
  readonly builds?: string;
  /** Other constants of the function its initializer mentions, in order of first mention. */
  readonly uses: readonly string[];
}

/** The constants of the wiring function, in declaration order. */
export function readWiring(source: string, fn: string = WIRING.fn): WiredConst[] {
  const sf = ts.createSourceFile('wiring.ts', source, ts.ScriptTarget.Latest, true);
  const decl = sf.statements.find((s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && s.name?.text === fn);
  if (decl?.body === undefined) throw new Error(`wiring: no function ${fn}`);
  const consts = decl.body.statements.filter(ts.isVariableStatement).flatMap((s) => s.declarationList.declarations.filter((d) => ts.isIdentifier(d.name) && d.initializer !== undefined));
  const names = new Set(consts.map((d) => (d.name as ts.Identifier).text));
  return consts.map((d) => {
    const uses: string[] = [];
    let builds: string | undefined;
    const walk = (n: ts.Node): void => {
      if (builds === undefined && ts.isNewExpression(n) && ts.isIdentifier(n.expression)) builds = n.expression.text;
      if (ts.isIdentifier(n) && names.has(n.text) && !uses.includes(n.text) && !(ts.isPropertyAccessExpression(n.parent) && n.parent.name === n) && !(ts.isPropertyAssignment(n.parent) && n.parent.name === n)) uses.push(n.text);
      ts.forEachChild(n, walk);
    };
    walk(d.initializer!);
    return { name: (d.name as ts.Identifier).text, ...(builds !== undefined ? { builds } : {}), uses };
  });
}

/** Drawn constants and, for each, the drawn constants it is built with (through undrawn ones: the `via` chain). */
export function pipelineEdges(wiring: readonly WiredConst[]): { nodes: WiredConst[]; edges: { from: string; to: string; via: string[] }[] } {
  const byName = new Map(wiring.map((w) => [w.name, w]));
  const drawn = wiring.filter((w) => w.builds !== undefined && w.builds in PIPELINE_CLASSES);
  const isDrawn = new Set(drawn.map((w) => w.name));
  const edges: { from: string; to: string; via: string[] }[] = [];
  for (const target of drawn) {
    const seen = new Set<string>([target.name]);
    const visit = (name: string, via: string[]): void => {
      for (const u of byName.get(name)?.uses ?? []) {
        if (seen.has(u)) continue;
        seen.add(u);
        if (isDrawn.has(u)) edges.push({ from: u, to: target.name, via });
        else visit(u, [...via, u]);
      }
    };
    visit(target.name, []);
  }
  return { nodes: drawn, edges };
}

export function memoryPipelineGraph(source: string = wiringSource): Graph {
  const { nodes, edges } = pipelineEdges(readWiring(source));
  return {
    id: 'memory-pipeline',
    title: 'Memory pipeline: compaction → distillation → consolidation',
    source: `${WIRING.file}, ${WIRING.fn}() (read at build time)`,
    summary: 'Boxes are what the runtime builds; an arrow a → b means b is built with a, so data written or read through a reaches b. Compaction feeds distillation (every archive is carried forward through it), the scheduler runs the distiller, and consolidation works on the long-term entries of the same store.',
    direction: 'TB',
    nodes: nodes.map((w) => ({ id: w.name, label: `${w.name}\n${PIPELINE_CLASSES[w.builds!]!.role}`, kind: PIPELINE_CLASSES[w.builds!]!.kind })),
    edges: edges.map((e) => ({ from: e.from, to: e.to, label: `new ${nodes.find((n) => n.name === e.to)!.builds}(…) is given ${e.from}${e.via.length > 0 ? ` (via ${e.via.join(', ')})` : ''}` })),
    columns: ['Given', 'To', 'How'],
  };
}
