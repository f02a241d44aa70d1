/**
 * The memory pipeline's wiring table (runtime/openwop/wiring.ts, the data the site's diagram is drawn from) against
 * the real import graph: the composition root imports each component's class from the module the table names, and
 * for each edge the receiving component's module imports the module it is handed the other component through (the
 * other's own module or a port that module imports). A table that drifts from the code fails here, naming the row.
 */
import { posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { MEMORY_PIPELINE_WIRING, type WiringTable } from '../../../runtime/openwop/wiring.ts';
import { importsOf, sourceOf } from '../../architecture/sources.ts';

/** Names a module imports from each relative specifier, resolved to repository paths. */
function namedImports(file: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const s of sourceOf(file).statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier) || !s.moduleSpecifier.text.startsWith('.')) continue;
    const path = posix.normalize(posix.join(posix.dirname(file), s.moduleSpecifier.text));
    const names = s.importClause?.namedBindings !== undefined && ts.isNamedImports(s.importClause.namedBindings) ? s.importClause.namedBindings.elements.map((e) => (e.propertyName ?? e.name).text) : [];
    out.set(path, [...(out.get(path) ?? []), ...names]);
  }
  return out;
}

/** Every row of the table the code does not bear out. */
function wiringProblems(t: WiringTable): string[] {
  const problems: string[] = [];
  const rootImports = namedImports(t.root.module);
  const byId = new Map(t.components.map((c) => [c.id, c]));
  for (const c of t.components) {
    if (!(rootImports.get(c.module) ?? []).includes(c.className)) problems.push(`${t.root.module} does not import ${c.className} from ${c.module}`);
  }
  for (const e of t.edges) {
    const from = byId.get(e.from);
    const to = byId.get(e.to);
    if (from === undefined || to === undefined) {
      problems.push(`edge ${e.from} → ${e.to} names a component the table does not have`);
      continue;
    }
    if (!importsOf(to.module).includes(e.through)) problems.push(`${to.module} does not import ${e.through} (edge ${e.from} → ${e.to})`);
    if (e.through !== from.module && !importsOf(from.module).includes(e.through)) problems.push(`${from.module} is not ${e.through} and does not import it (edge ${e.from} → ${e.to})`);
  }
  return problems;
}

describe('the memory pipeline wiring table', () => {
  it('matches the import graph: every component is built by the composition root, every edge is an import', () => {
    expect(wiringProblems(MEMORY_PIPELINE_WIRING)).toEqual([]);
    expect(MEMORY_PIPELINE_WIRING.edges.length).toBeGreaterThanOrEqual(MEMORY_PIPELINE_WIRING.components.length - 1);
  });

  it('a row the code does not bear out is reported (the check is not vacuous)', () => {
    const t = MEMORY_PIPELINE_WIRING;
    const wrongClass = { ...t, components: t.components.map((c) => (c.id === 'compactor' ? { ...c, className: 'Compressor' } : c)) };
    expect(wiringProblems(wrongClass)).toEqual([`${t.root.module} does not import Compressor from runtime/compaction/compactor.ts`]);
    const wrongEdge = { ...t, edges: [...t.edges, { from: 'scheduler', to: 'writer', label: 'x', through: 'runtime/distillation/schedule.ts' }] };
    expect(wiringProblems(wrongEdge)).toEqual(['runtime/memory/writer.ts does not import runtime/distillation/schedule.ts (edge scheduler → writer)']);
  });

  it('has unique component ids', () => {
    expect(new Set(MEMORY_PIPELINE_WIRING.components.map((c) => c.id)).size).toBe(MEMORY_PIPELINE_WIRING.components.length);
  });
});
