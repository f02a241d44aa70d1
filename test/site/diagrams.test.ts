/**
 * The diagrams (site/src/lib/diagrams/) against the data they are drawn from and against the rules of a readable
 * drawing, checked on the layout engine's output: every lifecycle module of runtime/ is drawn with exactly its
 * table's states and transitions; the orders agree with the runtime's ranking; the memory pipeline is the wiring
 * table and the toolkit flow the emitter table with a consumers table held to the real imports; no two edges share a
 * stretch of line, no label touches a node or another label, nothing leaves the drawing; every text is at least
 * 12 px; drawing again gives the same bytes. The runtime side of each lifecycle (the runtime performs exactly the
 * table's moves) is in test/runtime/*\/*-lifecycle.test.ts; the drawings as a reader sees them, in test/site/site.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMITTERS } from '../../generator/emitters.ts';
import type { SchemaDoc, SiteIndex } from '../../generator/site-data-format.ts';
import { classificationAxis, modeAxis } from '../../runtime/inquirium/lattice.ts';
import { egressAxis, rigorAxis, traceLevelAxis } from '../../runtime/inquirium/safety-axes.ts';
import { QUESTION_LIFECYCLE } from '../../runtime/inquirium/question-lifecycle.ts';
import { COMMITMENT_LIFECYCLE } from '../../runtime/commitments/commitment-lifecycle.ts';
import { SCHEDULE_LIFECYCLE } from '../../runtime/distillation/schedule-lifecycle.ts';
import { APPROVAL_GATE_LIFECYCLE, PROPOSAL_LIFECYCLE } from '../../runtime/proposals/lifecycle.ts';
import { MEMORY_PIPELINE_WIRING } from '../../runtime/openwop/wiring.ts';
import { diagramCatalogue } from '../../site/src/lib/diagrams/catalogue.ts';
import { DIAGRAM_HOMES, DIAGRAM_RULE_SECTIONS, diagramPlacements, diagramsShownAt } from '../../site/src/lib/diagrams/homes.ts';
import type { Layout } from '../../site/src/lib/diagrams/layout.ts';
import { layoutProblems, overlaps, sharedLength } from '../../site/src/lib/diagrams/layout-checks.ts';
import { LIFECYCLE_MODULES, lifecycleTables, stateMachineGraph } from '../../site/src/lib/diagrams/lifecycles.ts';
import { memoryPipelineGraph } from '../../site/src/lib/diagrams/memory-pipeline.ts';
import { ORDERS } from '../../site/src/lib/diagrams/orders.ts';
import { schemaRefGraph, schemaRefRows } from '../../site/src/lib/diagrams/schema-refs.ts';
import { renderSvg } from '../../site/src/lib/diagrams/svg.ts';
import { textWidth, wrapText } from '../../site/src/lib/diagrams/text.ts';
import { GENERATED_CONSUMERS, toolkitFlowGraph } from '../../site/src/lib/diagrams/toolkit-flow.ts';
import { appendToSection } from '../../site/src/lib/section-insert.ts';
import { importsOf, tsFilesUnder } from '../architecture/sources.ts';

const catalogue = await diagramCatalogue();
/** The edges an SVG draws, as `from → to`, read back from the drawing itself. */
const drawnEdges = (svg: string): string[] => [...svg.matchAll(/class="dg-edge" data-from="([^"]*)" data-to="([^"]*)"/g)].map((m) => `${unesc(m[1]!)} → ${unesc(m[2]!)}`).sort();
const drawnNodes = (svg: string): string[] => [...svg.matchAll(/data-node="([^"]*)"/g)].map((m) => unesc(m[1]!)).sort();
const drawnLabels = (svg: string): string[] => [...svg.matchAll(/<text class="dg-label-text"[^>]*>([^<]*)<\/text>/g)].map((m) => unesc(m[1]!));
const unesc = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
const byId = (id: string) => catalogue.find((d) => d.graph.id === id)!;
const siteIndex = JSON.parse(readFileSync('generated/site-data/index.json', 'utf8')) as SiteIndex;
const schemaDocs = siteIndex.families.flatMap((f) => f.schemas.map((s) => JSON.parse(readFileSync(join('generated/site-data', s.data), 'utf8')) as SchemaDoc));

