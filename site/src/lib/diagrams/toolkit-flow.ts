/**
 * The toolkit's own data flow: schemas/ → the generator's stages → one node per entry of the generator's emitter
 * table (`EMITTERS`, generator/emitters.ts, with the generated/ paths each owns) → the folders that read what it
 * writes (GENERATED_CONSUMERS below, which test/site/diagrams.test.ts holds to the real imports of each folder).
 * Add an emitter and the diagram follows at the next build; add a consumer's import and the test asks for its row.
 */
import { EMITTERS } from '../../../../generator/emitters.ts';
import type { Graph } from './graph.ts';

/** The generator's stages, in order (generator/model.ts: load → lint → resolve → emit). */
export const GENERATOR_STAGES = ['load', 'lint', 'resolve', 'emit'] as const;

export interface GeneratedConsumer {
  /** The folder, as the diagram names it. */
  readonly id: string;
  /** The generated/ folders its code reads (imports, globs, file reads), each ending in `/`. */
  readonly reads: readonly string[];
  /** What it does with them: the label of its arrows. */
  readonly how: string;
}

/** Who reads generated/. */
export const GENERATED_CONSUMERS: readonly GeneratedConsumer[] = [
  { id: 'runtime/', reads: ['generated/ts/', 'generated/validators/', 'generated/guards/', 'generated/run-events/', 'generated/openapi/', 'generated/routes/'], how: 'imports' },
  { id: 'conformance/', reads: ['generated/validators/'], how: 'imports' },
  { id: 'entry/ (package exports)', reads: ['generated/ts/', 'generated/validators/', 'generated/guards/', 'generated/run-events/'], how: 're-exports' },
  { id: 'site/', reads: ['generated/site-data/', 'generated/validators/', 'generated/run-events/', 'generated/other-languages/', 'generated/majors/'], how: 'renders' },
];

export interface EmitterRow {
  readonly name: string;
  readonly owns: readonly string[];
}

export function toolkitFlowGraph(emitters: readonly EmitterRow[] = EMITTERS, consumers: readonly GeneratedConsumer[] = GENERATED_CONSUMERS): Graph {
  const owned = (e: EmitterRow, read: string) => e.owns.some((o) => (o.endsWith('/') ? read.startsWith(o) : read === o));
  const edges = [
    { from: 'schemas', to: 'generator', label: 'loaded and checked' },
    ...emitters.map((e) => ({ from: 'generator', to: `emit:${e.name}`, label: 'emits' })),
    ...emitters.flatMap((e) => consumers.filter((c) => c.reads.some((r) => owned(e, r))).map((c) => ({ from: `emit:${e.name}`, to: c.id, label: c.how }))),
  ];
  const usedConsumers = consumers.filter((c) => edges.some((e) => e.to === c.id));
  return {
    id: 'toolkit-flow',
    title: 'The toolkit: schemas → generator → generated → runtime, site, conformance',
    source: 'generator/emitters.ts EMITTERS (the emitter table) and the consumers table in site/src/lib/diagrams/toolkit-flow.ts',
    summary: 'One box per emitter of the generator, with the generated/ paths it owns; an arrow to a folder means that folder’s code reads those files. Nothing downstream re-derives what an upstream stage produced.',
    nodes: [
      { id: 'schemas', label: 'schemas/\n(+ examples)', kind: 'artifact' },
      { id: 'generator', label: `generator\n${GENERATOR_STAGES.join(' → ')}`, kind: 'stage' },
      ...emitters.map((e) => ({ id: `emit:${e.name}`, label: `${e.name}\n${e.owns.join('\n')}`, kind: 'artifact' as const })),
      ...usedConsumers.map((c) => ({ id: c.id, label: c.id, kind: 'stage' as const })),
    ],
    edges,
    columns: ['From', 'To', 'What'],
  };
}
