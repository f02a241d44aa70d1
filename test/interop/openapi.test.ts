/**
 * Issue 24: the OpenAPI 3.1 document generated from the route table (schemas/openwop/v1/routes.json) and the schemas (generator/emit/openapi.ts,
 * committed as generated/openapi/openapi.json).
 *
 * - It passes a real OpenAPI validator: @seriousme/openapi-schema-validator checks a document against the OpenAPI
 *   Initiative's own published JSON Schemas for 3.1 (with the 2020-12 dialect), is maintained, tested on the
 *   APIs.guru corpus, and depends only on Ajv, which this project already uses.
 * - It is self-contained: every `$ref` is local and resolves inside the document.
 * - It states every route row: operation, parameters (path ones required), body, success status, the error statuses
 *   of the row with the error envelope, `security: []` exactly on the public rows, 304 on the cached ones.
 * - Its component schemas say what the corpus says: every example of a type the document holds gets the same
 *   verdict from Ajv compiled from the document as the corpus promises (valid ones pass, invalid ones fail).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createAjv } from '../../generator/ajv.ts';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved } from '../../generator/resolve.ts';
import { openApiDocument, ERROR_ENVELOPE } from '../../generator/emit/openapi.ts';
import { GENERATED } from '../../generator/naming.ts';
import { errorStatusesOf, mergeRouteTables, pathParametersOf, type RouteRow } from '../../generator/route-table.ts';
import { REPO } from '../generator/helpers.ts';

type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown>; responses: Record<string, unknown>; securitySchemes: Record<string, unknown> } } & Record<string, unknown>;
interface Operation {
  operationId: string;
  security?: unknown[];
  parameters?: { name: string; in: string; required: boolean; schema: unknown }[];
  requestBody?: { required: boolean; content: Record<string, { schema: unknown }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
}

const corpus = loadCorpus(REPO);
const resolved = new Resolved(corpus);
const doc = openApiDocument(resolved) as unknown as Doc;
const table = mergeRouteTables(corpus.routeTables ?? [])!;
const rows = Object.entries(table.routes) as [string, RouteRow][];
type SpecData = Record<string, unknown>;

/** Every `$ref` value in a JSON value. */
function refsIn(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => refsIn(x, out));
  else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) k === '$ref' && typeof x === 'string' ? out.push(x) : refsIn(x, out);
  return out;
}

