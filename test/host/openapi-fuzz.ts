/**
 * An OpenAPI-driven property fuzz of the reference host (issue 32): requests generated with fast-check from the
 * generated OpenAPI document — every operation, OPTIONS and HEAD on every path, methods no path serves — with tenant,
 * operator, wrong and missing keys, path ids that are valid or hostile (`..`, `%00`, over-long, unicode, malformed
 * percent escapes), query parameters valid, out of range, malformed or repeated, and bodies taken from the corpus's
 * valid and invalid examples of the operation's request schema, random JSON, malformed text, another media type, and
 * chunked bodies over the limit. Sent over loopback with node:http, which sends a request target byte for byte
 * (`fetch` would resolve `..` and re-encode).
 *
 * Every answer must be declared by the document for its operation (test/interop/openapi-oracle.ts: status and body
 * against the declared schema; HEAD as its GET; 405 with the document's Allow for a method the path lacks; 401/404
 * envelopes for unknown paths), and no answer may be a 5xx other than a declared 503.
 *
 * Used by test/host/openapi-fuzz.test.ts (a few hundred requests, main set) and
 * test/host/openapi-fuzz-soak.test.ts (thousands, soak set).
 */
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import openapi from '../../generated/openapi/openapi.json' with { type: 'json' };
import { loadCorpus } from '../../generator/load.ts';
import { Resolved } from '../../generator/resolve.ts';
import { Credentials, parseApiKeysEnv } from '../../runtime/host/auth.ts';
import { createHost } from '../../runtime/host/server.ts';
import { checkAnswer } from '../interop/openapi-oracle.ts';
import { REPO } from '../generator/helpers.ts';

const TENANT_KEY = 'openapi-fuzz-tenant-key-0123456789';
const OPERATOR_KEY = 'openapi-fuzz-operator-key-0123456789';
const BODY_LIMIT = 16 * 1024;

interface Parameter { readonly name: string; readonly in: 'path' | 'query'; readonly schema: { readonly type?: string; readonly minimum?: number; readonly maximum?: number; readonly $ref?: string } }
interface Operation { readonly parameters?: readonly Parameter[]; readonly requestBody?: { readonly content: { readonly 'application/json': { readonly schema: { readonly $ref: string } } } } }
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, { enum?: readonly string[] }> } };
const doc = openapi as unknown as Doc;

/** One generated request, as sent. */
export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A body as text, or a chunked body of this many bytes (over the limit). */
  readonly body?: string | { readonly chunkedBytes: number };
}

/** What a run saw. */
export interface FuzzReport {
  readonly sent: number;
  readonly statuses: Readonly<Record<string, number>>;
  /** Answers the document does not declare (status or body), with the request. */
  readonly undeclared: readonly string[];
  /** 5xx answers other than a declared 503. */
  readonly serverErrors: readonly string[];
}

/** Valid and invalid corpus examples by schema title. */
function examplesByTitle(): Map<string, { valid: unknown[]; invalid: unknown[] }> {
  const corpus = loadCorpus(REPO);
  const resolved = new Resolved(corpus);
  const typeOf = new Map([...resolved.entries.values()].map((e) => [`${e.file.family}/${e.file.major}/${e.target}`, e.title]));
  const out = new Map<string, { valid: unknown[]; invalid: unknown[] }>();
  for (const ex of corpus.examples) {
    const title = typeOf.get(`${ex.family}/${ex.major}/${ex.target}`);
    if (title === undefined) continue;
    const slot = out.get(title) ?? { valid: [], invalid: [] };
    slot[ex.kind].push(ex.instance);
    out.set(title, slot);
  }
  return out;
}

const HOSTILE_IDS = ['..', '%2e%2e', '%00', `a%00b`, 'x'.repeat(600), encodeURIComponent('ü✓𝄞 ☃'), '%zz', '%E0%A4%A', '%', encodeURIComponent('mem://acme/../other'), '__proto__', encodeURIComponent('mem://other/x')];
const METHODS_NO_PATH_SERVES = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET', 'TRACE', 'SEARCH'];

