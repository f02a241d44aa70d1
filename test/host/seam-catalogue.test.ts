/**
 * One seam catalogue (runtime/host/seam-catalogue.ts): the only place a path is written in the host and the suite,
 * every row served by the reference host, and the docs/host.md route table equal to it row for row.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createHost } from '../../runtime/host/server.ts';
import { fastifyUrl } from '../../runtime/host/route-helpers.ts';
import { actionOf, ROUTES, targetOf, type CatalogueRoute } from '../../runtime/host/seam-catalogue.ts';
import { tsFiles } from './sources.ts';

/** The rows themselves: corpus data, emitted as a module that seam-catalogue.ts types and re-exports. */
const CATALOGUE = 'generated/routes/routes.ts';
const ROWS: readonly CatalogueRoute[] = Object.values(ROUTES);
/** A string literal that starts like a host path. */
const PATH_LITERAL = /['"`]\/(v1|\.well-known|livez|readyz)\b[^'"`]*/g;

describe('the seam catalogue is the only place a path is written', () => {
  it('no path literal in runtime/host/ or conformance/ outside the catalogue', () => {
    const files = [...tsFiles('runtime/host'), ...tsFiles('conformance')];
    expect(files).toContain('runtime/host/seam-catalogue.ts');
    const hits = files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(PATH_LITERAL)].map((m) => `${f}: ${m[0]}`));
    expect(hits).toEqual([]);
    // The scan does see paths where they are written.
    expect(readFileSync(CATALOGUE, 'utf8').match(PATH_LITERAL)?.length).toBeGreaterThan(5);
  });

  it('rows are well-formed: one row per method and path, bodies on POST (and PATCH) only, only the two public documents and the health probes are public', () => {
    const keys = ROWS.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of ROWS) {
      // The health probes sit at the root, where supervisors and load balancers look; everything else under /v1 or /.well-known.
      expect(r.path, r.path).toMatch(r.kind === 'health' ? /^\/(livez|readyz)$/ : /^\/(v1|\.well-known)\//);
      if (r.kind === 'health') expect([r.method, r.public], r.path).toEqual(['GET', true]);
      if (r.request !== undefined) expect(['POST', 'PATCH'], r.path).toContain(r.method);
      expect(r.kind === 'seam', r.path).toBe(r.path.startsWith('/v1/host/sample/'));
    }
    expect(ROWS.filter((r) => r.public).map((r) => r.path).sort()).toEqual([ROUTES.discovery.path, ROUTES.openapi.path, ROUTES.liveness.path, ROUTES.readiness.path].sort());
    expect(actionOf(ROUTES.runFork)).toBe('fork');
    expect(targetOf(ROUTES.runFork, { params: { runId: 'run 1' } })).toBe('/v1/runs/run%201:fork');
    expect(targetOf(ROUTES.memoryEntries, { query: { tenant: 't', memoryRef: 'mem://t/a', tag: undefined } })).toBe('/v1/host/sample/memory/entries?tenant=t&memoryRef=mem%3A%2F%2Ft%2Fa');
    expect(() => targetOf(ROUTES.memoryEntries, { query: { tenat: 't' } })).toThrow(/no query parameter tenat/);
    expect(() => targetOf(ROUTES.runEvents)).toThrow(/path parameter runId/);
  });

  it('the reference host serves every row, at the method the row names', async () => {
    const { app } = await createHost({ token: 'catalogue-test-token-0123456789' });
    try {
      const missing = ROWS.filter((r) => !app.hasRoute({ method: r.method, url: fastifyUrl(r.path) })).map((r) => `${r.method} ${r.path}`);
      expect(missing).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('docs/host.md route table = the catalogue', () => {
  const code = (s: string) => `\`${s}\``;
  /** The first seven cells of a row as the docs write them. */
  const cellsOf = (r: CatalogueRoute): string[] => [
    r.kind, r.method, code(r.path), (r.query ?? []).map(code).join(', ') || '—', r.request !== undefined ? code(r.request) : '—',
    [r.response, ...(r.alsoResponds ?? [])].map(code).join(', ') + (r.status !== undefined ? ` (${r.status})` : ''),
    r.public === true ? 'public' : r.role,
  ];
  const docRows = (): string[][] => {
    const doc = readFileSync('docs/host.md', 'utf8');
    const table = doc.slice(doc.indexOf('| Kind | Method | Path |'));
    const lines = table.split('\n');
    const end = lines.findIndex((l) => !l.startsWith('|'));
    return lines.slice(2, end === -1 ? undefined : end).map((l) => l.split(' | ').map((c) => c.replace(/^\| ?| ?\|$/g, '').trim()).slice(0, 7));
  };

  it('every catalogue row is in the table with the same kind, method, path, query, request and response schemas and role, and no other row is', () => {
    const rows = docRows();
    expect(rows.length).toBeGreaterThan(0);
    const show = (cells: string[]) => cells.join(' | ');
    expect(rows.map(show).sort()).toEqual(ROWS.map((r) => show(cellsOf(r))).sort());
  });
});
