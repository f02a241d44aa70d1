/**
 * Emitter: `generated/openapi/openapi.json` — the reference host's OpenAPI 3.1 document, built from the route tables
 * (`schemas/<family>/v1/routes.json`, read by the load stage: route-table.ts) and the corpus: one operation per row with its path and query parameters,
 * request body, success answer and every error status the row can answer (each with the error envelope), the Bearer
 * scheme (`security: []` on the public rows), and `components/schemas` holding every schema the operations reach,
 * each `$ref` rewritten to `#/components/schemas/<Title>` so the document refers to nothing outside itself.
 *
 * It passes Spectral's `spectral:oas` and Redocly's `recommended` rulesets as they are, with no finding (issue 36
 * part 6; scripts/openapi-lint.ts, test/interop/openapi-lint.test.ts): every operation has a description written from
 * its row (who may call it, its body, its answers and error statuses), a tag described in TAGS, and its path
 * parameters (the OPTIONS operation too); `info` names a contact and the licence; one relative server (the host
 * serving the document).
 *
 * The host serves this file as it is (GET /v1/openapi.json), so its ETag, a hash of these bytes, is the same on
 * every host of one version.
 */
import type { EmittedFile, Json, JsonObject, SchemaFile } from '../model.ts';
import { isObject, type Resolved, type TypeInfo } from '../resolve.ts';
import { GENERATED } from '../naming.ts';
import { CorpusError } from '../errors.ts';
import { errorStatusesOf, mergeRouteTables, pathParametersOf, type ErrorStatus, type ParameterSpec, type RouteRow, type RouteTable } from '../route-table.ts';

/** The schema title of the error envelope every error status answers with. */
export const ERROR_ENVELOPE = 'ErrorEnvelope';
const SECURITY_SCHEME = 'bearerAuth';

/** What each error status means on this host (the response description). */
const ERROR_MEANING: Readonly<Record<ErrorStatus, string>> = {
  400: 'The request is malformed: invalid JSON, a body or parameter that does not match its schema (validation_failed names the pointers), a cursor minted for another list (invalid_cursor), or a refusal the client can fix (bad_request).',
  401: 'No Bearer token, or one the host does not know (unauthorized).',
  403: "The key may not do this: a tenant key on an operator route, or an input naming another tenant's resource (forbidden).",
  404: "No such resource, or one of another tenant (not_found; interrupt_not_found for an interrupt the run does not have open).",
  408: 'The request did not arrive in time (request_timeout).',
  409: 'The resource is not in a state that allows this (conflict; interrupt_already_resolved when another answer won; secret_registry_unavailable when the run\'s SR-1 registry is gone).',
  413: 'The body is larger than the host accepts (payload_too_large).',
  415: 'The body is not JSON (unsupported_media_type).',
  422: 'Understood but not servable: replay_memory_snapshot_unavailable, token_budget_exceeded, compaction_redaction_failed or fork_point_invalid, with content-free details.',
  429: 'A per-tenant bound was reached (quota_exceeded, with the resource and its limit).',
  500: 'A server fault (internal_error); the message names nothing internal.',
  501: 'This host was built without the module the route needs (capability_not_provided).',
  503: 'The host cannot take the request now — its store cannot write (a full disk), a lock was not granted in time, it is draining before a stop, or its credentials were retired (runner_unavailable); Retry-After says when to try again.',
};

/** The operation tags: one per route kind, and `http` for the OPTIONS operation every path has. */
const TAGS: Readonly<Record<RouteRow['kind'] | 'http', string>> = {
  health: 'Liveness and readiness probes for supervisors and load balancers: content-free, no key.',
  http: 'What every path answers by HTTP itself: OPTIONS with Allow.',
  protocol: 'OpenWOP and P066 routes a client uses.',
  seam: 'Test fixtures under /v1/host/sample/ that drive the runtime.',
  'upstream-seam': "Test seams at the paths upstream OpenWOP's conformance suite calls.",
};

/** Who may call a row, by its least role (`public` rows need no key at all). */
const ACCESS: Readonly<Record<RouteRow['role'] | 'public', string>> = {
  public: 'Needs no key.',
  tenant: 'Needs an API key: a tenant key acts for its own tenant, an operator key for the tenant the request names (tenant default when it names none).',
  operator: 'Needs an operator key; a tenant key is refused.',
};

