/**
 * Every route the reference host serves, as plain data with no imports: its kind, method, path, query parameters,
 * the schemas (by title) of the request body and of a successful answer, the least role a key needs, a one-line
 * summary, and the error statuses the route can answer besides the ones every route shares ({@link COMMON_ERRORS}).
 *
 * Two readers: the host (through seam-catalogue.ts, which types the schema titles against the generated validators
 * and adds the request-target helpers) and the generator's OpenAPI emitter (generator/emit/openapi.ts), which must
 * run on a cold clone before generated/ exists — hence no imports, not even a type.
 */

/** A parameter's JSON Schema and meaning: one name means one thing on every route that reads it. */
export interface ParameterSpec {
  /** Inline JSON Schema, or `{title}`: the corpus schema of that title (an enum the schemas already define). */
  readonly schema: { readonly type: 'string' | 'integer'; readonly minimum?: number; readonly maximum?: number; readonly minLength?: number; readonly maxLength?: number } | { readonly title: string };
  readonly description: string;
}

/**
 * Every path and query parameter a row names, by name. The OpenAPI document takes each parameter's schema from here;
 * a row that names a parameter missing from this table fails the route-table test.
 */
export const PARAMETERS = {
  runId: { schema: { type: 'string', minLength: 1 }, description: "A run's opaque id. Another tenant's run answers 404, as a run that does not exist." },
  nodeId: { schema: { type: 'string', minLength: 1 }, description: 'The node the run waits on (the snapshot\'s currentNodeId); the id of its open interrupt names it too.' },
  proposalId: { schema: { type: 'string', minLength: 1 }, description: "A proposal's id. Another tenant's proposal answers 404." },
  memoryRef: { schema: { type: 'string', minLength: 1 }, description: 'A memory scope: mem://<tenant>/<path>, or an opaque ref resolved inside the caller\'s tenant.' },
  fromSeq: { schema: { type: 'integer', minimum: 0, maximum: 9007199254740991 }, description: 'The first event sequence number to return (default 0).' },
  limit: { schema: { type: 'integer', minimum: 1, maximum: 1000 }, description: 'At most this many items in one page (default and most: 1000).' },
  cursor: { schema: { type: 'string', minLength: 1 }, description: 'Opaque position from the previous page\'s nextCursor; absent for the first page.' },
  tag: { schema: { type: 'string', minLength: 1 }, description: 'Only entries carrying this tag.' },
  tenant: { schema: { type: 'string', minLength: 1 }, description: 'The tenant the request acts for. A tenant key may name only its own; an operator key without it acts as tenant default.' },
  id: { schema: { type: 'string', minLength: 1 }, description: 'The id of one item inside the scope the other parameters name.' },
  state: { schema: { title: 'ProposalState' }, description: 'Only proposals in this lifecycle state.' },
  kind: { schema: { title: 'ProposalKind' }, description: 'Only proposals of this artefact kind.' },
  ref: { schema: { type: 'string', minLength: 1, maxLength: 512 }, description: 'An operator question\'s ref.' },
  traceRef: { schema: { type: 'string', minLength: 1 }, description: 'A trace stream\'s ref.' },
} as const satisfies Readonly<Record<string, ParameterSpec>>;

export type ParameterName = keyof typeof PARAMETERS;

/** An HTTP status the host answers with the error envelope. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 422 | 429 | 500 | 501 | 503;

/**
 * Error statuses every route shares, by what the route does: any request may carry a target the host cannot read (a
 * malformed percent escape, a path segment past the router's length, a repeated or malformed parameter: 400), time
 * out (408), meet a bound (429), a server fault (500), or a store that cannot take it now — a full disk, a lock not
 * granted in time, a host draining or retired — (503 with Retry-After); a route that needs a key answers 401 without
 * a valid one; a route that reads a body, or whose method carries one, answers 400 for malformed JSON or a schema
 * mismatch, 413 past the body limit and 415 for a content type other than JSON.
 */
