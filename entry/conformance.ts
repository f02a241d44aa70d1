/**
 * `wopkit/conformance` — run the HTTP conformance suite against any host from code:
 * `runSuite(configFrom(process.env, { 'base-url': url, 'api-key': token }))`, then `formatSummary(results)`.
 * Scenarios talk to the host over HTTP only; `SCENARIOS` is the default list (pass a subset or your own). Every
 * assertion names a requirement id of `REQUIREMENTS` (`t.req(id)`), and the results carry one result per id.
 */
export * from '../conformance/run.ts';
export * from '../conformance/config.ts';
export { ScenarioContext, runScenario, SUITE_BUG, type Discovery, type Outcome, type RequirementTally, type Scenario, type ScenarioResult, type SkipClass } from '../conformance/scenario.ts';
export { REQUIREMENTS, REQUIREMENT_TABLES, WITNESS_CLASSES, isUnwitnessedMust, requirementsWitnessedBy, type Force, type Namespace, type Requirement, type RequirementTable, type TableRequirement, type WitnessClass } from '../conformance/requirements.ts';
export { requirementResults, summariseRequirements, type RequirementOutcome, type RequirementResult, type RequirementSummary } from '../conformance/requirement-results.ts';
export { SCENARIOS } from '../conformance/scenarios/index.ts';
