/**
 * Every route the reference host serves, written once: its kind, method, path, query parameters, and the schemas
 * (by title) of the request body and of a successful answer. The route registration (runtime/host/), the
 * conformance suite (conformance/), the tests and the docs/host.md table all read these rows; no other module
 * spells a path.
 *
 * Pure data plus the generated validators it names: no Fastify, no runtime. The conformance suite imports it and
 * stays usable against any host over HTTP.
 */
import { validatorIndex, type Validator } from '../../generated/validators/validators.js';

/** A schema title of the corpus: the name of a generated type and of its validator (`validate<Title>`). */
export type SchemaTitle = keyof typeof validatorIndex;
/** The generated type a schema title names. */
export type ShapeOf<S extends SchemaTitle> = (typeof validatorIndex)[S]['validator'] extends Validator<infer T> ? T : never;

export interface CatalogueRoute {
  /**
   * `protocol`: an OpenWOP / P066 route a client uses. `seam`: a test fixture under /v1/host/sample/ that drives the
   * runtime. `upstream-seam`: a test seam at the path upstream OpenWOP's conformance suite calls (/v1/test/…).
   * `health`: what a supervisor or a load balancer asks (is the process alive, may it take requests).
   */
  readonly kind: 'protocol' | 'seam' | 'upstream-seam' | 'health';
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /**
   * The path, with `{name}` for a path parameter. A last segment `{name}:action` is an action on a resource (the
   * parameter is matched whole, and the handler checks the action).
   */
  readonly path: string;
  /** Query parameters the route reads, in the order the docs list them. */
  readonly query?: readonly string[];
  /** Schema of the request body (absent: the route reads no body). */
  readonly request?: SchemaTitle;
  /** Schema of a successful answer. */
  readonly response: SchemaTitle;
  /** Other shapes a successful answer can take (e.g. one entry instead of a list). */
  readonly alsoResponds?: readonly SchemaTitle[];
  /** Status of a successful answer (default 200). */
  readonly status?: 201;
  /** Served without the Bearer token. */
  readonly public?: true;
  /**
   * The least role a key needs (runtime/host/auth.ts): `tenant` routes serve tenant keys, bound to the key's tenant
   * (auth-binding.ts); `operator` routes — the fixture seams that drive the runtime, and the Inquirium surface of
   * the node's operator — need an operator key.
   */
  readonly role: 'tenant' | 'operator';
}

const SAMPLE = '/v1/host/sample';