export const COMMON_ERRORS = {
  always: [400, 408, 429, 500, 503],
  authenticated: [401],
  body: [400, 413, 415],
} as const satisfies Readonly<Record<string, readonly ErrorStatus[]>>;

/** One row, with schema titles as plain strings (seam-catalogue.ts checks them against the generated validators). */
export interface RouteRow {
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
  readonly query?: readonly ParameterName[];
  /** Schema title of the request body (absent: the route reads no body). */
  readonly request?: string;
  /** The body may be left out entirely (read as `{}`); default: a route with a request schema requires a body. */
  readonly bodyOptional?: true;
  /** Schema title of a successful answer. */
  readonly response: string;
  /** Other shapes a successful answer can take (e.g. one entry instead of a list). */
  readonly alsoResponds?: readonly string[];
  /** Status of a successful answer (default 200). */
  readonly status?: 201;
  /** Served without the Bearer token. */
  readonly public?: true;
  /**
   * Served with `Cache-Control: public, max-age=<maxAgeSeconds>`, a strong content-hash `ETag` and `304 Not
   * Modified` for a matching `If-None-Match` (routes/cached-document.ts).
   */
  readonly cached?: { readonly maxAgeSeconds: number };
  /**
   * The least role a key needs (runtime/host/auth.ts): `tenant` routes serve tenant keys, bound to the key's tenant
   * (auth-binding.ts); `operator` routes — the fixture seams that drive the runtime, and the Inquirium surface of
   * the node's operator — need an operator key.
   */
  readonly role: 'tenant' | 'operator';
  /** What the route does, in one line (the OpenAPI operation summary). */
  readonly summary: string;
  /** Error statuses this route answers besides {@link COMMON_ERRORS}, each for a reason its handler or binding has. */
  readonly errors: readonly ErrorStatus[];
}

const SAMPLE = '/v1/host/sample';