/**
 * The `info` object besides title and description: who answers for the document (the repository named by
 * package.json `repository`, test/interop/openapi-lint.test.ts compares them) and its licence.
 */
export const INFO_CONTACT = { name: 'wopkit', url: 'https://github.com/wopkit/wopkit' } as const;

/**
 * One server, relative: the host that serves this document (GET /v1/openapi.json) is the one its paths belong to,
 * wherever it listens (a relative server URL resolves against the document's own URL, OpenAPI 3.1 §4.8.5).
 */
const SERVERS = [{ url: '/', description: 'The host serving this document: every path is relative to its origin (npm start listens on http://127.0.0.1:8787 by default).' }];

/** Schema keywords the corpus uses for its own bookkeeping, left out of the document. */
const CORPUS_KEYWORDS = new Set(['$schema', '$id', '$defs', 'x-direction', 'x-source', 'x-runtime-rules', 'x-type-index']);

const componentRef = (title: string): JsonObject => ({ $ref: `#/components/schemas/${title}` });

/** Builds `components/schemas` on demand: each titled type once, its `$ref`s rewritten to components. */
class Components {
  readonly schemas = new Map<string, Json>();
  readonly #r: Resolved;

  constructor(r: Resolved) {
    this.#r = r;
  }

  /** A `$ref` to the component of `title`, adding it (and everything it reaches) when first named. */
  refTo(title: string, where: string): JsonObject {
    const t = this.#r.typeByTitle(title);
    if (t === undefined) throw new CorpusError(`the route table names schema title "${title}", which no schema defines`, 'schemas/*/v1/routes.json', where);
    this.#add(t);
    return componentRef(title);
  }

  #add(t: TypeInfo): void {
    if (this.schemas.has(t.title)) return;
    this.schemas.set(t.title, {}); // placeholder first: a type that reaches itself refers to its own component
    this.schemas.set(t.title, this.#copy(t.schema, t.file, t.pointer, 0));
  }

  /**
   * A copy of `node` (at `pointer` in `file`) without corpus keywords, each `$ref` to a titled type pointing at its
   * component; a `$ref` to an untitled node (a helper inside `$defs`) is replaced by a copy of that node, merged with
   * the keywords beside the `$ref`. `depth` counts those inlinings, which stop a cycle of untitled nodes.
   */
  #copy(node: Json, file: SchemaFile, pointer: string, depth: number): Json {
    if (Array.isArray(node)) return node.map((v, i) => this.#copy(v, file, `${pointer}/${i}`, depth));
    if (!isObject(node)) return node;
    let out: JsonObject = {};
    for (const [k, v] of Object.entries(node)) {
      if (CORPUS_KEYWORDS.has(k)) continue;
      if (k === '$ref' && typeof v === 'string') {
        const target = this.#r.resolve(file, v, pointer);
        const entry = this.#r.entryAt(target.file, target.pointer);
        if (entry !== undefined && entry.title !== '' && entry.isType) {
          this.#add(entry);
          out.$ref = `#/components/schemas/${entry.title}`;
        } else {
          if (depth > 16) throw new CorpusError(`$ref "${v}" starts a cycle of untitled schemas`, file.path, `${pointer}/$ref`);
          const inlined = this.#copy(target.node, target.file, target.pointer, depth + 1);
          out = { ...(isObject(inlined) ? inlined : {}), ...out };
        }
        continue;
      }
      // `const`, `enum`, `default` and `examples` hold instances, not schemas: copied as they are.
      out[k] = k === 'const' || k === 'enum' || k === 'default' || k === 'examples' ? v : this.#copy(v, file, `${pointer}/${k}`, depth);
    }
    return out;
  }
}

function parameterSchema(spec: ParameterSpec, components: Components, where: string): JsonObject {
  return 'title' in spec.schema ? components.refTo(spec.schema.title, where) : { ...spec.schema };
}

function parameter(table: RouteTable, name: string, where: 'path' | 'query' | 'header', components: Components, at: string): JsonObject {
  const spec: ParameterSpec | undefined = table.parameters[name];
  if (spec === undefined) throw new CorpusError(`parameter "${name}" is not in the route table's parameters`, 'schemas/*/v1/routes.json', at);
  return { name, in: where, required: where === 'path', description: spec.description, schema: parameterSchema(spec, components, at) };
}

const json = (schema: JsonObject): JsonObject => ({ 'application/json': { schema } });

/** A list in prose: `a`, `a or b`, `a, b or c`. */
function either(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}

