/**
 * The diagrams (site/src/lib/diagrams/) against the data they are drawn from: every lifecycle module of the
 * registry is drawn when it exists, with exactly its table's states and transitions; the orders agree with the
 * runtime's own ranking; the memory pipeline and the toolkit flow follow the source they read (change the source,
 * the drawing changes); every drawing is deterministic. The runtime side of each lifecycle (the runtime performs
 * exactly the table's moves, and refuses one taken out) is in test/runtime/*\/*-lifecycle.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EMITTERS } from '../../generator/emitters.ts';
import type { SchemaDoc } from '../../generator/site-data-format.ts';
import { classificationAxis, modeAxis } from '../../runtime/inquirium/lattice.ts';
import { egressAxis, rigorAxis, traceLevelAxis } from '../../runtime/inquirium/safety-axes.ts';
import { QUESTION_LIFECYCLE } from '../../runtime/inquirium/question-lifecycle.ts';
import { COMMITMENT_LIFECYCLE } from '../../runtime/commitments/commitment-lifecycle.ts';
import { SCHEDULE_LIFECYCLE } from '../../runtime/distillation/schedule-lifecycle.ts';
import { diagramCatalogue } from '../../site/src/lib/diagrams/catalogue.ts';
import { LIFECYCLE_MODULES, lifecycleTables, stateMachineGraph } from '../../site/src/lib/diagrams/lifecycles.ts';
import { memoryPipelineGraph } from '../../site/src/lib/diagrams/memory-pipeline.ts';
import { ORDERS } from '../../site/src/lib/diagrams/orders.ts';
import { schemaRefRows, schemaRefSvg } from '../../site/src/lib/diagrams/schema-refs.ts';
import { renderSvg } from '../../site/src/lib/diagrams/svg.ts';
import { readEmitterTable, toolkitFlowGraph } from '../../site/src/lib/diagrams/toolkit-flow.ts';

const catalogue = diagramCatalogue();
/** The edges an SVG draws, as `from → to`, read back from the drawing itself. */
const drawnEdges = (svg: string): string[] => [...svg.matchAll(/class="dg-edge" data-from="([^"]*)" data-to="([^"]*)"/g)].map((m) => `${m[1]} → ${m[2]}`).sort();
const drawnNodes = (svg: string): string[] => [...svg.matchAll(/data-node="([^"]*)"/g)].map((m) => m[1]!).sort();
const unesc = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
const byId = (id: string) => catalogue.find((d) => d.graph.id === id)!;

describe('diagram catalogue', () => {
  it('has at least six diagrams, each built from data, with unique ids', () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(6);
    expect(new Set(catalogue.map((d) => d.graph.id)).size).toBe(catalogue.length);
    for (const id of ['question-lifecycle', 'commitment-lifecycle', 'distillation-schedule', 'classification-lattice', 'mode-order', 'memory-pipeline', 'toolkit-flow']) expect(byId(id), id).toBeDefined();
  });

  it('every drawn edge is an edge of the graph and the other way round; every node is drawn', () => {
    for (const d of catalogue) {
      expect(drawnEdges(d.svg).map(unesc), d.graph.id).toEqual(d.graph.edges.map((e) => `${e.from} → ${e.to}`).sort());
      expect(drawnNodes(d.svg).map(unesc), d.graph.id).toEqual(d.graph.nodes.map((n) => n.id).sort());
    }
  });

  it('is byte-stable: drawing again gives the same bytes, with no NaN, no undefined and coordinates to one decimal', () => {
    const again = diagramCatalogue();
    for (const [i, d] of catalogue.entries()) {
      expect(again[i]!.svg, d.graph.id).toBe(d.svg);
      expect(d.svg).not.toMatch(/NaN|undefined|Infinity|\d\.\d{2,}/);
    }
  });

  it('no two nodes of a drawing overlap', () => {
    for (const d of catalogue) {
      const ns = d.layout.nodes;
      for (const [i, a] of ns.entries()) for (const b of ns.slice(i + 1)) {
        const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
        expect(apart, `${d.graph.id}: ${a.id} / ${b.id}`).toBe(true);
      }
    }
  });
});

describe('lifecycle diagrams ↔ the runtime tables', () => {
  it('the registry\'s glob patterns are the registry list (a module cannot be listed and not loaded)', () => {
    const source = readFileSync('site/src/lib/diagrams/lifecycles.ts', 'utf8');
    const globbed = [...source.slice(source.indexOf('import.meta.glob')).matchAll(/'(?:\.\.\/)+(runtime\/[^']+)'/g)].map((m) => m[1]);
    expect(globbed).toEqual([...LIFECYCLE_MODULES]);
  });

  it('draws every lifecycle module of the registry that exists (proposals once runtime/proposals/lifecycle.ts does)', () => {
    const drawnModules = [...new Set(lifecycleTables().map((t) => t.module))];
    expect(drawnModules).toEqual(LIFECYCLE_MODULES.filter((m) => existsSync(m)));
    expect(drawnModules).toEqual(expect.arrayContaining(['runtime/inquirium/question-lifecycle.ts', 'runtime/commitments/commitment-lifecycle.ts', 'runtime/distillation/schedule-lifecycle.ts']));
  });

  it.each([QUESTION_LIFECYCLE, COMMITMENT_LIFECYCLE, SCHEDULE_LIFECYCLE].map((m) => [m.id, m] as const))('%s: drawn states and transitions are exactly the table', (id, table) => {
    const d = byId(id);
    expect(d.graph.edges.map((e) => `${e.from} → ${e.to}: ${e.label}`)).toEqual(table.transitions.map((t) => `${t.from} → ${t.to}: ${t.on}`));
    expect(drawnNodes(d.svg)).toEqual([...table.states].sort());
    expect(d.graph.nodes.filter((n) => n.initial === true).map((n) => n.id)).toEqual([table.initial]);
    expect(d.graph.nodes.filter((n) => n.terminal === true).map((n) => n.id)).toEqual([...table.terminal]);
  });

  it('a transition added to or removed from a table is added to or removed from its drawing', () => {
    const [first, ...rest] = QUESTION_LIFECYCLE.transitions;
    const fewer = renderSvg(stateMachineGraph({ ...QUESTION_LIFECYCLE, transitions: rest }, 'x')).svg;
    expect(drawnEdges(fewer)).not.toContain(`${first!.from} → ${first!.to}`);
    const more = renderSvg(stateMachineGraph({ ...COMMITMENT_LIFECYCLE, transitions: [...COMMITMENT_LIFECYCLE.transitions, { from: 'held', to: 'fired', on: 'x' }] }, 'x')).svg;
    expect(drawnEdges(more)).toContain('held → fired');
  });
});