export const ROUTE_TABLE = {
  // ── Protocol ──────────────────────────────────────────────────────────────────────────────────────────────
  discovery: { kind: 'protocol', method: 'GET', path: '/.well-known/openwop', response: 'Capabilities', public: true, cached: { maxAgeSeconds: 60 }, role: 'tenant', summary: 'The discovery document: capability families at the root, mirrored under capabilities.', errors: [] },
  liveness: { kind: 'health', method: 'GET', path: '/livez', response: 'HostHealth', public: true, role: 'tenant', summary: 'Whether the process serves at all (content-free, no key).', errors: [] },
  readiness: { kind: 'health', method: 'GET', path: '/readyz', response: 'HostHealth', public: true, role: 'tenant', summary: 'Whether the host may take requests now: 503 with Retry-After while its store cannot write, it drains, or its credentials were retired.', errors: [] },
  openapi: { kind: 'protocol', method: 'GET', path: '/v1/openapi.json', response: 'OpenApiDocument', public: true, cached: { maxAgeSeconds: 3600 }, role: 'tenant', summary: 'This OpenAPI 3.1 document, generated from the route table and the schemas.', errors: [] },
  runStart: { kind: 'protocol', method: 'POST', path: '/v1/runs', request: 'RunStartRequest', response: 'RunStartResponse', status: 201, role: 'tenant', summary: 'Start a run of a seeded fixture workflow as the caller\'s tenant (or, for an operator key, the tenantId named).', errors: [403, 404] },
  runRead: { kind: 'protocol', method: 'GET', path: '/v1/runs/{runId}', response: 'RunSnapshot', role: 'tenant', summary: "A run's snapshot: status, variables, error, open interrupt.", errors: [404] },
  runEvents: { kind: 'protocol', method: 'GET', path: '/v1/runs/{runId}/events', query: ['fromSeq', 'limit'], response: 'RunEventsResponse', role: 'tenant', summary: "A page of a run's event log from fromSeq on; nextSeq and hasMore say where the next page starts.", errors: [400, 404] },
  runInterruptResolve: { kind: 'protocol', method: 'POST', path: '/v1/runs/{runId}/interrupts/{nodeId}', request: 'RunInterruptResolveRequest', response: 'RunSnapshot', role: 'tenant', summary: 'Answer the node a run waits on, with an action that node takes; one answer wins.', errors: [404, 409] },
  runFork: { kind: 'protocol', method: 'POST', path: '/v1/runs/{runId}:fork', request: 'RunForkRequest', response: 'RunForkResponse', status: 201, role: 'tenant', summary: 'Fork a run at fromSeq, reading memory as of that point; a fork of a workflow run executes (replay re-emits what its source recorded, branch does it anew).', errors: [404, 422] },
  runMemory: { kind: 'protocol', method: 'GET', path: '/v1/runs/{runId}/memory', query: ['memoryRef', 'id', 'limit', 'tag', 'cursor'], response: 'MemoryEntry', alsoResponds: ['HostSampleMemoryEntriesResponse'], role: 'tenant', summary: 'Memory as a run reads it (a fork reads its snapshot): one entry, or the scope\'s entries.', errors: [400, 403, 404] },
  memoryList: { kind: 'protocol', method: 'GET', path: '/v1/memory/{memoryRef}', query: ['limit', 'cursor', 'tag'], response: 'HostSampleMemoryEntriesResponse', role: 'tenant', summary: "A page of a memory scope's entries as the caller's tenant reads them, newest first; nextCursor continues it (400 invalid_cursor for a cursor of another scope).", errors: [400, 403] },
  inquiriumGenerate: { kind: 'protocol', method: 'POST', path: '/v1/host/capabilities/inquirium.generate', request: 'InquiriumGenerateRequest', response: 'InquiriumGenerateResponse', role: 'operator', summary: 'Inquirium generate on local runtimes only.', errors: [403, 501] },
  inquiriumRespond: { kind: 'protocol', method: 'POST', path: '/v1/host/capabilities/inquirium.operator-question.respond', request: 'InquiriumOperatorQuestionAnswer', response: 'InquiriumOperatorQuestionState', role: 'operator', summary: 'Answer a pending operator question.', errors: [403, 404, 409, 501] },
  agents: { kind: 'protocol', method: 'GET', path: '/v1/agents', query: ['tenant'], response: 'AgentInventoryResponse', role: 'tenant', summary: "The tenant's agent inventory with the RFC 0080 degraded-memory projection.", errors: [403] },
  // ── Memory seams ──────────────────────────────────────────────────────────────────────────────────────────
  consolidate: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/consolidate`, request: 'HostSampleConsolidateRequest', response: 'HostSampleConsolidateResponse', role: 'operator', summary: 'Consolidate a memory scope (seeds a fixture corpus when it is empty).', errors: [403, 422, 501] },
  commitmentFire: { kind: 'seam', method: 'POST', path: `${SAMPLE}/commitment/fire`, request: 'HostSampleCommitmentFireRequest', response: 'HostSampleCommitmentFireResponse', role: 'operator', summary: 'Infer a commitment, satisfy its condition and evaluate it three times.', errors: [403, 501] },
  memorySeed: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/seed`, request: 'HostSampleMemorySeedRequest', response: 'HostSampleMemorySeedResponse', role: 'operator', summary: 'Write entries into a scope through SR-1.', errors: [403, 409] },
  memoryEntries: { kind: 'seam', method: 'GET', path: `${SAMPLE}/memory/entries`, query: ['tenant', 'memoryRef', 'tag', 'limit', 'cursor'], response: 'HostSampleMemoryEntriesResponse', role: 'tenant', summary: "A scope's entries as that tenant's adapter lists them.", errors: [400, 403] },
  memoryEntry: { kind: 'seam', method: 'GET', path: `${SAMPLE}/memory/entry`, query: ['tenant', 'memoryRef', 'id'], response: 'MemoryEntry', role: 'tenant', summary: 'One memory entry.', errors: [400, 403, 404] },
  memoryRedaction: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/redaction`, request: 'HostSampleMemoryRedactionRequest', response: 'HostSampleMemoryRedactionResponse', role: 'operator', summary: 'Write a BYOK secret resolved in a run in plaintext (stored redacted).', errors: [403] },
  memoryCompact: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/compact`, request: 'HostSampleMemoryCompactRequest', response: 'HostSampleMemoryCompactResponse', role: 'operator', summary: 'Client-requested RFC 0012 compaction.', errors: [403, 422, 501] },
  memoryDistill: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/distill`, request: 'HostSampleMemoryDistillRequest', response: 'HostSampleMemoryDistillResponse', role: 'operator', summary: 'Distil a scope into an archive and MEMORY-INDEX within a token budget.', errors: [403, 422, 501] },
  distillSchedule: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/distill-schedule`, request: 'HostSampleDistillScheduleRequest', response: 'HostSampleDistillScheduleResponse', status: 201, role: 'operator', summary: 'Schedule a recurring distillation.', errors: [403, 501] },
  distillScheduleRead: { kind: 'seam', method: 'GET', path: `${SAMPLE}/memory/distill-schedule`, query: ['id', 'tenant'], response: 'HostSampleDistillScheduleResponse', role: 'operator', summary: 'A distillation schedule with its last outcome.', errors: [400, 403, 404, 501] },
  distillScheduleTick: { kind: 'seam', method: 'POST', path: `${SAMPLE}/memory/distill-schedule/tick`, request: 'HostSampleDistillScheduleTickRequest', response: 'HostSampleDistillScheduleTickResponse', role: 'operator', summary: 'Run every due distillation schedule now.', errors: [403, 501] },
  // ── Seams at upstream's paths ─────────────────────────────────────────────────────────────────────────────
  testMemorySeed: { kind: 'upstream-seam', method: 'POST', path: '/v1/test/memory/seed', request: 'TestMemorySeedRequest', response: 'TestMemorySeedResponse', status: 201, role: 'operator', summary: "Upstream's seed seam: entries with caller-chosen ids.", errors: [403, 409] },
  testMemoryCompact: { kind: 'upstream-seam', method: 'POST', path: '/v1/test/memory/compact', request: 'TestMemoryCompactRequest', response: 'TestMemoryCompactResponse', role: 'operator', summary: "Upstream's compaction seam.", errors: [403, 422, 501] },
  // ── Proposals (RFC 0096): the review surface of a tenant, a host extension until the RFC graduates ────────
  proposals: { kind: 'seam', method: 'GET', path: `${SAMPLE}/proposals`, query: ['tenant', 'state', 'kind'], response: 'ProposalListResponse', role: 'tenant', summary: "The tenant's proposals, oldest first, filtered.", errors: [400, 403] },
  proposal: { kind: 'seam', method: 'GET', path: `${SAMPLE}/proposals/{proposalId}`, response: 'Proposal', role: 'tenant', summary: 'One proposal with its inert artefact.', errors: [404] },
  proposalRevise: { kind: 'seam', method: 'PATCH', path: `${SAMPLE}/proposals/{proposalId}`, request: 'ProposalReviseRequest', response: 'Proposal', role: 'tenant', summary: 'Revise a proposal; never installs.', errors: [404, 409] },
  proposalArchive: { kind: 'seam', method: 'DELETE', path: `${SAMPLE}/proposals/{proposalId}`, response: 'Proposal', role: 'tenant', summary: 'Archive a proposal (soft delete).', errors: [404, 409] },
  proposalApply: { kind: 'seam', method: 'POST', path: `${SAMPLE}/proposals/{proposalId}/apply`, response: 'ProposalApplyResponse', role: 'tenant', summary: 'Apply: open an approval gate, or install under direct-rbac when the key holds the scope.', errors: [403, 404, 409] },
  proposalReject: { kind: 'seam', method: 'POST', path: `${SAMPLE}/proposals/{proposalId}/reject`, response: 'Proposal', role: 'tenant', summary: 'Reject a proposal.', errors: [404, 409] },
  proposalInstalled: { kind: 'seam', method: 'GET', path: `${SAMPLE}/proposals/{proposalId}/installed`, response: 'ProposalInstalledArtifactResponse', role: 'tenant', summary: 'The artefact as installed; 404 until applied.', errors: [404] },
  proposalSynthesize: { kind: 'seam', method: 'POST', path: `${SAMPLE}/proposals/synthesize`, request: 'HostSampleProposalSynthesizeRequest', response: 'HostSampleProposalSynthesizeResponse', status: 201, role: 'operator', summary: 'Synthesise an inert draft proposal.', errors: [403, 501] },
  proposalGateDecide: { kind: 'seam', method: 'POST', path: `${SAMPLE}/proposals/gates/decide`, request: 'HostSampleProposalGateDecisionRequest', response: 'ProposalApplyResponse', role: 'operator', summary: 'Decide an approval gate.', errors: [403, 404, 409] },
  // ── Multi-agent seams ─────────────────────────────────────────────────────────────────────────────────────
  escalationRun: { kind: 'seam', method: 'POST', path: `${SAMPLE}/multi-agent/escalation-run`, request: 'HostSampleEscalationRunRequest', response: 'HostSampleEscalationRunResponse', role: 'operator', summary: 'One supervisor step at a given confidence.', errors: [403, 501] },
  crossRunTtl: { kind: 'seam', method: 'POST', path: `${SAMPLE}/multi-agent/cross-run-ttl`, request: 'HostSampleCrossRunTtlRequest', response: 'HostSampleCrossRunTtlResponse', role: 'operator', summary: 'A child run writes with a TTL; the parent reads it.', errors: [403, 501] },
  replayFixture: { kind: 'seam', method: 'POST', path: `${SAMPLE}/multi-agent/replay-fixture`, request: 'HostSampleReplayFixtureRequest', bodyOptional: true, response: 'HostSampleReplayFixtureResponse', role: 'operator', summary: 'A run whose memory changed after a known sequence number.', errors: [403, 501] },
  // ── Inquirium seams ───────────────────────────────────────────────────────────────────────────────────────
  generateRemoteOnly: { kind: 'seam', method: 'POST', path: `${SAMPLE}/inquirium/generate-remote-only`, request: 'InquiriumGenerateRequest', response: 'InquiriumGenerateResponse', role: 'operator', summary: 'Generate against a host whose only runtime is remote.', errors: [403, 501] },
  questionPropose: { kind: 'seam', method: 'POST', path: `${SAMPLE}/inquirium/questions`, request: 'InquiriumOperatorQuestionRequest', response: 'InquiriumOperatorQuestionState', status: 201, role: 'operator', summary: 'Propose an operator question.', errors: [403, 501] },
  questionRead: { kind: 'seam', method: 'GET', path: `${SAMPLE}/inquirium/questions`, query: ['ref'], response: 'InquiriumOperatorQuestionState', role: 'operator', summary: 'Read an operator question.', errors: [400, 403, 404, 501] },
  questionCancel: { kind: 'seam', method: 'POST', path: `${SAMPLE}/inquirium/questions/cancel`, request: 'HostSampleQuestionCancelRequest', response: 'InquiriumOperatorQuestionState', role: 'operator', summary: 'Cancel an operator question.', errors: [403, 404, 409, 501] },
  traces: { kind: 'seam', method: 'GET', path: `${SAMPLE}/inquirium/traces`, query: ['traceRef'], response: 'HostSampleInquiriumTracesResponse', role: 'operator', summary: 'Records of a trace stream, without content.', errors: [400, 403, 501] },
} as const satisfies Readonly<Record<string, RouteRow>>;

/** The error statuses a route can answer: its own and the ones it shares with every route of its kind, sorted. */
export function errorStatusesOf(row: RouteRow): ErrorStatus[] {
  const all = new Set<ErrorStatus>([...COMMON_ERRORS.always, ...row.errors]);
  if (row.public !== true) for (const s of COMMON_ERRORS.authenticated) all.add(s);
  if (row.request !== undefined || row.method !== 'GET') for (const s of COMMON_ERRORS.body) all.add(s);
  return [...all].sort((a, b) => a - b);
}

/** The `{name}` path parameters of a path, in order. */
export function pathParametersOf(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);
}
