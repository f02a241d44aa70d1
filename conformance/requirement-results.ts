/**
 * Results keyed by requirement id: every row of conformance/requirements/ with its outcome on one host, folded from
 * what each witnessing scenario asserted under that id (conformance/scenario.ts `t.req`). Pure.
 *
 * Per (scenario, id): failures under the id → fail; a strict-mode gate failure (before any section) → fail; the
 * scenario stopped abnormally inside the id's section → that section is incomplete: fail when the stop is a failure,
 * else the scenario's skip; assertions made and none failed → pass; nothing asserted → the scenario's skip class when
 * it skipped, otherwise `blocked` (the section was never reached). Across scenarios: any fail → fail;
 * else any pass → pass; else skip, with the most telling class (blocked, then skipped, then inapplicable). A row with
 * no scenario is `unwitnessed` and carries its rationale or gap. A row is never `pass` without an assertion.
 */
import type { Outcome, ScenarioResult, SkipClass } from './scenario.ts';
import { REQUIREMENTS, type Force, type Namespace, type TableRequirement, type WitnessClass } from './requirements.ts';

/** A requirement's outcome on one host; `unwitnessed`: its row names no scenario. */
export type RequirementOutcome = Outcome | 'unwitnessed';

/** One requirement's result on one host, keyed by its id (result.schema.json#/properties/requirements). */
export interface RequirementResult {
  readonly id: string;
  readonly namespace: Namespace;
  readonly force: Force;
  readonly witness: WitnessClass;
  readonly outcome: RequirementOutcome;
  readonly skipClass?: SkipClass;
  readonly reason?: string;
  /** The witnessing scenarios that ran, in table order. */
  readonly scenarios: readonly string[];
  readonly assertions: number;
  readonly failures: readonly string[];
}

/** How many requirements of a run ended in each outcome. */
export interface RequirementSummary {
  readonly pass: number;
  readonly fail: number;
  readonly skip: number;
  readonly unwitnessed: number;
}

interface Leg { readonly outcome: Outcome; readonly skipClass?: SkipClass; readonly reason?: string; readonly assertions: number; readonly failures: readonly string[] }

const SKIP_ORDER: readonly SkipClass[] = ['blocked', 'skipped', 'inapplicable'];

function leg(s: ScenarioResult, id: string): Leg {
  const tally = s.requirements.find((t) => t.id === id);
  const assertions = tally?.assertions ?? 0;
  const failures = tally?.failures ?? [];
  if (failures.length > 0) return { outcome: 'fail', reason: failures[0]!, assertions, failures };
  // A strict-mode gate failure happens before any section opens: every requirement of the scenario fails with it.
  if (s.outcome === 'fail' && s.requirements.length === 0) return { outcome: 'fail', reason: s.reason ?? 'the scenario failed before asserting', assertions, failures: s.failures };
  if (assertions > 0 && tally?.stoppedHere !== true) return { outcome: 'pass', assertions, failures: [] };
  if (s.outcome === 'skip') return { outcome: 'skip', skipClass: s.skipClass ?? 'blocked', reason: s.reason ?? s.skipClass ?? 'skipped', assertions, failures: [] };
  return { outcome: 'skip', skipClass: 'blocked', reason: `${s.id} asserted nothing under this requirement${s.outcome === 'fail' ? ` (it stopped: ${s.reason ?? 'failed'})` : ''}`, assertions, failures: [] };
}

function fold(row: TableRequirement, ran: readonly ScenarioResult[]): RequirementResult {
  const head = { id: row.id, namespace: row.namespace, force: row.force, witness: row.witness };
  if (row.scenarios.length === 0) return { ...head, outcome: 'unwitnessed', reason: row.rationale ?? row.gap ?? 'no witness', scenarios: [], assertions: 0, failures: [] };
  const byId = new Map(ran.map((s) => [s.id, s]));
  const witnesses = row.scenarios.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  if (witnesses.length === 0) return { ...head, outcome: 'skip', skipClass: 'skipped', reason: `not run: ${row.scenarios.join(', ')}`, scenarios: [], assertions: 0, failures: [] };
  const legs = witnesses.map((s) => leg(s, row.id));
  const assertions = legs.reduce((n, l) => n + l.assertions, 0);
  const scenarios = witnesses.map((s) => s.id);
  const failed = legs.filter((l) => l.outcome === 'fail');
  if (failed.length > 0) return { ...head, outcome: 'fail', reason: failed[0]!.reason!, scenarios, assertions, failures: failed.flatMap((l) => l.failures) };
  if (legs.some((l) => l.outcome === 'pass')) return { ...head, outcome: 'pass', scenarios, assertions, failures: [] };
  const skipClass = SKIP_ORDER.find((c) => legs.some((l) => l.skipClass === c)) ?? 'blocked';
  return { ...head, outcome: 'skip', skipClass, reason: legs.find((l) => l.skipClass === skipClass)!.reason!, scenarios, assertions, failures: [] };
}

/** One result per requirement row, in table order. */
export function requirementResults(scenarios: readonly ScenarioResult[], rows: Iterable<TableRequirement> = REQUIREMENTS.values()): RequirementResult[] {
  return [...rows].map((row) => fold(row, scenarios));
}

/** The counts of a run's requirement results per outcome. */
export function summariseRequirements(results: readonly RequirementResult[]): RequirementSummary {
  const count = (o: RequirementOutcome) => results.filter((r) => r.outcome === o).length;
  return { pass: count('pass'), fail: count('fail'), skip: count('skip'), unwitnessed: count('unwitnessed') };
}
