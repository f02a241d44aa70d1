/// <reference types="vite/client" />
/**
 * The toolkit's own data flow, read from the generator's emitter table and from who reads its output:
 * schemas/ → the generator's stages → one node per entry of EMITTERS (generator/emitters.ts, parsed at build
 * time, with the generated/ paths it owns) → the folders whose source names a path under what that emitter owns
 * (an import, a glob, a file path). Add an emitter or a consumer and the diagram follows at the next build.
 */
import { posix } from 'node:path';
import ts from 'typescript';
import emittersSource from '../../../../generator/emitters.ts?raw';
import { GENERATED } from '../../../../generator/naming.ts';
import type { Graph } from './graph.ts';

/** The generator's stages, in order (generator/model.ts: load → lint → resolve → emit). */
export const GENERATOR_STAGES = ['load', 'lint', 'resolve', 'emit'] as const;

/** Who reads generated/: each consumer and the source files it is made of. */
const CONSUMER_SOURCES: Readonly<Record<string, Record<string, string>>> = {
  'runtime/': import.meta.glob<string>('../../../../runtime/**/*.ts', { query: '?raw', import: 'default', eager: true }),
  'conformance/': import.meta.glob<string>('../../../../conformance/**/*.ts', { query: '?raw', import: 'default', eager: true }),
  'entry/ (package exports)': import.meta.glob<string>('../../../../entry/*.ts', { query: '?raw', import: 'default', eager: true }),
  'site/': import.meta.glob<string>(['../../**/*.{ts,astro}', '../../../astro.config.mjs', '../../../typedoc/*.ts'], { query: '?raw', import: 'default', eager: true }),
};

export interface EmitterRow {
  readonly name: string;
  readonly owns: readonly string[];
}

/** The `name` and `owns` of every entry of `EMITTERS` in the emitter table's source. */
export function readEmitterTable(source: string, generated: Readonly<Record<string, string>> = GENERATED): EmitterRow[] {
  const sf = ts.createSourceFile('emitters.ts', source, ts.ScriptTarget.Latest, true);
  const decl = sf.statements.filter(ts.isVariableStatement).flatMap((s) => s.declarationList.declarations).find((d) => ts.isIdentifier(d.name) && d.name.text === 'EMITTERS');
  if (decl?.initializer === undefined || !ts.isArrayLiteralExpression(decl.initializer)) throw new Error('emitter table: no EMITTERS array');
  return decl.initializer.elements.filter(ts.isObjectLiteralExpression).map((o) => {
    const prop = (n: string) => o.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === n)?.initializer;
    const name = prop('name');
    const owns = prop('owns');
    if (name === undefined || !ts.isStringLiteral(name) || owns === undefined || !ts.isArrayLiteralExpression(owns)) throw new Error('emitter table: an entry without a literal name and owns list');
    return {
      name: name.text,
      owns: owns.elements.map((e) => {
        if (ts.isStringLiteral(e)) return e.text;
        if (ts.isPropertyAccessExpression(e) && generated[e.name.text] !== undefined) return generated[e.name.text]!;
        throw new Error(`emitter table: ${name.text} owns something other than a literal or GENERATED path`);
      }),
    };
  });
}

/** Repository paths under generated/ that a source file names (relative specifiers resolved from the file). */
export function generatedPathsNamed(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/['"`]([^'"`\n]*generated\/[^'"`\n]*)['"`]/g)) {
    const spec = m[1]!;
    const path = spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), spec)) : spec.replace(/^\/+/, '');
    if (path.startsWith('generated/')) out.push(path);
  }
  return out;
}

/** This module's folder: glob keys are relative to it. */
const HERE = 'site/src/lib/diagrams';

/** Consumer → the generated paths its source names. */
function consumersFrom(sources: Readonly<Record<string, Record<string, string>>>): Map<string, string[]> {
  return new Map(Object.entries(sources).map(([consumer, files]) => [consumer, Object.entries(files).flatMap(([key, text]) => generatedPathsNamed(posix.normalize(posix.join(HERE, key)), text))]));
}

export function toolkitFlowGraph(source: string = emittersSource, sources: Readonly<Record<string, Record<string, string>>> = CONSUMER_SOURCES): Graph {
  const emitters = readEmitterTable(source);
  const consumers = consumersFrom(sources);
  const stage = `generator\n${GENERATOR_STAGES.join(' → ')}`;
  const edges = [
    { from: 'schemas', to: 'generator', label: 'schema files and examples, loaded and meta-validated' },
    ...emitters.map((e) => ({ from: 'generator', to: `emit:${e.name}`, label: `the resolved corpus, emitted by the ${e.name} emitter` })),
    ...emitters.flatMap((e) =>
      [...consumers].flatMap(([consumer, paths]) => {
        const used = [...new Set(paths.filter((p) => e.owns.some((o) => (o.endsWith('/') ? p.startsWith(o) : p === o))))].sort();
        return used.length === 0 ? [] : [{ from: `emit:${e.name}`, to: consumer, label: `reads ${used.slice(0, 3).join(', ')}${used.length > 3 ? ` and ${used.length - 3} more` : ''}` }];
      }),
    ),
  ];
  const usedConsumers = Object.keys(sources).filter((c) => edges.some((e) => e.to === c));
  return {
    id: 'toolkit-flow',
    title: 'The toolkit: schemas → generator → generated → runtime, site, conformance',
    source: 'generator/emitters.ts EMITTERS (read at build time) and the generated/ paths each consumer names',
    summary: 'One box per emitter of the generator, with the generated/ paths it owns; an arrow to a consumer means its source names a file under those paths. Nothing downstream re-derives what an upstream stage produced.',
    direction: 'LR',
    nodes: [
      { id: 'schemas', label: 'schemas/\n(+ examples)', kind: 'artifact' },
      { id: 'generator', label: stage, kind: 'stage' },
      ...emitters.map((e) => ({ id: `emit:${e.name}`, label: `${e.name}\n${e.owns.join('\n')}`, kind: 'artifact' as const })),
      ...usedConsumers.map((c) => ({ id: c, label: c, kind: 'stage' as const })),
    ],
    edges,
    columns: ['From', 'To', 'What'],
  };
}
