/**
 * The committed OpenAPI document as a test oracle: which operation a request hits, whether the document declares the
 * status it got, and whether the body matches the schema the document gives that status (Ajv over the document's own
 * components, so what is checked is the document, not the corpus).
 */
import { createAjv } from '../../generator/ajv.ts';
import openapi from '../../generated/openapi/openapi.json' with { type: 'json' };

type Response = { $ref?: string; content?: Record<string, { schema: unknown }> };
type Doc = { paths: Record<string, Record<string, { responses: Record<string, Response> }>>; components: { responses: Record<string, Response> } };
const doc = openapi as unknown as Doc;
const ajv = createAjv({ strict: false });
ajv.addSchema({ ...(openapi as object), $id: 'urn:wopkit:openapi' });
const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Each templated path as a matcher: `{name}` is one segment (a `{name}:action` segment keeps its action literal). */
const MATCHERS = Object.keys(doc.paths).map((template) => {
  const pattern = template.split(/\{[A-Za-z]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
  return { template, re: new RegExp(`^${pattern}$`) };
});

/** Characters of a template that are not parameters: the more, the more specific (`{runId}:fork` over `{runId}`). */
const literalLength = (template: string) => template.replace(/\{[A-Za-z]+\}/g, '').length;

/** The most specific path template a request path (without its query) falls under, or undefined. */
export function templateOf(path: string): string | undefined {
  const bare = path.split('?')[0]!;
  const hits = MATCHERS.filter((m) => m.re.test(bare)).map((m) => m.template);
  return hits.sort((a, b) => literalLength(b) - literalLength(a))[0];
}

/** The methods a path template declares, upper-case (OPTIONS included: the emitter declares it on every path). */
export function declaredMethods(template: string): string[] {
  return Object.keys(doc.paths[template] ?? {}).map((m) => m.toUpperCase());
}

/** The `Allow` value the document gives a path template (its OPTIONS answer's `const`). */
export function allowOfTemplate(template: string): string | undefined {
  const options = (doc.paths[template] as Record<string, { responses: Record<string, { headers?: Record<string, { schema?: { const?: string } }> }> }> | undefined)?.['options'];
  return options?.responses['204']?.headers?.['Allow']?.schema?.const;
}

const ENVELOPE = 'urn:wopkit:openapi#/components/responses/Error400/content/application~1json/schema';

/**
 * What the document says of one answer: undefined when it is fine, else why not (undeclared operation or status, or
 * the body's first schema failure). Three answers HTTP itself gives, derived from the document:
 * - HEAD on a path with a GET: the GET's statuses, without a body;
 * - a method the path does not declare: 405 with the envelope and `Allow` equal to the path's declared methods
 *   (`allow` given), or 401 with the envelope when the request had no valid key (the key is checked first);
 * - a path under no template: 404 or 401 with the envelope.
 */
export function checkAnswer(method: string, path: string, status: number, body: unknown, allow?: string): string | undefined {
  const template = templateOf(path);
  // A HEAD answer has no body to check.
  const envelope = (what: string) => (method === 'HEAD' || ajv.getSchema(ENVELOPE)!(body) ? undefined : `${what}: the body is not the error envelope (${JSON.stringify(body).slice(0, 200)})`);
  if (template === undefined) return status === 404 || status === 401 || status === 400 ? envelope(`${method} ${path.split('?')[0]} → ${status}`) : `${method} ${path.split('?')[0]} → ${status}: no such path in the document, and not 404/401/400`;
  const lower = method.toLowerCase();
  const declared = doc.paths[template]!;
  if (lower === 'head' && declared['get'] !== undefined) {
    return declared['get'].responses[String(status)] === undefined ? `HEAD ${template} → ${status}: status not declared for GET` : undefined;
  }
  const op = declared[lower];
  if (op === undefined) {
    if (status === 405) {
      const want = allowOfTemplate(template);
      if (allow !== undefined && allow !== want) return `${method} ${template} → 405: Allow is "${allow}", the document says "${want}"`;
      return envelope(`${method} ${template} → 405`);
    }
    if (status === 401 || status === 400) return envelope(`${method} ${template} → ${status}`);
    return `${method} ${template} → ${status}: the path does not declare ${method}, and not 405/401/400`;
  }
  const r = op.responses[String(status)];
  if (r === undefined) return `${method} ${template} → ${status}: status not declared`;
  const base = r.$ref !== undefined ? r.$ref.slice(1) : `/paths/${escape(template)}/${lower}/responses/${status}`;
  const target = r.$ref !== undefined ? doc.components.responses[r.$ref.split('/').pop()!]! : r;
  if (target.content?.['application/json'] === undefined) return undefined;
  const v = ajv.getSchema(`urn:wopkit:openapi#${base}/content/application~1json/schema`)!;
  return v(body) ? undefined : `${method} ${template} → ${status}: ${JSON.stringify(v.errors?.[0]).slice(0, 300)}`;
}