describe('diagram catalogue', () => {
  it('has every lifecycle, order and data flow, each with a unique id', () => {
    expect(new Set(catalogue.map((d) => d.graph.id)).size).toBe(catalogue.length);
    for (const id of ['question-lifecycle', 'commitment-lifecycle', 'distillation-schedule', 'proposal-lifecycle', 'proposal-approval-gate', 'classification-lattice', 'mode-order', 'memory-pipeline', 'toolkit-flow']) {
      expect(byId(id), id).toBeDefined();
    }
  });

  it('every drawn edge is an edge of the graph and the other way round; every node is drawn; every label is on its edge', () => {
    for (const d of catalogue) {
      expect(drawnEdges(d.svg), d.graph.id).toEqual(d.graph.edges.map((e) => `${e.from} → ${e.to}`).sort());
      expect(drawnNodes(d.svg), d.graph.id).toEqual(d.graph.nodes.map((n) => n.id).sort());
      for (const [i, e] of d.graph.edges.entries()) {
        expect(e.label, `${d.graph.id}: every edge carries its meaning`).not.toBe('');
        const box = d.layout.edges[i]!.labelBox;
        expect(box?.lines.join(' '), `${d.graph.id}: label of ${e.from} → ${e.to}`).toBe(wrapText(e.label, 100).join(' '));
      }
      expect(drawnLabels(d.svg).join(' '), d.graph.id).toBe(d.layout.edges.flatMap((e) => e.labelBox?.lines ?? []).join(' '));
    }
  });

  it('is byte-stable: laying out and drawing again gives the same bytes, with no NaN and coordinates to one decimal', async () => {
    for (const d of catalogue) {
      expect((await renderSvg(d.graph)).svg, d.graph.id).toBe(d.svg);
      expect(d.svg).not.toMatch(/NaN|undefined|Infinity|\d\.\d{2,}/);
    }
  });

  it('draws every text at 13 px, never scaled: the drawing keeps its natural size', () => {
    for (const d of catalogue) {
      expect(d.svg, d.graph.id).toMatch(new RegExp(`^<svg [^>]*width="${d.layout.width}" height="${d.layout.height}"[^>]*font-size="13"`));
      for (const m of d.svg.matchAll(/font-size="([\d.]+)"/g)) expect(Number(m[1]), d.graph.id).toBeGreaterThanOrEqual(12);
    }
  });
});

describe('readable layouts (checked on the engine output)', () => {
  it('no diagram of the catalogue has two edges along one stretch, a label over a node or a label, or anything outside', () => {
    for (const d of catalogue) expect(layoutProblems(d.layout), d.graph.id).toEqual([]);
  });

  it('no schema reference diagram does either', async () => {
    const withRefs = schemaDocs.filter((doc) => schemaRefRows(doc).length > 0);
    expect(withRefs.length).toBeGreaterThan(40);
    for (const doc of withRefs) expect(layoutProblems((await renderSvg(schemaRefGraph(doc))).layout), doc.stem).toEqual([]);
  });

  it('boxes never overlap: nodes with nodes', () => {
    for (const d of catalogue) {
      const ns = d.layout.nodes;
      for (const [i, a] of ns.entries()) for (const b of ns.slice(i + 1)) expect(overlaps(a, b), `${d.graph.id}: ${a.id} / ${b.id}`).toBe(false);
    }
  });

  it('the checks catch what they look for (not vacuous)', () => {
    const seg = (x0: number, y0: number, x1: number, y1: number) => ({ a: { x: x0, y: y0 }, b: { x: x1, y: y1 } });
    expect(sharedLength(seg(0, 5, 10, 5), seg(4, 5, 20, 5))).toBe(6);
    expect(sharedLength(seg(3, 0, 3, 10), seg(3, 10, 3, 20))).toBe(0);
    expect(sharedLength(seg(0, 5, 10, 5), seg(5, 0, 5, 10))).toBe(0);
    const node = { id: 'n', label: 'n', kind: 'state' as const, x: 10, y: 10, w: 40, h: 20, lines: ['n'] };
    const layout: Layout = {
      width: 100,
      height: 100,
      nodes: [node, { ...node, id: 'm', x: 60 }],
      edges: [
        { from: 'n', to: 'm', label: 'a', points: [{ x: 50, y: 20 }, { x: 60, y: 20 }], labelBox: { x: 20, y: 15, w: 10, h: 10, lines: ['a'] } },
        { from: 'm', to: 'n', label: 'b', points: [{ x: 55, y: 20 }, { x: 52, y: 20 }, { x: 52, y: 25 }, { x: 40, y: 40 }], labelBox: { x: 25, y: 20, w: 90, h: 10, lines: ['b'] } },
      ],
    };
    const problems = layoutProblems(layout);
    expect(problems).toEqual(expect.arrayContaining([
      'edges n → m and m → n share 3.0 px of one line',
      'label of n → m overlaps node n',
      'labels of n → m and m → n overlap',
      'label of m → n is outside the drawing',
      'edge m → n has a diagonal segment',
    ]));
  });

  it('measures text from a fixed width table, and wraps labels at spaces', () => {
    expect(textWidth('mm')).toBeGreaterThan(textWidth('ii'));
    expect(textWidth('pending')).toBe(textWidth('pending'));
    expect(wrapText('a fairly long label that wraps', 60).length).toBeGreaterThan(1);
    expect(wrapText('one\ntwo', 1000)).toEqual(['one', 'two']);
  });
});

