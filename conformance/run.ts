/**
 * Run every scenario against one host and produce the results document (format: conformance/result.schema.json).
 */
import { ROUTES, urlOf, validatorOf } from '../runtime/host/seam-catalogue.ts';
import { HttpClient } from './client.ts';
import type { SuiteConfig } from './config.ts';
import { requirementResults, summariseRequirements, type RequirementResult, type RequirementSummary } from './requirement-results.ts';
import { runScenario, type Discovery, type Scenario, type ScenarioResult } from './scenario.ts';
import { SCENARIOS } from './scenarios/index.ts';

export const SUITE_NAME = 'wopkit-conformance';
/** The package version (test/package/versions.test.ts). Results carry `requirements` keyed by id since issue 39. */
export const SUITE_VERSION = '0.3.0';

export interface SuiteResults {
  readonly suite: { readonly name: string; readonly version: string };
  readonly host: { readonly name: string; readonly version: string; readonly baseUrl: string };
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly strict: boolean;
  readonly optedOutProfiles: readonly string[];
  readonly summary: { readonly pass: number; readonly fail: number; readonly skip: number };
  readonly scenarios: readonly ScenarioResult[];
  /** One result per row of conformance/requirements/, keyed by requirement id. */
  readonly requirements: readonly RequirementResult[];
  readonly requirementSummary: RequirementSummary;
}

export class DiscoveryError extends Error {}

export async function runSuite(config: SuiteConfig, scenarios: readonly Scenario[] = SCENARIOS): Promise<SuiteResults> {
  const startedAt = new Date().toISOString();
  const client = new HttpClient(config);
  const { method, path } = ROUTES.discovery;
  let disc;
  try {
    disc = await client.request<Discovery>(method, urlOf(ROUTES.discovery), undefined, validatorOf(ROUTES.discovery.response));
  } catch (e) {
    throw new DiscoveryError(`cannot reach ${config.baseUrl}${path} (${(e as Error).message})`);
  }
  if (disc.status !== 200) throw new DiscoveryError(`${method} ${path} answered ${disc.status}`);
  const discovery = disc.body ?? {};
  const results: ScenarioResult[] = [];
  const discoveryInvalid = disc.schemaFailures.length > 0 ? disc.schemaFailures : undefined;
  for (const s of scenarios) {
    if (config.only !== undefined && !s.id.includes(config.only)) continue;
    const r = await runScenario(s, client, discovery, config);
    // An invalid discovery document fails the always-on shape scenario.
    results.push(discoveryInvalid && s.profile === 'schema' ? { ...r, outcome: 'fail', reason: `discovery document invalid: ${discoveryInvalid[0]}`, failures: [...r.failures, ...discoveryInvalid] } : r);
  }
  const host = (discovery.host ?? {}) as { name?: string; version?: string };
  const requirements = requirementResults(results);
  return {
    suite: { name: SUITE_NAME, version: SUITE_VERSION },
    host: { name: host.name ?? new URL(config.baseUrl).host, version: host.version ?? 'unknown', baseUrl: config.baseUrl },
    startedAt,
    finishedAt: new Date().toISOString(),
    strict: config.strict,
    optedOutProfiles: [...config.optedOut].sort(),
    summary: {
      pass: results.filter((r) => r.outcome === 'pass').length,
      fail: results.filter((r) => r.outcome === 'fail').length,
      skip: results.filter((r) => r.outcome === 'skip').length,
    },
    scenarios: results,
    requirements,
    requirementSummary: summariseRequirements(requirements),
  };
}

/** The human summary. */
export function formatSummary(r: SuiteResults): string {
  const icon = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const;
  const lines = [`${r.suite.name} ${r.suite.version} against ${r.host.name} ${r.host.version} (${r.host.baseUrl})${r.strict ? ' [strict]' : ''}`];
  for (const s of r.scenarios) {
    lines.push(`  ${icon[s.outcome]} ${s.id}${s.skipClass ? ` (${s.skipClass})` : ''} — ${s.assertions} assertions, ${s.durationMs} ms${s.reason ? `\n       ${s.reason}` : ''}`);
  }
  for (const q of r.requirements.filter((x) => x.outcome === 'fail')) lines.push(`  FAIL requirement ${q.id} — ${q.reason ?? ''}`);
  const q = r.requirementSummary;
  lines.push(`requirements: ${q.pass} passed, ${q.fail} failed, ${q.skip} skipped, ${q.unwitnessed} without a witness`);
  lines.push(`${r.summary.pass} passed, ${r.summary.fail} failed, ${r.summary.skip} skipped`);
  return lines.join('\n');
}
