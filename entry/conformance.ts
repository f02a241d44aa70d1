/**
 * `wopkit/conformance` — run the HTTP conformance suite against any host from code:
 * `runSuite(configFrom(process.env, { 'base-url': url, 'api-key': token }))`, then `formatSummary(results)`.
 * Scenarios talk to the host over HTTP only; `SCENARIOS` is the default list (pass a subset or your own).
 */
export * from '../conformance/run.ts';
export * from '../conformance/config.ts';
export { ScenarioContext, runScenario, type Discovery, type Outcome, type Scenario, type ScenarioResult, type SkipClass } from '../conformance/scenario.ts';
export { SCENARIOS } from '../conformance/scenarios/index.ts';