/** The arbitrary of one request, from the document. */
function requestArbitrary(examples: Map<string, { valid: unknown[]; invalid: unknown[] }>): fc.Arbitrary<FuzzRequest> {
  // OPTIONS (declared on every path) comes from `otherMethod` below, so that it does not take a third of the run.
  const operations = Object.entries(doc.paths).flatMap(([template, item]) => Object.entries(item).filter(([method]) => method !== 'options').map(([method, op]) => ({ template, method: method.toUpperCase(), op })));
  const templates = Object.keys(doc.paths);

  const pathValue = (name: string): fc.Arbitrary<string> => fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(name === 'memoryRef' ? ['mem%3A%2F%2Facme%2Fnotes', 'conformance-notes', 'mem%3A%2F%2Fdefault%2Fx'] : [`no-such-${name}`, 'run_1', 'prop_1'])) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_IDS) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent) },
  );

  const queryValue = (p: Parameter): fc.Arbitrary<string> => {
    const values: fc.Arbitrary<string>[] = [fc.constantFrom('', '%zz', '%', 'x'.repeat(700), encodeURIComponent('ü✓'), '%00')];
    if (p.schema.type === 'integer') values.push(fc.integer({ min: (p.schema.minimum ?? 0) - 2, max: Math.min(p.schema.maximum ?? 2000, 2000) + 2 }).map(String), fc.constantFrom('1e3', '0x10', '1.5', '-0', '99999999999999999999'));
    else if (p.schema.$ref !== undefined) values.push(fc.constantFrom(...(doc.components.schemas[p.schema.$ref.split('/').pop()!]?.enum ?? ['x']), 'nonsense'));
    else values.push(fc.constantFrom(p.name === 'tenant' ? 'acme' : 'x', 'default', 'other', 'mem%3A%2F%2Facme%2Fnotes'), fc.string({ maxLength: 30 }).map(encodeURIComponent));
    return fc.oneof(...values);
  };

  /** A query string for the operation: each parameter absent, once, or repeated; sometimes an unknown one. */
  const queryOf = (op: Operation): fc.Arbitrary<string> => {
    const params = (op.parameters ?? []).filter((p) => p.in === 'query');
    const parts = params.map((p) => fc.oneof(
      { weight: 3, arbitrary: fc.constant<string[]>([]) },
      { weight: 3, arbitrary: queryValue(p).map((v) => [`${p.name}=${v}`]) },
      { weight: 1, arbitrary: fc.tuple(queryValue(p), queryValue(p)).map(([a, b]) => [`${p.name}=${a}`, `${p.name}=${b}`]) },
    ));
    return fc.tuple(fc.tuple(...parts), fc.constantFrom('', 'unknown=1', '%zz=1', '&&', '=x')).map(([ps, extra]) => {
      const q = [...ps.flat(), ...(extra === '' ? [] : [extra])];
      return q.length === 0 ? '' : `?${q.join('&')}`;
    });
  };

  const bodyOf = (op: Operation): fc.Arbitrary<FuzzRequest['body'] | undefined> => {
    const title = op.requestBody?.content['application/json'].schema.$ref.split('/').pop();
    const ex = title === undefined ? undefined : examples.get(title);
    const options: fc.Arbitrary<FuzzRequest['body'] | undefined>[] = [
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.constantFrom('{', '[]', 'null', '', '{"__proto__":{"x":1}}', '"x"'),
      fc.constant(undefined),
      fc.integer({ min: BODY_LIMIT + 1, max: 4 * BODY_LIMIT }).map((n) => ({ chunkedBytes: n })),
    ];
    if (ex !== undefined && ex.valid.length > 0) options.push(fc.constantFrom(...ex.valid).map((v) => JSON.stringify(v)), fc.constantFrom(...ex.valid).map((v) => JSON.stringify(v)));
    if (ex !== undefined && ex.invalid.length > 0) options.push(fc.constantFrom(...ex.invalid).map((v) => JSON.stringify(v)));
    return fc.oneof(...options);
  };

  const auth = fc.constantFrom<Record<string, string>>(...Array<Record<string, string>>(3).fill({ authorization: `Bearer ${OPERATOR_KEY}` }), ...Array<Record<string, string>>(3).fill({ authorization: `Bearer ${TENANT_KEY}` }), {}, { authorization: 'Bearer wrong-key-0123456789abcdef' });
  const contentType = fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', '');

  const operationRequest = fc.constantFrom(...operations).chain(({ template, method, op }) => {
    const names = [...template.matchAll(/\{([A-Za-z]+)\}/g)].map((m) => m[1]!);
    return fc.record({
      params: fc.tuple(...names.map(pathValue)),
      query: queryOf(op),
      body: method === 'GET' || method === 'OPTIONS' ? fc.constant(undefined) : bodyOf(op),
      auth,
      contentType,
      head: fc.boolean(),
    }).map(({ params, query, body, auth: a, contentType: ct, head }): FuzzRequest => {
      let i = 0;
      const path = template.replace(/\{[A-Za-z]+\}/g, () => params[i++]!) + query;
      const m = method === 'GET' && head ? 'HEAD' : method;
      return { method: m, path, headers: { ...a, ...(body !== undefined && ct !== '' ? { 'content-type': ct } : {}) }, ...(body !== undefined && m !== 'HEAD' ? { body } : {}) };
    });
  });

  const otherMethod = fc.record({ template: fc.constantFrom(...templates), method: fc.constantFrom(...METHODS_NO_PATH_SERVES, 'OPTIONS', 'HEAD'), auth }).map(({ template, method, auth: a }): FuzzRequest => ({
    method, path: template.replace(/\{([A-Za-z]+)\}/g, 'x1'), headers: a,
  }));

  const unknownPath = fc.record({ path: fc.constantFrom('/', '/v1', '/v1/nothing', '/v1/runs', '/v1/runs/a/b/c', '/%zz', `/v1/${'y'.repeat(3000)}`, '/v1/host/sample/../../etc/passwd'), auth }).map(({ path, auth: a }): FuzzRequest => ({ method: 'GET', path, headers: a }));

  return fc.oneof({ weight: 8, arbitrary: operationRequest }, { weight: 2, arbitrary: otherMethod }, { weight: 1, arbitrary: unknownPath });
}

