/**
 * Scenario model. Each scenario ends as pass, fail, or skip with a class — inapplicable (the host does not
 * advertise the behaviour), skipped (the host opted out of the profile), blocked (the scenario could not assert
 * anything: a missing seam outside strict mode, or no assertion made). A scenario never passes vacuously: zero
 * assertions is `blocked`. In strict mode an unadvertised behaviour or a missing seam is a failure.
 *
 * Every assertion names its requirement: `t.req(id)` (an id of conformance/requirements/, whose row lists this
 * scenario) opens a section, and every check until the next `t.req` counts under that id. An assertion made before
 * any `t.req`, or under an id whose row does not list the scenario, fails the scenario as a suite bug.
 */
import { targetOf, validatorOf, type CatalogueRoute, type TargetValues } from '../runtime/host/seam-catalogue.ts';
import { REQUIREMENTS } from './requirements.ts';
import type { HttpClient, HttpResult, SchemaValidator } from './client.ts';
import type { SuiteConfig } from './config.ts';

export type SkipClass = 'inapplicable' | 'skipped' | 'blocked';
export type Outcome = 'pass' | 'fail' | 'skip';

export interface ScenarioResult {
  readonly id: string;
  readonly title: string;
  readonly rfc: string;
  readonly profile: string;
  readonly outcome: Outcome;
  readonly skipClass?: SkipClass;
  readonly reason?: string;
  readonly assertions: number;
  readonly failures: readonly string[];
  readonly durationMs: number;
  /** The assertions per requirement id, in the order the scenario opened them. */
  readonly requirements: readonly RequirementTally[];
}

/** What one scenario asserted under one requirement id. `stoppedHere`: the scenario ended abnormally in this section. */
export interface RequirementTally {
  readonly id: string;
  readonly assertions: number;
  readonly failures: readonly string[];
  readonly stoppedHere?: true;
}

export type Discovery = Record<string, unknown>;

export interface Scenario {
  readonly id: string;
  readonly title: string;
  readonly rfc: string;
  /** Profile name used by OPENWOP_OPTED_OUT_PROFILES. */
  readonly profile: string;
  /** Gate on the advertisement: return a reason when the host does not advertise what this scenario tests. */
  readonly gate?: (d: Discovery) => string | undefined;
  run(t: ScenarioContext): Promise<void>;
}

class SkipSignal extends Error {
  // Fields declared, not parameter properties: `node generator/cli.ts certify` loads this file with type stripping.
  readonly skipClass: SkipClass;
  readonly reason: string;
  constructor(skipClass: SkipClass, reason: string) {
    super(reason);
    this.skipClass = skipClass;
    this.reason = reason;
  }
}
class SeamMissing extends Error {}

/** Message prefix of an assertion the suite itself got wrong (no requirement id, or an id the table does not give this scenario). */
export const SUITE_BUG = 'suite bug:';

export class ScenarioContext {
  assertions = 0;
  readonly failures: string[] = [];
  private readonly tallies = new Map<string, { assertions: number; failures: string[] }>();
  private current: string | undefined;
  readonly client: HttpClient;
  readonly discovery: Discovery;
  readonly config: SuiteConfig;
  readonly scenarioId: string;
  constructor(client: HttpClient, discovery: Discovery, config: SuiteConfig, scenarioId = '') {
    this.client = client;
    this.discovery = discovery;
    this.config = config;
    this.scenarioId = scenarioId;
  }

  /**
   * Open the section of one requirement: every assertion until the next `req` counts under `id`. The id must be a
   * row of conformance/requirements/ that lists this scenario among its witnesses.
   */
  req(id: string): this {
    const row = REQUIREMENTS.get(id);
    if (row === undefined) this.failures.push(`${SUITE_BUG} requirement ${id} is not in conformance/requirements/`);
    else if (!row.scenarios.includes(this.scenarioId)) this.failures.push(`${SUITE_BUG} requirement ${id} does not list scenario ${this.scenarioId} as a witness`);
    this.current = id;
    if (!this.tallies.has(id)) this.tallies.set(id, { assertions: 0, failures: [] });
    return this;
  }

  /** The requirement whose section is open (undefined before the first `req`). */
  get requirement(): string | undefined {
    return this.current;
  }

  /** Record one assertion under the open requirement. */
  check(ok: boolean, message: string): boolean {
    this.assertions++;
    const tally = this.current === undefined ? undefined : this.tallies.get(this.current);
    if (tally === undefined) {
      this.failures.push(`${SUITE_BUG} assertion without a requirement id: ${message}`);
      return ok;
    }
    tally.assertions++;
    if (!ok) {
      this.failures.push(message);
      tally.failures.push(message);
    }
    return ok;
  }