/**
 * The operation's description, from the row: who may call it, what body it takes, what it answers on success and
 * which error statuses it can answer with which body (the summary says what it does).
 */
function operationDescription(row: RouteRow, statuses: readonly ErrorStatus[]): string {
  const success = [row.response, ...(row.alsoResponds ?? [])];
  const envelope = statuses.filter((s) => row.errorBodies?.[String(s)] === undefined);
  const errors = [
    ...(envelope.length > 0 ? [`${envelope.join(', ')} with the error envelope`] : []),
    ...statuses.filter((s) => row.errorBodies?.[String(s)] !== undefined).map((s) => `${s} with ${row.errorBodies![String(s)]!}`),
  ];
  return [
    ACCESS[row.public === true ? 'public' : row.role],
    ...(row.request !== undefined ? [`Takes a JSON ${row.request} body${row.bodyOptional === true ? ' (which may be left out)' : ''}.`] : []),
    `Answers ${row.status ?? 200} with ${either(success)}${row.cached !== undefined ? `, with ETag and Cache-Control (max-age ${row.cached.maxAgeSeconds} s); 304 when If-None-Match names the current ETag` : ''}.`,
    ...(errors.length > 0 ? [`Errors: ${errors.join('; ')}.`] : []),
  ].join(' ');
}

function operation(table: RouteTable, name: string, row: RouteRow, components: Components): JsonObject {
  const at = `/routes/${name}`;
  const parameters = [
    ...pathParametersOf(row.path).map((p) => parameter(table, p, 'path', components, `${at}/path`)),
    ...(row.query ?? []).map((q) => parameter(table, q, 'query', components, `${at}/query`)),
    ...(row.headers ?? []).map((h) => parameter(table, h, 'header', components, `${at}/headers`)),
  ];
  const success = [row.response, ...(row.alsoResponds ?? [])].map((title) => components.refTo(title, at));
  const ok: JsonObject = { description: row.summary, content: json(success.length === 1 ? success[0]! : { oneOf: success }) };
  if (row.cached !== undefined) {
    ok.headers = {
      ETag: { description: 'Strong validator: a hash of the body, the same on every host serving the same document.', schema: { type: 'string' } },
      'Cache-Control': { description: 'How long a client may reuse the document without asking again.', schema: { type: 'string' } },
    };
  }
  const responses: JsonObject = { [String(row.status ?? 200)]: ok };
  if (row.cached !== undefined) responses['304'] = { description: 'Not modified: the If-None-Match header named the current ETag.' };
  const statuses = errorStatusesOf(row, table.commonErrors);
  for (const status of statuses) {
    const other = row.errorBodies?.[String(status)];
    responses[String(status)] = other === undefined ? { $ref: `#/components/responses/Error${status}` } : { description: `${ERROR_MEANING[status]} This route answers it with a ${other}, not the error envelope.`, content: json(components.refTo(other, at)) };
  }
  return {
    operationId: name,
    summary: row.summary,
    description: operationDescription(row, statuses),
    tags: [row.kind],
    ...(row.public === true ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(row.request !== undefined ? { requestBody: { required: row.bodyOptional !== true, content: json(components.refTo(row.request, at)) } } : {}),
    responses,
  };
}

/** The methods a path serves, as its `Allow` header lists them: HEAD with GET, and OPTIONS (runtime/host/method-answers.ts). */
export function allowedMethods(methods: readonly string[]): string[] {
  const all = new Set(methods.map((m) => m.toUpperCase()));
  if (all.has('GET')) all.add('HEAD');
  all.add('OPTIONS');
  return [...all].sort();
}

/**
 * The OPTIONS operation every path has: 204 with `Allow`, no key needed (it says what this document says). Any method
 * the path does not list is answered 405 `method_not_allowed` with the same `Allow` (RFC 9110 §15.5.6), after the key.
 */
function optionsOperation(operationId: string, path: string, methods: readonly string[], parameters: JsonObject[]): JsonObject {
  const allow = allowedMethods(methods).join(', ');
  return {
    operationId,
    summary: `The methods ${path} serves (${allow}); any other method is answered 405 with the same Allow.`,
    description: `Needs no key, whatever the path's other methods need: answers 204 with Allow: ${allow}. A method not in that list is answered 405 (method_not_allowed, the error envelope) with the same Allow header, after the key is checked.`,
    tags: ['http'],
    security: [],
    ...(parameters.length > 0 ? { parameters } : {}),
    responses: {
      '204': { description: 'The methods this path serves.', headers: { Allow: { description: 'The methods this path serves, comma-separated.', schema: { type: 'string', const: allow } } } },
      '400': { $ref: '#/components/responses/Error400' },
      '408': { $ref: '#/components/responses/Error408' },
      '500': { $ref: '#/components/responses/Error500' },
      '503': { $ref: '#/components/responses/Error503' },
    },
  };
}

/** The OpenAPI document as a JSON value (the emitter writes it; tests read it through this too). */
export function openApiDocument(r: Resolved): JsonObject {
  const components = new Components(r);
  const paths: Record<string, JsonObject> = {};
  const table = mergeRouteTables(r.corpus.routeTables ?? []);
  const rows = table === undefined ? [] : describedRows(r, table);
  const firstName = new Map<string, string>();
  for (const [name, row] of rows) {
    const item = (paths[row.path] ??= {});
    item[row.method.toLowerCase()] = operation(table!, name, row, components);
    if (!firstName.has(row.path)) firstName.set(row.path, name);
  }
  for (const [path, item] of Object.entries(paths)) {
    const pathParameters = pathParametersOf(path).map((p) => parameter(table!, p, 'path', components, `/routes/${firstName.get(path)!}/path`));
    item['options'] = optionsOperation(`${firstName.get(path)!}Options`, path, Object.keys(item), pathParameters);
  }
  const used = [...new Set(rows.flatMap(([, row]) => errorStatusesOf(row, table!.commonErrors)))].sort((a, b) => a - b);
  const envelope = components.refTo(ERROR_ENVELOPE, '/components/responses');
  const responses = Object.fromEntries(used.map((s) => [`Error${s}`, { description: ERROR_MEANING[s], content: json(envelope) }]));
  const schemas = Object.fromEntries([...components.schemas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'wopkit reference host',
      version: 'v1',
      description: 'The OpenWOP agent-memory slice and Orbiplex Inquirium (P066) as the wopkit reference host serves them: protocol routes, the test seams under /v1/host/sample/ and the seams at upstream\'s /v1/test/ paths. Generated from the route tables and schemas under schemas/ by `npm run gen`.',
      contact: { ...INFO_CONTACT },
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: SERVERS.map((s) => ({ ...s })),
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: tagsOf(rows.map(([, row]) => row.kind)),
    paths,
    components: {
      securitySchemes: { [SECURITY_SCHEME]: { type: 'http', scheme: 'bearer', description: 'An API key of the host (docs/host.md, "Credentials"); the scheme name is case-insensitive.' } },
      responses,
      schemas,
    },
  };
}

/** The document's tags: those its operations use (the route kinds, and `http`), each with its description, in name order. */
function tagsOf(kinds: readonly RouteRow['kind'][]): JsonObject[] {
  const used = new Set<string>([...kinds, 'http']);
  return Object.entries(TAGS)
    .filter(([name]) => used.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, description]) => ({ name, description }));
}