describe('order diagrams ↔ the runtime orders', () => {
  const axes: Record<string, (a: string, b: string) => boolean> = {
    'classification-lattice': (a, b) => classificationAxis.rank(b) > classificationAxis.rank(a),
    'mode-order': (a, b) => modeAxis.rank(b) > modeAxis.rank(a),
    'rigor-order': (a, b) => rigorAxis.compare(b as never, a as never) > 0,
    'egress-order': (a, b) => egressAxis.compare(b as never, a as never) > 0,
    'trace-level-order': (a, b) => traceLevelAxis.compare(b as never, a as never) > 0,
  };
  it.each(ORDERS.map((o) => [o.id] as const))('%s: each arrow points to what the runtime ranks stricter, over every key it knows', (id) => {
    const d = byId(id);
    expect(axes[id], id).toBeDefined();
    for (const e of d.graph.edges) expect(axes[id]!(e.from, e.to), `${e.from} → ${e.to}`).toBe(true);
    expect(d.graph.edges).toHaveLength(d.graph.nodes.length - 1); // a chain: a total order
  });
  it('the classification and mode diagrams list the runtime axes\' keys, least restrictive first', () => {
    expect(byId('classification-lattice').graph.nodes.map((n) => n.id)).toEqual([...classificationAxis.keys]);
    expect(byId('mode-order').graph.nodes.map((n) => n.id)).toEqual([...modeAxis.keys]);
  });
});

describe('data-flow diagrams ↔ the code they read', () => {
  const wiring = readFileSync('runtime/openwop/index.ts', 'utf8');
  const edges = (g: { edges: readonly { from: string; to: string }[] }) => g.edges.map((e) => `${e.from} → ${e.to}`);

  it('memory pipeline: compaction → distillation → scheduled distillation, and consolidation over the same store', () => {
    expect(edges(byId('memory-pipeline').graph)).toEqual(expect.arrayContaining(['compactor → distiller', 'distiller → distillationScheduler', 'store → compactor', 'store → consolidation']));
  });
  it('memory pipeline: follows the wiring (a component no longer given to another loses its arrow)', () => {
    const unwired = wiring.replace(/(const distillerOptions = \{[^}]*?)\bcompactor, /, '$1');
    expect(unwired).not.toBe(wiring);
    expect(edges(memoryPipelineGraph(unwired))).not.toContain('compactor → distiller');
  });

  it('toolkit flow: one box per entry of the generator\'s EMITTERS, with the paths it owns', () => {
    const g = byId('toolkit-flow').graph;
    expect(g.nodes.filter((n) => n.id.startsWith('emit:')).map((n) => n.id)).toEqual(EMITTERS.map((e) => `emit:${e.name}`));
    expect(readEmitterTable(readFileSync('generator/emitters.ts', 'utf8'))).toEqual(EMITTERS.map((e) => ({ name: e.name, owns: e.owns })));
    expect(edges(g)).toEqual(expect.arrayContaining(['schemas → generator', 'emit:types → runtime/', 'emit:validators → conformance/', 'emit:site-data → site/']));
  });
  it('toolkit flow: follows the emitter table and the consumers\' sources', () => {
    const source = readFileSync('generator/emitters.ts', 'utf8');
    const without = source.replace(/\n\s*\{ name: 'guards'[^\n]*/, '');
    expect(without).not.toBe(source);
    expect(toolkitFlowGraph(without).nodes.map((n) => n.id)).not.toContain('emit:guards');
    const noSite = toolkitFlowGraph(source, { 'site/': { '../../x.ts': 'nothing generated here' }, 'runtime/': { '../../../../runtime/x.ts': "import '../generated/ts/index.ts';" } });
    expect(edges(noSite)).not.toContain('emit:site-data → site/');
    expect(edges(noSite)).toContain('emit:types → runtime/');
  });
});

describe('schema reference diagrams', () => {
  const doc = JSON.parse(readFileSync('generated/site-data/openwop/memory-entry.json', 'utf8')) as SchemaDoc;
  it('list each other schema file that uses or is used by this one, from the site data', () => {
    const rows = schemaRefRows(doc);
    const expected = new Set(doc.definitions.flatMap((d) => [...d.referencedBy.map((l) => `used by ${l.family}/${l.stem}`), ...d.references.map((l) => `uses ${l.family}/${l.stem}`)]).filter((k) => !k.endsWith(`${doc.family}/${doc.stem}`)));
    expect(rows.map((r) => `${r.direction} ${r.family}/${r.stem}`).sort()).toEqual([...expected].sort());
    expect(rows.length).toBeGreaterThan(0);
    const svg = schemaRefSvg(doc, rows);
    for (const r of rows) expect(svg).toContain(`href="/schemas/${r.family}/${r.stem}/"`);
    expect(schemaRefSvg(doc, rows)).toBe(svg);
  });
});
