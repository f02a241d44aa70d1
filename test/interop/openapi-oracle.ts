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

/**
 * What the document says of one answer: undefined when it is fine, else why not (undeclared operation or status, or
 * the body's first schema failure).
 */
export function checkAnswer(method: string, path: string, status: number, body: unknown): string | undefined {
  const template = templateOf(path);
  const op = template === undefined ? undefined : doc.paths[template]![method.toLowerCase()];
  if (op === undefined) return `${method} ${path.split('?')[0]}: no such operation in the document`;
  const r = op.responses[String(status)];
  if (r === undefined) return `${method} ${template} → ${status}: status not declared`;
  const base = r.$ref !== undefined ? r.$ref.slice(1) : `/paths/${escape(template!)}/${method.toLowerCase()}/responses/${status}`;
  const target = r.$ref !== undefined ? doc.components.responses[r.$ref.split('/').pop()!]! : r;
  if (target.content?.['application/json'] === undefined) return undefined;
  const v = ajv.getSchema(`urn:wopkit:openapi#${base}/content/application~1json/schema`)!;
  return v(body) ? undefined : `${method} ${template} → ${status}: ${JSON.stringify(v.errors?.[0]).slice(0, 300)}`;
}