/** Every schema title a row names: its bodies and the titled schemas of its parameters. */
function titlesOf(table: RouteTable, row: RouteRow): string[] {
  const params = [...pathParametersOf(row.path), ...(row.query ?? []), ...(row.headers ?? [])].map((p) => table.parameters[p]?.schema);
  return [row.response, ...(row.alsoResponds ?? []), ...Object.values(row.errorBodies ?? {}), ...(row.request !== undefined ? [row.request] : []), ...params.flatMap((p) => (p !== undefined && 'title' in p ? [p.title] : []))];
}

/**
 * The rows the corpus can describe: those whose every schema title it defines. On this repository's corpus that is
 * every row (lint's `route-table` rule and test/interop/openapi.test.ts fail otherwise).
 */
function describedRows(r: Resolved, table: RouteTable): [string, RouteRow][] {
  return Object.entries(table.routes).filter(([, row]) => titlesOf(table, row).every((t) => r.typeByTitle(t) !== undefined));
}

/** The document, for a corpus with a route table that describes at least one row (else no file). */
export function emitOpenApi(r: Resolved): readonly EmittedFile[] {
  const table = mergeRouteTables(r.corpus.routeTables ?? []);
  if (table === undefined || describedRows(r, table).length === 0) return [];
  return [{ path: GENERATED.openapi, contents: `${JSON.stringify(openApiDocument(r), null, 2)}\n` }];
}
