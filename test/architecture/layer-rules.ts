/**
 * What each folder may import, as data: the layering test enforces it on the source files and checks that the
 * table in docs/architecture.md says the same thing. Keys are runtime folders (`runtime/<name>`) and top-level
 * folders; values list the folders (or single files) each may import besides itself — exactly the ones it does
 * import (the test refuses an allowance nothing uses, so the table is the real graph, not a loose upper bound).
 * runtime/storage is the floor every runtime concern stands on: the store is the source of truth, so a concern
 * that keeps anything imports the storage port, its write vocabulary or its reads. Test, bench and script code
 * may import anything and is not listed.
 */
export const LAYER_RULES: Readonly<Record<string, readonly string[]>> = {
  generated: [],
  generator: ['conformance/certify/cli.ts'],
  'runtime/shared': ['generated'],
  'runtime/storage': ['generated', 'runtime/shared'],
  'runtime/memory': ['generated', 'runtime/shared', 'runtime/storage'],
  'runtime/events': ['generated', 'runtime/shared', 'runtime/storage'],
  'runtime/capabilities': ['generated', 'runtime/shared'],
  'runtime/redaction': ['runtime/shared', 'runtime/storage'],
  'runtime/commitments': ['generated', 'runtime/memory', 'runtime/shared', 'runtime/storage'],
  'runtime/consolidation': ['generated', 'runtime/memory', 'runtime/shared', 'runtime/storage'],
  'runtime/multi-agent': ['generated', 'runtime/memory', 'runtime/shared', 'runtime/storage'],
  'runtime/compaction': ['generated', 'runtime/capabilities', 'runtime/events', 'runtime/memory', 'runtime/shared', 'runtime/storage'],
  'runtime/distillation': ['generated', 'runtime/capabilities', 'runtime/compaction', 'runtime/events', 'runtime/memory', 'runtime/shared', 'runtime/storage'],
  'runtime/inquirium': ['generated', 'runtime/shared', 'runtime/storage'],
  'runtime/proposals': ['generated', 'runtime/shared', 'runtime/storage'],
  'runtime/openwop': [
    'generated', 'runtime/capabilities', 'runtime/commitments', 'runtime/compaction', 'runtime/consolidation', 'runtime/distillation',
    'runtime/events', 'runtime/memory', 'runtime/multi-agent', 'runtime/proposals', 'runtime/redaction', 'runtime/shared', 'runtime/storage',
  ],
  'runtime/host': [
    'generated', 'runtime/commitments', 'runtime/compaction', 'runtime/consolidation', 'runtime/distillation',
    'runtime/events', 'runtime/inquirium', 'runtime/memory', 'runtime/multi-agent', 'runtime/openwop', 'runtime/proposals', 'runtime/redaction', 'runtime/shared', 'runtime/storage',
  ],
  conformance: ['generated', 'runtime/host/seam-catalogue.ts'],
  site: [
    'generated', 'generator/site-data-format.ts', 'generator/json-value.ts', 'generator/compat/report.ts', 'generator/compat/majors.ts',
    // The playground parses and locates JSON as the CLI does.
    'generator/json-parse.ts', 'generator/json-locate.ts',
    // Diagrams (site/src/lib/diagrams/): the data they draw — the emitter table, the lifecycle tables, the orders and
    // the runtime's wiring table.
    'generator/emitters.ts', 'runtime/shared/state-machine.ts', 'runtime/openwop/wiring.ts',
    'runtime/inquirium/lattice.ts', 'runtime/inquirium/safety-axes.ts', 'runtime/inquirium/question-lifecycle.ts',
    'runtime/commitments/commitment-lifecycle.ts', 'runtime/distillation/schedule-lifecycle.ts', 'runtime/proposals/lifecycle.ts',
    // The widget gallery (the kind table and the host's refusal function) and the HTTP API reference (the route table).
    'runtime/inquirium/widget-kinds.ts', 'runtime/host/seam-catalogue.ts',
    // The interop page renders the upstream acceptance record (its matrix reads conformance/results/*.json by glob).
    'conformance/results/upstream/acceptance.json',
    // The requirement page renders the requirement tables and reads results keyed by id (their types).
    'conformance/requirements/openwop-memory.json', 'conformance/requirements/inquirium.json', 'conformance/requirements.ts', 'conformance/requirement-results.ts',
    // Edit links come from package.json `repository`.
    'package.json',
  ],
  entry: ['conformance', 'generated', 'runtime/capabilities', 'runtime/commitments', 'runtime/compaction', 'runtime/consolidation', 'runtime/distillation', 'runtime/events', 'runtime/host', 'runtime/inquirium', 'runtime/memory', 'runtime/multi-agent', 'runtime/openwop', 'runtime/proposals', 'runtime/redaction', 'runtime/shared', 'runtime/storage'],
};

/** The folder a repository path belongs to, in the table's terms (`runtime/<name>` or the top-level folder). */
export function layerOf(path: string): string {
  const parts = path.split('/');
  return parts[0] === 'runtime' && parts.length > 2 ? `runtime/${parts[1]}` : parts[0]!;
}

/** Whether `target` is allowed by a rule entry (a folder, or one exact file; a `?raw`-style query is ignored). */
export const allows = (entry: string, target: string): boolean => entry === layerOf(target) || entry === target.replace(/\?.*$/, '');
