/**
 * The requirement tables (conformance/requirements/*.json, format: requirements.schema.json), loaded once: every id
 * the scenarios assert under, its witness class, and the scenarios that witness it. Scenarios name an id with
 * `t.req(id)` before their assertions (conformance/scenario.ts); the suite then reports per requirement id
 * (`requirementResults`), and the site's requirement page renders the same rows.
 */
import openwopTable from './requirements/openwop-memory.json' with { type: 'json' };
import inquiriumTable from './requirements/inquirium.json' with { type: 'json' };

/** Upstream's closed set of witness classes: how a requirement can be observed, from unaided to not at all. */
export const WITNESS_CLASSES = ['witnessable-unaided', 'witnessable-gated', 'seam-gated', 'claims-check', 'negative-existence', 'unwitnessable'] as const;
export type WitnessClass = (typeof WITNESS_CLASSES)[number];
/** The strongest normative force of a rule's text; `informative` rules bind nobody. */
export type Force = 'MUST' | 'MUST NOT' | 'SHOULD' | 'MAY' | 'informative';
/** `openwop`: ids a bundle may carry (proposals); `inquirium`: P066 rows, this project's results only. */
export type Namespace = 'openwop' | 'inquirium';

/** One row of a requirement table (requirements.schema.json#/$defs/Requirement). */
export interface Requirement {
  readonly id: string;
  readonly rule?: string;
  readonly section: { readonly document: string; readonly anchor: string; readonly heading: string };
  readonly force: Force;
  readonly witness: WitnessClass;
  readonly scenarios: readonly string[];
  readonly rationale?: string;
  readonly gap?: string;
  readonly textSha256?: string;
  readonly floor?: readonly 'openwop-memory'[];
}

/** One table file (requirements.schema.json). */
export interface RequirementTable {
  readonly namespace: Namespace;
  readonly title: string;
  readonly upstreamChecked: { readonly repo: string; readonly path: string; readonly commit: string };
  readonly requirements: readonly Requirement[];
}

/** The tables, in report order. The JSON files are validated against their schema by test/conformance/requirements.test.ts. */
export const REQUIREMENT_TABLES: readonly RequirementTable[] = [openwopTable as RequirementTable, inquiriumTable as RequirementTable];

/** A requirement with the namespace of its table. */
export interface TableRequirement extends Requirement {
  readonly namespace: Namespace;
}

function index(tables: readonly RequirementTable[]): ReadonlyMap<string, TableRequirement> {
  const byId = new Map<string, TableRequirement>();
  for (const t of tables) {
    for (const r of t.requirements) {
      if (byId.has(r.id)) throw new Error(`requirement id ${r.id} appears twice in conformance/requirements/`);
      byId.set(r.id, { ...r, namespace: t.namespace });
    }
  }
  return byId;
}

/** Every requirement, by id. */
export const REQUIREMENTS: ReadonlyMap<string, TableRequirement> = index(REQUIREMENT_TABLES);

/** The rows a scenario witnesses (the rows that list it). */
export const requirementsWitnessedBy = (scenarioId: string): TableRequirement[] => [...REQUIREMENTS.values()].filter((r) => r.scenarios.includes(scenarioId));

/** A normative row (MUST or MUST NOT) with no scenario: what the site counts as "no witness". */
export const isUnwitnessedMust = (r: Requirement): boolean => (r.force === 'MUST' || r.force === 'MUST NOT') && r.scenarios.length === 0;