describe('the generated OpenAPI document', () => {
  it('is the committed generated/openapi/openapi.json (gen --check covers the file)', () => {
    expect(readFileSync(join(REPO, GENERATED.openapi), 'utf8')).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });

  it('validates as OpenAPI 3.1 under the OpenAPI Initiative schemas', async () => {
    const v = new Validator();
    const res = await v.validate(structuredClone(doc) as SpecData);
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(v.version).toBe('3.1');
  });

  it('the validator refuses a broken document (it can fail)', async () => {
    const broken = structuredClone(doc) as Doc;
    (broken.components.securitySchemes.bearerAuth as { type: string }).type = 'token'; // not a security scheme type
    broken.paths['/v1/runs']!.post!.parameters = [{ name: 'x', in: 'body', required: false, schema: {} }]; // not a parameter location
    expect((await new Validator().validate(broken as SpecData)).valid).toBe(false);
  });

  it('is self-contained: every $ref is local and resolves', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(100);
    expect(refs.filter((r) => !r.startsWith('#/'))).toEqual([]);
    const dangling = refs.filter((r) => r.slice(2).split('/').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc) === undefined);
    expect([...new Set(dangling)]).toEqual([]);
  });

  it('has one operation per route row, stating what the row states', () => {
    const ops = Object.values(doc.paths).flatMap((item) => Object.entries(item).filter(([m]) => m !== 'options').map(([, o]) => o));
    expect(ops.map((o) => o.operationId).sort()).toEqual(rows.map(([n]) => n).sort());
    // Every path also answers OPTIONS (keyless, 204 + Allow: its methods, HEAD with GET, and OPTIONS).
    for (const [path, item] of Object.entries(doc.paths)) {
      const allow = item['options'] as unknown as { security: unknown[]; responses: Record<string, { headers: { Allow: { schema: { const: string } } } }> };
      expect(allow.security, path).toEqual([]);
      const methods = new Set(Object.keys(item).filter((m) => m !== 'options').map((m) => m.toUpperCase()));
      if (methods.has('GET')) methods.add('HEAD');
      expect(allow.responses['204']!.headers.Allow.schema.const, path).toBe([...methods, 'OPTIONS'].sort().join(', '));
    }
    for (const [name, row] of rows) {
      const op = doc.paths[row.path]![row.method.toLowerCase()]!;
      expect(op.operationId, name).toBe(name);
      const params = op.parameters ?? [];
      expect(params.filter((p) => p.in === 'path').map((p) => p.name), name).toEqual(pathParametersOf(row.path));
      expect(params.filter((p) => p.in === 'path').every((p) => p.required), name).toBe(true);
      expect(params.filter((p) => p.in === 'query').map((p) => p.name), name).toEqual([...(row.query ?? [])]);
      expect(op.requestBody?.content['application/json']?.schema, name).toEqual(row.request === undefined ? undefined : { $ref: `#/components/schemas/${row.request}` });
      if (row.request !== undefined) expect(op.requestBody?.required, name).toBe(row.bodyOptional !== true);
      const statuses = Object.keys(op.responses).map(Number).sort((a, b) => a - b);
      const expected = [row.status ?? 200, ...(row.cached !== undefined ? [304] : []), ...errorStatusesOf(row, table.commonErrors)].sort((a, b) => a - b);
      expect(statuses, name).toEqual(expected);
      for (const s of errorStatusesOf(row, table.commonErrors)) {
        const other = row.errorBodies?.[String(s)];
        if (other === undefined) expect(op.responses[String(s)]!.$ref, `${name} ${s}`).toBe(`#/components/responses/Error${s}`);
        else expect(op.responses[String(s)]!.content!['application/json']!.schema, `${name} ${s}`).toEqual({ $ref: `#/components/schemas/${other}` });
      }
      expect(op.security, name).toEqual(row.public === true ? [] : undefined);
    }
    for (const [key, resp] of Object.entries(doc.components.responses)) {
      expect((resp as { content: Record<string, { schema: unknown }> }).content['application/json']!.schema, key).toEqual({ $ref: `#/components/schemas/${ERROR_ENVELOPE}` });
    }
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('declares the cursor/limit parameters of the memory lists and fromSeq/limit of run events, typed', () => {
    const query = (path: string) => Object.fromEntries((doc.paths[path]!.get!.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
    expect(query('/v1/memory/{memoryRef}')).toMatchObject({ limit: { type: 'integer', minimum: 1 }, cursor: { type: 'string' } });
    expect(query('/v1/runs/{runId}/events')).toMatchObject({ fromSeq: { type: 'integer', minimum: 0 }, limit: { type: 'integer', minimum: 1 } });
    expect(query('/v1/host/sample/proposals').state).toEqual({ $ref: '#/components/schemas/ProposalState' });
  });

  it('its component schemas give every corpus example of a type they hold the verdict the corpus promises', () => {
    const ajv = createAjv({ strict: false });
    ajv.addSchema({ $id: 'urn:wopkit:openapi', components: doc.components });
    const typeOf = new Map([...resolved.entries.values()].map((e) => [`${e.file.family}/${e.file.major}/${e.target}`, e.title]));
    let checked = 0;
    const wrong: string[] = [];
    for (const ex of corpus.examples) {
      const title = typeOf.get(`${ex.family}/${ex.major}/${ex.target}`);
      if (title === undefined || doc.components.schemas[title] === undefined) continue;
      const v = ajv.getSchema(`urn:wopkit:openapi#/components/schemas/${title}`)!;
      const instance = structuredClone(ex.instance) as Record<string, unknown>;
      if (typeof instance === 'object' && instance !== null && !Array.isArray(instance)) delete instance.$schema;
      if ((v(instance) as boolean) !== (ex.kind === 'valid')) wrong.push(ex.path);
      checked++;
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(300);
  });
});