/** Send one request over `agent`; the answer's status, headers and body text (an error when the socket failed). */
function send(port: number, agent: Agent, r: FuzzRequest): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: r.method, path: r.path, headers: r.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (r.body === undefined) return void req.end();
    if (typeof r.body === 'string') return void req.end(r.body);
    // Chunked (no Content-Length): 4 KiB pieces until the limit is passed; the host may answer and close meanwhile.
    let left = r.body.chunkedBytes;
    const piece = Buffer.alloc(4096, 0x78);
    const pump = (): void => {
      while (left > 0) {
        left -= piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/** Run `numRuns` generated requests against a fresh host; `seed` makes a run repeatable. */
export async function runOpenApiFuzz(numRuns: number, seed?: number): Promise<FuzzReport> {
  const { app } = await createHost({
    credentials: new Credentials(parseApiKeysEnv(`${TENANT_KEY}=acme:tenant,${OPERATOR_KEY}=*:operator`)),
    bodyLimit: BODY_LIMIT, logger: false, seedConformanceFixtures: true,
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const port = Number(new URL(url).port);
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const statuses: Record<string, number> = {};
  const undeclared: string[] = [];
  const serverErrors: string[] = [];
  let sent = 0;
  try {
    const samples = fc.sample(requestArbitrary(examplesByTitle()), { numRuns, ...(seed !== undefined ? { seed } : {}) });
    for (let i = 0; i < samples.length; i += 4) {
      await Promise.all(samples.slice(i, i + 4).map(async (r) => {
        const what = `${r.method} ${r.path.slice(0, 160)}${typeof r.body === 'object' ? ` [chunked ${r.body.chunkedBytes} B]` : ''} (${r.headers.authorization?.slice(7, 20) ?? 'no key'})`;
        let a: Awaited<ReturnType<typeof send>>;
        try {
          a = await send(port, agent, r);
        } catch (e) {
          undeclared.push(`${what} → no answer: ${(e as Error).message}`);
          return;
        }
        sent++;
        statuses[String(a.status)] = (statuses[String(a.status)] ?? 0) + 1;
        let body: unknown = null;
        if (a.body !== '') {
          try {
            body = JSON.parse(a.body);
          } catch {
            undeclared.push(`${what} → ${a.status}: a body that is not JSON: ${a.body.slice(0, 120)}`);
            return;
          }
        }
        const allow = typeof a.headers.allow === 'string' ? a.headers.allow : undefined;
        const problem = checkAnswer(r.method, r.path, a.status, r.method === 'HEAD' ? null : body, allow);
        if (problem !== undefined) undeclared.push(`${what}: ${problem}`);
        if (a.status >= 500 && a.status !== 503) serverErrors.push(`${what} → ${a.status} ${a.body.slice(0, 200)}`);
      }));
    }
  } finally {
    agent.destroy();
    await app.close();
  }
  return { sent, statuses, undeclared, serverErrors };
}
