/**
 * The requirement page's model: the rows of the requirement tables (conformance/requirements/*.json), grouped by
 * namespace, each with its outcome on every host whose latest results file reports requirements (files written
 * before requirement ids have none), and the counts the page leads with — above all how many MUSTs have no
 * witness. Pure: the page feeds it the tables and the latest results files, the tests feed it fixtures.
 */
import type { Namespace, Requirement, RequirementTable, WitnessClass } from '../../../conformance/requirements.ts';
import type { RequirementResult } from '../../../conformance/requirement-results.ts';
import { rfcSlug } from './rfc-status.ts';

export const NAMESPACE_TITLES: Record<Namespace, string> = {
  openwop: 'OpenWOP memory slice',
  inquirium: 'Inquirium (P066)',
};

/** What a namespace's ids are and where they may go, in one sentence under its heading. */
export const NAMESPACE_NOTES: Record<Namespace, string> = {
  openwop: 'Proposed ids under openwop.requirement.proposed., a segment upstream does not use, so none reuses or shadows an id upstream mints.',
  inquirium: 'Ids under orbiplex.inquirium.: this project’s results only, never an OpenWOP bundle.',
};

export const WITNESS_ORDER: readonly WitnessClass[] = ['witnessable-unaided', 'witnessable-gated', 'seam-gated', 'claims-check', 'negative-existence', 'unwitnessable'];

/** A results file as the page reads it: host name, file name and (when the suite wrote them) the per-requirement results. */
export interface RequirementResultsFile {
  file: string;
  host: { name: string };
  suite: { name: string; version: string; kind?: string };
  finishedAt: string;
  requirements?: RequirementResult[];
}

export type CellOutcome = RequirementResult['outcome'] | 'not-reported';
export interface Cell { host: string; outcome: CellOutcome; skipClass?: string; reason?: string; assertions: number }

export interface RowView extends Requirement {
  /** Site URL of the rule (`/rfcs/<slug>/#<anchor>`), or undefined for an upstream document. */
  href?: string;
  /** True for a MUST or MUST NOT that names no witnessing scenario. */
  noWitness: boolean;
  cells: Cell[];
}

export interface RequirementsView {
  /** Hosts with a latest wopkit results file, sorted; `reports` is false for files written before requirement ids. */
  hosts: { name: string; file: string; suiteVersion: string; reports: boolean }[];
  groups: { namespace: Namespace; title: string; note: string; rows: RowView[] }[];
  counts: { rows: number; musts: number; mustsWithoutWitness: number; byWitness: Record<WitnessClass, number>; floor: number };
}

/** `RFCs/0068-memory-consolidation-and-commitments.md` → `0068`; `RFCs/AM-1.1-agent-memory.md` → `AM-1.1`. */
export function rfcNumberOf(document: string): string | undefined {
  return /^RFCs\/(\d{4}|AM-\d+(?:\.\d+)*|P\d{3}|WK-\d{4})-/.exec(document)?.[1];
}

const isMust = (r: Requirement) => r.force === 'MUST' || r.force === 'MUST NOT';

export function requirementsView(tables: readonly RequirementTable[], latest: readonly RequirementResultsFile[]): RequirementsView {
  const ours = latest.filter((f) => (f.suite.kind ?? 'wopkit') === 'wopkit').sort((a, b) => a.host.name.localeCompare(b.host.name));
  const hosts = ours.map((f) => ({ name: f.host.name, file: f.file, suiteVersion: f.suite.version, reports: Array.isArray(f.requirements) }));
  const cellsOf = (id: string): Cell[] =>
    ours.map((f) => {
      if (!Array.isArray(f.requirements)) return { host: f.host.name, outcome: 'not-reported', assertions: 0 };
      const r = f.requirements.find((x) => x.id === id);
      if (r === undefined) return { host: f.host.name, outcome: 'not-reported', assertions: 0 };
      return { host: f.host.name, outcome: r.outcome, ...(r.skipClass ? { skipClass: r.skipClass } : {}), ...(r.reason ? { reason: r.reason } : {}), assertions: r.assertions };
    });
  const groups = tables.map((t) => ({
    namespace: t.namespace,
    title: NAMESPACE_TITLES[t.namespace],
    note: NAMESPACE_NOTES[t.namespace],
    rows: t.requirements.map((r): RowView => {
      const n = rfcNumberOf(r.section.document);
      return { ...r, ...(n !== undefined ? { href: `/rfcs/${rfcSlug(n)}/${r.section.anchor ? `#${r.section.anchor}` : ''}` } : {}), noWitness: isMust(r) && r.scenarios.length === 0, cells: cellsOf(r.id) };
    }),
  }));
  const rows = groups.flatMap((g) => g.rows);
  const byWitness = Object.fromEntries(WITNESS_ORDER.map((w) => [w, rows.filter((r) => r.witness === w).length])) as Record<WitnessClass, number>;
  return {
    hosts,
    groups,
    counts: { rows: rows.length, musts: rows.filter(isMust).length, mustsWithoutWitness: rows.filter((r) => r.noWitness).length, byWitness, floor: rows.filter((r) => (r.floor ?? []).length > 0).length },
  };
}