describe('lifecycle diagrams ↔ the runtime tables', () => {
  it('every module of runtime/ that declares a lifecycle is drawn', () => {
    const declaring = tsFilesUnder('runtime').filter((f) => f !== 'runtime/shared/state-machine.ts' && /\bdefineStateMachine</.test(readFileSync(f, 'utf8')));
    expect(LIFECYCLE_MODULES.map((m) => m.path).sort()).toEqual(declaring.sort());
    expect([...new Set(lifecycleTables().map((t) => t.module))]).toEqual(LIFECYCLE_MODULES.map((m) => m.path));
  });

  it.each([QUESTION_LIFECYCLE, COMMITMENT_LIFECYCLE, SCHEDULE_LIFECYCLE, PROPOSAL_LIFECYCLE, APPROVAL_GATE_LIFECYCLE].map((m) => [m.id, m] as const))('%s: drawn states and transitions are exactly the table, each arrow labelled with its event', (id, table) => {
    const d = byId(id);
    expect(d.graph.edges.map((e) => `${e.from} → ${e.to}: ${e.label}`)).toEqual(table.transitions.map((t) => `${t.from} → ${t.to}: ${t.on}`));
    expect(drawnNodes(d.svg)).toEqual([...table.states].sort());
    expect(d.graph.nodes.filter((n) => n.initial === true).map((n) => n.id)).toEqual([table.initial]);
    expect(d.graph.nodes.filter((n) => n.terminal === true).map((n) => n.id)).toEqual([...table.terminal]);
    expect(d.layout.start, `${id}: the start dot`).toBeDefined();
  });

  it('a transition added to or removed from a table is added to or removed from its drawing', async () => {
    const [first, ...rest] = QUESTION_LIFECYCLE.transitions;
    const fewer = (await renderSvg(stateMachineGraph({ ...QUESTION_LIFECYCLE, transitions: rest }, 'x'))).svg;
    expect(drawnEdges(fewer)).not.toContain(`${first!.from} → ${first!.to}`);
    const more = (await renderSvg(stateMachineGraph({ ...COMMITMENT_LIFECYCLE, transitions: [...COMMITMENT_LIFECYCLE.transitions, { from: 'held', to: 'fired', on: 'x' }] }, 'x'))).svg;
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

describe('data-flow diagrams ↔ the data they are drawn from', () => {
  const edges = (g: { edges: readonly { from: string; to: string }[] }) => g.edges.map((e) => `${e.from} → ${e.to}`);

  it('memory pipeline: one box per component and one labelled arrow per edge of the wiring table', () => {
    const g = byId('memory-pipeline').graph;
    expect(g.nodes.map((n) => n.id)).toEqual(MEMORY_PIPELINE_WIRING.components.map((c) => c.id));
    expect(g.edges.map((e) => `${e.from} → ${e.to}: ${e.label}`)).toEqual(MEMORY_PIPELINE_WIRING.edges.map((e) => `${e.from} → ${e.to}: ${e.label}`));
    expect(edges(g)).toEqual(expect.arrayContaining(['compactor → distiller', 'distiller → scheduler', 'reader → compactor', 'reader → consolidation']));
  });
  it('memory pipeline: follows the table (an edge taken out loses its arrow)', () => {
    const t = MEMORY_PIPELINE_WIRING;
    expect(edges(memoryPipelineGraph({ ...t, edges: t.edges.filter((e) => !(e.from === 'compactor' && e.to === 'distiller')) }))).not.toContain('compactor → distiller');
  });

  it('toolkit flow: one box per entry of the generator\'s EMITTERS, with the paths it owns; follows the table', () => {
    const g = byId('toolkit-flow').graph;
    expect(g.nodes.filter((n) => n.id.startsWith('emit:')).map((n) => n.id)).toEqual(EMITTERS.map((e) => `emit:${e.name}`));
    expect(edges(g)).toEqual(expect.arrayContaining(['schemas → generator', 'emit:types → runtime/', 'emit:validators → conformance/', 'emit:site-data → site/']));
    expect(toolkitFlowGraph(EMITTERS.filter((e) => e.name !== 'guards')).nodes.map((n) => n.id)).not.toContain('emit:guards');
  });

  it('toolkit flow: each consumer reads exactly the generated/ folders its row names (imports, globs and file paths)', () => {
    /** generated/<folder>/ of every generated path a consumer's sources name. */
    const read = (dirs: string[], extra: (file: string, text: string) => string[] = () => []) => {
      const files = dirs.flatMap((d) => (d.endsWith('.mjs') ? [d] : readdirSync(d, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|astro|mjs)$/.test(f) && !f.endsWith('.d.ts')).map((f) => join(d, f).split('\\').join('/'))));
      const targets = files.flatMap((f) => [...(f.endsWith('.ts') ? importsOf(f) : []), ...extra(f, readFileSync(f, 'utf8'))]);
      return [...new Set(targets.filter((t) => t.startsWith('generated/')).map((t) => `${t.split('/').slice(0, 2).join('/')}/`))].sort();
    };
    /** What else the site reads: import.meta.glob patterns, .astro imports, and repository files its config checks for. */
    const named = (file: string, text: string) => [
      ...[...text.matchAll(/(?:import\.meta\.glob[^(]*\(\s*\[?\s*|from\s+)'((?:\.\.\/)+generated\/[^']+)'/g)].map((m) => join(file, '..', m[1]!).split('\\').join('/')),
      ...[...text.matchAll(/\brepo\('(generated\/[^']+)'\)/g)].map((m) => m[1]!),
    ];
    const row = (id: string) => [...GENERATED_CONSUMERS.find((c) => c.id === id)!.reads].sort();
    expect(read(['runtime'])).toEqual(row('runtime/'));
    expect(read(['conformance'])).toEqual(row('conformance/'));
    expect(read(['entry'])).toEqual(row('entry/ (package exports)'));
    expect(read(['site/src', 'site/typedoc', 'site/astro.config.mjs'], named)).toEqual(row('site/'));
  });
});

describe('where diagrams are explained', () => {
  it('every lifecycle, order and the memory pipeline has a spec or RFC page', () => {
    for (const d of catalogue.filter((x) => x.group !== 'Data flow' || x.graph.id === 'memory-pipeline')) {
      expect(DIAGRAM_HOMES[d.graph.id], d.graph.id).toBeDefined();
      expect(DIAGRAM_HOMES[d.graph.id]!.path, d.graph.id).toMatch(/^\/(spec|rfcs)\//);
    }
  });

  it('each RFC section a diagram is also shown in is a heading of that RFC, and the page is an RFC page', () => {
    const slugOf = (heading: string) => heading.trim().toLowerCase().replace(/[^\w\s-]/g, '').replace(/\s+/g, '-');
    const rfcs = readdirSync('RFCs').filter((f) => f.endsWith('.md'));
    const placements = Object.entries(DIAGRAM_RULE_SECTIONS).flatMap(([id, hs]) => hs.map((h) => ({ id, ...h })));
    expect(placements.length).toBeGreaterThan(0);
    for (const p of placements) {
      expect(DIAGRAM_HOMES[p.id], `${p.id} has a home`).toBeDefined();
      const slug = /^\/rfcs\/([^/]+)\/$/.exec(p.path)?.[1];
      const file = rfcs.find((f) => f.toLowerCase().startsWith(`${slug}-`));
      expect(file, `${p.id}: ${p.path} is an RFC page`).toBeDefined();
      const headings = readFileSync(join('RFCs', file!), 'utf8').split('\n').filter((l) => /^#{2,4} /.test(l)).map((l) => slugOf(l.replace(/^#+ /, '')));
      expect(headings, `${p.id}: ${p.path}#${p.section}`).toContain(p.section);
      expect(diagramsShownAt(p.path), p.path).toContainEqual({ id: p.id, section: p.section });
      expect(diagramPlacements(p.id)[0], `${p.id}: its home comes first`).toEqual(DIAGRAM_HOMES[p.id]);
    }
  });

  it('a block is appended at the end of its section: before the next heading of the same or a higher level', () => {
    const html = '<h2 id="a">A</h2><p>a</p><h3 id="b">B</h3><p>b</p><h4 id="c">C</h4><p>c</p><h3 id="d">D</h3><h2 id="e">E</h2>';
    expect(appendToSection(html, 'b', '<X/>')).toBe('<h2 id="a">A</h2><p>a</p><h3 id="b">B</h3><p>b</p><h4 id="c">C</h4><p>c</p><X/><h3 id="d">D</h3><h2 id="e">E</h2>');
    expect(appendToSection(html, 'a', '<X/>')).toBe(html.replace('<h2 id="e">', '<X/><h2 id="e">'));
    expect(appendToSection(html, 'e', '<X/>')).toBe(`${html}<X/>`);
    expect(() => appendToSection(html, 'nope', '<X/>')).toThrow(/no heading with id "nope"/);
  });
});