export const ROUTES = {
  // ── Protocol ──────────────────────────────────────────────────────────────────────────────────────────────
  discovery: { kind: 'protocol', method: 'GET', path: '/.well-known/openwop', response: 'Capabilities', public: true, role: 'tenant' },
  liveness: { kind: 'health', method: 'GET', path: '/livez', response: 'HostHealth', public: true, role: 'tenant' },
  readiness: { kind: 'health', method: 'GET', path: '/readyz', response: 'HostHealth', public: true, role: 'tenant' },
  runStart: { kind: 'protocol', method: 'POST', path: '/v1/runs', request: 'RunStartRequest', response: 'RunStartResponse', status: 201, role: 'tenant' },
  runRead: { kind: 'protocol', method: 'GET', path: '/v1/runs/{runId}', response: 'RunSnapshot', role: 'tenant' },
  runEvents: { kind: 'protocol', method: 'GET', path: '/v1/runs/{runId}/events', query: ['fromSeq', 'limit'], response: 'RunEventsResponse', role: 'tenant' },
  runInterruptResolve: { kind: 'protocol', method: 'POST', path: '/v1/runs/{runId}/interrupts/{nodeId}', request: 'RunInterruptResolveRequest', response: 'RunSnapshot', role: 'tenant' },
  runFork: { kind: 'protocol', method: 'POST', path: '/v1/runs/{runId}:fork', request: 'RunForkRequest', response: 'RunForkResponse', status: 201, role: 'tenant' },
  runMemory: { kind: 'protocol', method: 'GET', path: '/v1/runs/{runId}/memory', query: ['memoryRef', 'id', 'limit', 'tag', 'cursor'], response: 'MemoryEntry', alsoResponds: ['HostSampleMemoryEntriesResponse'], role: 'tenant' },
  memoryList: { kind: 'protocol', method: 'GET', path: '/v1/memory/{memoryRef}', query: ['limit', 'tag', 'cursor'], response: 'HostSampleMemoryEntriesResponse', role: 'tenant' },
  inquiriumGenerate: { kind: 'protocol', method: 'POST', path: '/v1/host/capabilities/inquirium.generate', request: 'InquiriumGenerateRequest', response: 'InquiriumGenerateResponse', role: 'operator' },
  inquiriumRespond: { kind: 'protocol', method: 'POST', path: '/v1/host/capabilities/inquirium.operator-question.respond', request: 'InquiriumOperatorQuestionAnswer', response: 'InquiriumOperatorQuestionState', role: 'operator' },
  agents: { kind: 'protocol', method: 'GET', path: '/v1/agents', query: ['tenant'], response: 'AgentInventoryResponse', role: 'tenant' },
  // ── Memory seams ──────────────────────────────────────────────────────────────────────────────────────────
  consolidate: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/consolidate`, request: 'HostSampleConsolidateRequest', response: 'HostSampleConsolidateResponse', role: 'operator' },
  commitmentFire: { kind: 'seam', method: 'POST', path: `${SAMPLE}/commitment/fire`, request: 'HostSampleCommitmentFireRequest', response: 'HostSampleCommitmentFireResponse', role: 'operator' },
  memorySeed: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/seed`, request: 'HostSampleMemorySeedRequest', response: 'HostSampleMemorySeedResponse', role: 'operator' },
  memoryEntries: { kind: 'seam', method: 'GET', path: `${SAMPLE}/memory/entries`, query: ['tenant', 'memoryRef', 'tag', 'limit', 'cursor'], response: 'HostSampleMemoryEntriesResponse', role: 'tenant' },
  memoryEntry: { kind: 'seam', method: 'GET', path: `${SAMPLE}/memory/entry`, query: ['tenant', 'memoryRef', 'id'], response: 'MemoryEntry', role: 'tenant' },
  memoryRedaction: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/redaction`, request: 'HostSampleMemoryRedactionRequest', response: 'HostSampleMemoryRedactionResponse', role: 'operator' },
  memoryCompact: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/compact`, request: 'HostSampleMemoryCompactRequest', response: 'HostSampleMemoryCompactResponse', role: 'operator' },
  memoryDistill: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/distill`, request: 'HostSampleMemoryDistillRequest', response: 'HostSampleMemoryDistillResponse', role: 'operator' },
  distillSchedule: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/distill-schedule`, request: 'HostSampleDistillScheduleRequest', response: 'HostSampleDistillScheduleResponse', status: 201, role: 'operator' },
  distillScheduleRead: { kind: 'seam', method: 'GET', path: `${SAMPLE}/memory/distill-schedule`, query: ['id', 'tenant'], response: 'HostSampleDistillScheduleResponse', role: 'operator' },
  distillScheduleTick: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/distill-schedule/tick`, request: 'HostSampleDistillScheduleTickRequest', response: 'HostSampleDistillScheduleTickResponse', role: 'operator' },
  // ── Seams at upstream's paths ─────────────────────────────────────────────────────────────────────────────
  testMemorySeed: { kind: 'upstream-seam', method: 'POST', path: '/v1/test/memory/seed', request: 'TestMemorySeedRequest', response: 'TestMemorySeedResponse', status: 201, role: 'operator' },
  testMemoryCompact: { kind: 'upstream-seam', method: 'POST', path: '/v1/test/memory/compact', request: 'TestMemoryCompactRequest', response: 'TestMemoryCompactResponse', role: 'operator' },
  // ── Proposals (RFC 0096): the review surface of a tenant, a host extension until the RFC graduates ────────
  proposals: { kind: 'seam', method: 'GET', path: `${SAMPLE}/proposals`, query: ['tenant', 'state', 'kind'], response: 'ProposalListResponse', role: 'tenant' },
  proposal: { kind: 'seam', method: 'GET', path: `${SAMPLE}/proposals/{proposalId}`, response: 'Proposal', role: 'tenant' },
  proposalRevise: { kind: 'seam', method: 'PATCH', path: `${SAMPLE}/proposals/{proposalId}`, request: 'ProposalReviseRequest', response: 'Proposal', role: 'tenant' },
  proposalArchive: { kind: 'seam', method: 'DELETE', path: `${SAMPLE}/proposals/{proposalId}`, response: 'Proposal', role: 'tenant' },
  proposalApply: { kind: 'seam', method: 'POST', path: `${SAMPLE}/proposals/{proposalId}/apply`, response: 'ProposalApplyResponse', role: 'tenant' },
  proposalReject: { kind: 'seam', method: 'POST', path: `${SAMPLE}/proposals/{proposalId}/reject`, response: 'Proposal', role: 'tenant' },
  proposalInstalled: { kind: 'seam', method: 'GET', path: `${SAMPLE}/proposals/{proposalId}/installed`, response: 'ProposalInstalledArtifactResponse', role: 'tenant' },
  proposalSynthesize: { kind: 'seam', method: 'POST', path: `${SAMPLE}/proposals/synthesize`, request: 'HostSampleProposalSynthesizeRequest', response: 'HostSampleProposalSynthesizeResponse', status: 201, role: 'operator' },
  proposalGateDecide: { kind: 'seam', method: 'POST', path: `${SAMPLE}/proposals/gates/decide`, request: 'HostSampleProposalGateDecisionRequest', response: 'ProposalApplyResponse', role: 'operator' },
  // ── Multi-agent seams ─────────────────────────────────────────────────────────────────────────────────────
  escalationRun: { kind: 'seam', method: 'POST', path: `${SAMPLE}/multi-agent/escalation-run`, request: 'HostSampleEscalationRunRequest', response: 'HostSampleEscalationRunResponse', role: 'operator' },
  crossRunTtl: { kind: 'seam', method: 'POST', path: `${SAMPLE}/multi-agent/cross-run-ttl`, request: 'HostSampleCrossRunTtlRequest', response: 'HostSampleCrossRunTtlResponse', role: 'operator' },
  replayFixture: { kind: 'seam', method: 'POST', path: `${SAMPLE}/multi-agent/replay-fixture`, request: 'HostSampleReplayFixtureRequest', response: 'HostSampleReplayFixtureResponse', role: 'operator' },
  // ── Inquirium seams ───────────────────────────────────────────────────────────────────────────────────────
  generateRemoteOnly: { kind: 'seam', method: 'POST', path: `${SAMPLE}/inquirium/generate-remote-only`, request: 'InquiriumGenerateRequest', response: 'InquiriumGenerateResponse', role: 'operator' },
  questionPropose: { kind: 'seam', method: 'POST', path: `${SAMPLE}/inquirium/questions`, request: 'InquiriumOperatorQuestionRequest', response: 'InquiriumOperatorQuestionState', status: 201, role: 'operator' },
  questionRead: { kind: 'seam', method: 'GET', path: `${SAMPLE}/inquirium/questions`, query: ['ref'], response: 'InquiriumOperatorQuestionState', role: 'operator' },
  questionCancel: { kind: 'seam', method: 'POST', path: `${SAMPLE}/inquirium/questions/cancel`, request: 'HostSampleQuestionCancelRequest', response: 'InquiriumOperatorQuestionState', role: 'operator' },
  traces: { kind: 'seam', method: 'GET', path: `${SAMPLE}/inquirium/traces`, query: ['traceRef'], response: 'HostSampleInquiriumTracesResponse', role: 'operator' },
} as const satisfies Record<string, CatalogueRoute>;

export type RouteName = keyof typeof ROUTES;
export type Route = (typeof ROUTES)[RouteName];

/** Names of the `{name}` parameters in a path. */
export type PathParams<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | PathParams<Rest> : never;
/** Names of a route's query parameters. */
export type QueryParams<R extends CatalogueRoute> = R extends { readonly query: readonly (infer Q)[] } ? Q & string : never;
/** The generated type of a route's request body. */
export type RequestOf<R extends CatalogueRoute> = R extends { readonly request: infer S extends SchemaTitle } ? ShapeOf<S> : never;

/** The generated validator a schema title names. */
export function validatorOf<S extends SchemaTitle>(title: S): (typeof validatorIndex)[S]['validator'] {
  return validatorIndex[title].validator;
}

/** The action of a path whose last segment is `{name}:action` (`fork` for `/v1/runs/{runId}:fork`), else undefined. */
export function actionOf(route: CatalogueRoute): string | undefined {
  return /\{[A-Za-z]+\}:([A-Za-z]+)$/.exec(route.path)?.[1];
}

/** Where a request goes: the path parameters (required when the path has any) and the query parameters that are set. */
export type Target<R extends CatalogueRoute> = ([PathParams<R['path']>] extends [never] ? { readonly params?: undefined } : { readonly params: { readonly [K in PathParams<R['path']>]: string } })
  & { readonly query?: { readonly [K in QueryParams<R>]?: string | number | undefined } };

/** Path and query values of a request, checked against the route when the target is built (urlOf also checks their names at compile time). */
export interface TargetValues {
  readonly params?: Readonly<Record<string, string>> | undefined;
  readonly query?: Readonly<Record<string, string | number | undefined>> | undefined;
}

/**
 * The request target of a route: each `{name}` filled with its URI-encoded value, then the query parameters that
 * are set, URI-encoded, in the order given (`?a=1&b=x`).
 */
export function targetOf(route: CatalogueRoute, { params = {}, query = {} }: TargetValues = {}): string {
  const undeclared = Object.keys(query).filter((k) => !(route.query ?? []).includes(k));
  if (undeclared.length > 0) throw new RangeError(`${route.method} ${route.path} reads no query parameter ${undeclared.join(', ')}`);
  const path = route.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new RangeError(`${route.method} ${route.path} needs the path parameter ${name}`);
    return encodeURIComponent(params[name]);
  });
  const q = Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return q.length === 0 ? path : `${path}?${q.join('&')}`;
}

/** `targetOf`, with the parameter names checked against the route (path parameters required when it has any). */
export function urlOf<R extends CatalogueRoute>(route: R, ...[target]: [PathParams<R['path']>] extends [never] ? [Target<R>?] : [Target<R>]): string {
  return targetOf(route, target);
}