  /**
   * The per-requirement tallies. `stop` marks the open section when the scenario ended abnormally (a skip, a missing
   * seam, an error): that section was not completed, so it cannot pass; `stop.failure` also fails it.
   */
  requirementTallies(stop?: { readonly failure?: string }): RequirementTally[] {
    return [...this.tallies].map(([id, t]) => {
      if (stop === undefined || id !== this.current) return { id, assertions: t.assertions, failures: t.failures };
      return { id, assertions: t.assertions, failures: stop.failure === undefined ? t.failures : [...t.failures, stop.failure], stoppedHere: true as const };
    });
  }
  equal(actual: unknown, expected: unknown, message: string): boolean {
    return this.check(JSON.stringify(actual) === JSON.stringify(expected), `${message}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`.slice(0, 600));
  }
  skip(skipClass: SkipClass, reason: string): never {
    throw new SkipSignal(skipClass, reason);
  }
  /**
   * Call the host on a catalogue route (method and path are the catalogue's). The body is validated against the
   * route's response schema (schema failures count as failed assertions); `refusal: true` names no success schema,
   * for calls where a refusal is due. A 404, 405 or 501 from a seam means the host does not serve it (upstream
   * soft-skip on 404): the scenario stops — blocked, or failed in strict mode. Calls where a 404 is an expected
   * answer (an entity that must not be found) pass `{seam: false}`.
   */
  async call<T = Record<string, unknown>>(route: CatalogueRoute, request: TargetValues & { readonly body?: unknown }, opts: { seam?: boolean; refusal?: boolean } = {}): Promise<HttpResult<T>> {
    const { method } = route;
    const path = targetOf(route, request);
    const schema: SchemaValidator | undefined = opts.refusal === true ? undefined : validatorOf(route.response);
    const r = await this.client.request<T>(method, path, request.body, schema);
    if (opts.seam !== false && (r.status === 404 || r.status === 405 || r.status === 501)) {
      const why = isRouteMissing(r.body) ? 'is not served' : `answered ${r.status} ${String((r.body as { error?: unknown } | null)?.error ?? '')}`.trim();
      throw new SeamMissing(`${method} ${path.split('?')[0]} ${why}`);
    }
    this.check(r.schemaFailures.length === 0, `response does not match its schema: ${r.schemaFailures.slice(0, 3).join('; ')}`);
    // Every body is validated: a success without a named schema is a suite bug or an unexpected success (a refusal was due).
    if (r.status < 400 && schema === undefined) this.check(false, `${method} ${path.split('?')[0]} answered ${r.status} where the scenario named no success schema (a refusal was expected)`);
    return r;
  }
}

const isRouteMissing = (b: unknown) => typeof b === 'object' && b !== null && (b as { error?: string }).error === 'not_found' && /no route/i.test(String((b as { message?: string }).message ?? ''));

export const get = (o: unknown, path: string): unknown => path.split('.').reduce<unknown>((acc, k) => (typeof acc === 'object' && acc !== null ? (acc as Record<string, unknown>)[k] : undefined), o);

export async function runScenario(s: Scenario, client: HttpClient, discovery: Discovery, config: SuiteConfig): Promise<ScenarioResult> {
  const started = performance.now();
  const base = { id: s.id, title: s.title, rfc: s.rfc, profile: s.profile };
  const done = (r: Omit<ScenarioResult, 'id' | 'title' | 'rfc' | 'profile' | 'durationMs' | 'requirements'>, requirements: readonly RequirementTally[] = []): ScenarioResult => ({ ...base, ...r, durationMs: Math.round(performance.now() - started), requirements });
  if (config.optedOut.has(s.profile)) return done({ outcome: 'skip', skipClass: 'skipped', reason: `host opted out of profile ${s.profile}`, assertions: 0, failures: [] });
  const gateReason = s.gate?.(discovery);
  if (gateReason !== undefined) {
    return config.strict
      ? done({ outcome: 'fail', reason: `strict mode: ${gateReason}`, assertions: 0, failures: [gateReason] })
      : done({ outcome: 'skip', skipClass: 'inapplicable', reason: gateReason, assertions: 0, failures: [] });
  }
  const t = new ScenarioContext(client, discovery, config, s.id);
  try {
    await s.run(t);
  } catch (e) {
    if (e instanceof SkipSignal) return done({ outcome: 'skip', skipClass: e.skipClass, reason: e.reason, assertions: t.assertions, failures: t.failures }, t.requirementTallies({}));
    if (e instanceof SeamMissing) {
      return config.strict
        ? done({ outcome: 'fail', reason: `strict mode: ${e.message}`, assertions: t.assertions, failures: [...t.failures, e.message] }, t.requirementTallies({ failure: `strict mode: ${e.message}` }))
        : done({ outcome: 'skip', skipClass: 'blocked', reason: e.message, assertions: t.assertions, failures: t.failures }, t.requirementTallies({}));
    }
    const message = String((e as Error).message);
    return done({ outcome: 'fail', reason: `scenario error: ${message}`.slice(0, 500), assertions: t.assertions, failures: [...t.failures, message] }, t.requirementTallies({ failure: `scenario error: ${message}`.slice(0, 500) }));
  }
  const tallies = t.requirementTallies();
  if (t.failures.length > 0) return done({ outcome: 'fail', reason: t.failures[0]!, assertions: t.assertions, failures: t.failures }, tallies);
  if (t.assertions === 0) return done({ outcome: 'skip', skipClass: 'blocked', reason: 'the scenario asserted nothing', assertions: 0, failures: [] }, tallies);
  return done({ outcome: 'pass', assertions: t.assertions, failures: [] }, tallies);
}
