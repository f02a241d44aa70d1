/**
 * The route tables as corpus data (generator/route-table.ts): each rule of lint's `route-table` check fires on a
 * minimal violation, with file and pointer, and the repository's table has none. The merged table is what both
 * emitters read.
 */
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../generator/load.ts';
import type { JsonObject, RouteTableFile } from '../../generator/model.ts';
import { Resolved } from '../../generator/resolve.ts';
import { errorStatusesOf, mergeRouteTables, routeTableViolations, type RouteRow } from '../../generator/route-table.ts';
import { ERROR_STATUSES, ROUTE_TABLE } from '../../generated/routes/routes.ts';
import { REPO } from './helpers.ts';

const corpus = loadCorpus(REPO);
const resolved = new Resolved(corpus);
const defined = (t: string) => resolved.typeByTitle(t) !== undefined;

const COMMON = { always: [400, 500], authenticated: [401], body: [413] };
const row = (extra: Partial<RouteRow> = {}): JsonObject => ({ kind: 'protocol', method: 'GET', path: '/v1/a', response: 'RunSnapshot', role: 'tenant', summary: 'A.', errors: [], ...extra }) as unknown as JsonObject;
const table = (path: string, data: Record<string, unknown>): RouteTableFile => ({ path, family: 'demo', text: '', data: { commonErrors: COMMON, parameters: {}, routes: {}, ...data } as JsonObject });
const at = (files: RouteTableFile[]) => routeTableViolations(files, defined).map(([file, pointer, message]) => `${file}#${pointer} ${message}`);

describe('route tables', () => {
  it('the repository has one, and it is clean; the emitted module holds its rows and each row\'s statuses', () => {
    expect(corpus.routeTables?.map((t) => t.path)).toEqual(['schemas/openwop/v1/routes.json']);
    expect(routeTableViolations(corpus.routeTables!, defined)).toEqual([]);
    const merged = mergeRouteTables(corpus.routeTables!)!;
    expect(Object.keys(ROUTE_TABLE)).toEqual(Object.keys(merged.routes));
    for (const [name, r] of Object.entries(merged.routes)) expect([...ERROR_STATUSES[name as keyof typeof ERROR_STATUSES]], name).toEqual(errorStatusesOf(r, merged.commonErrors));
  });

  it.each([
    ['a row that breaks the schema', [table('t.json', { routes: { a: row({ method: 'PUT' as 'GET' }) } })], 't.json#/routes/a/method does not match'],
    ['an unknown schema title', [table('t.json', { routes: { a: row({ response: 'NoSuchTitle' }) } })], 't.json#/routes/a/response no schema of the corpus has the title "NoSuchTitle"'],
    ['an undeclared parameter', [table('t.json', { routes: { a: row({ path: '/v1/a/{thing}' }) } })], 't.json#/routes/a parameter "thing" is not in any table\'s parameters'],
    ['one method + path twice', [table('t.json', { routes: { a: row(), b: row() } })], 't.json#/routes/b GET /v1/a is also route "a"'],
    ['one name in two tables', [table('t.json', { routes: { a: row() } }), table('u.json', { routes: { a: row({ path: '/v1/b' }) } })], 'u.json#/routes/a route "a" is also in t.json'],
    ['two sets of common errors', [table('t.json', {}), table('u.json', { commonErrors: { ...COMMON, always: [500] } })], 'u.json#/commonErrors every route table of a corpus must declare the same common errors'],
    ['a parameter meaning two things', [table('t.json', { parameters: { id: { schema: { type: 'string' }, description: 'One.' } } }), table('u.json', { parameters: { id: { schema: { type: 'integer' }, description: 'Two.' } } })], 'u.json#/parameters/id parameter "id" means something else'],
    ['bodyOptional without a body', [table('t.json', { routes: { a: row({ bodyOptional: true }) } })], 't.json#/routes/a/bodyOptional bodyOptional on a route that reads no body'],
  ] as [string, RouteTableFile[], string][])('%s is a finding', (_what, files, expected) => {
    expect(at(files).some((f) => f.startsWith(expected)), at(files).join('\n')).toBe(true);
  });

  it('shared statuses: always, plus 401 unless public, plus the body statuses for a body or a method that carries one', () => {
    const r = (extra: Partial<RouteRow>) => ({ ...(row(extra) as unknown as RouteRow) });
    expect(errorStatusesOf(r({ public: true }), COMMON as never)).toEqual([400, 500]);
    expect(errorStatusesOf(r({ errors: [404] }), COMMON as never)).toEqual([400, 401, 404, 500]);
    expect(errorStatusesOf(r({ method: 'DELETE' }), COMMON as never)).toEqual([400, 401, 413, 500]);
  });
});
