/**
 * Issue 36 part 6: the generated OpenAPI document passes Spectral's `spectral:oas` and Redocly's `recommended`
 * rulesets as published — no finding of any severity, no rule disabled, overridden or downgraded (scripts/openapi-lint.ts
 * runs both; CI runs this file in the main set).
 *
 * - Both linters, on the committed document and on the golden case's (the emitter on another corpus:
 *   test/generator/golden/openapi/), report nothing; on a document stripped of what the rulesets ask for, they report
 *   exactly those rules (the harness can fail).
 * - The stock rulesets only: the Spectral ruleset is `extends: ["spectral:oas"]` and nothing else, Redocly gets
 *   `--extends recommended`, both run in an empty folder, and the repository holds no ruleset, override or ignore file
 *   either linter reads.
 * - What the emitter writes for the linters, checked on every row and (fast-check) on any subset of the route table:
 *   each operation's description names its status, body and every error status; every tag used is declared with a
 *   description and every declared tag is used; every path parameter is declared on every operation of its path,
 *   OPTIONS included; the contact is the repository package.json names.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved } from '../../generator/resolve.ts';
import { INFO_CONTACT, openApiDocument } from '../../generator/emit/openapi.ts';
import { errorStatusesOf, mergeRouteTables, pathParametersOf, type RouteRow } from '../../generator/route-table.ts';
import type { LoadedCorpus, JsonObject } from '../../generator/model.ts';
import { LINT_CONFIG_NAMES, OPENAPI_DOCUMENT, REDOCLY_RULESET, SPECTRAL_RULESET, lintConfigFilesIn, lintOpenApi, type LintFinding } from '../../scripts/openapi-lint.ts';
import { REPO } from '../generator/helpers.ts';

interface Operation {
  operationId: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean }[];
}
interface Doc {
  info: { contact?: { name?: string; url?: string } };
  servers?: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const corpus = loadCorpus(REPO);
const committed = JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')) as Doc;
const table = mergeRouteTables(corpus.routeTables ?? [])!;

const scratch = mkdtempSync(join(tmpdir(), 'wopkit-openapi-lint-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The committed document stripped of what the stock rulesets ask for, one rule each. */
function broken(): { path: string; expected: { spectral: string[]; redocly: string[] } } {
  const doc = structuredClone(committed);
  delete doc.servers; // spectral oas3-api-servers, redocly no-empty-servers
  delete doc.info.contact; // spectral info-contact
  delete doc.paths['/v1/runs']!['post']!.description; // spectral operation-description
  delete doc.paths['/v1/runs/{runId}']!['options']!.parameters; // spectral path-params, redocly path-parameters-defined
  doc.tags = doc.tags.filter((t) => t.name !== 'health'); // spectral operation-tag-defined
  const path = join(scratch, 'broken.json');
  writeFileSync(path, JSON.stringify(doc, null, 2));
  return { path, expected: { spectral: ['info-contact', 'oas3-api-servers', 'operation-description', 'operation-tag-defined', 'path-params'], redocly: ['no-empty-servers', 'path-parameters-defined'] } };
}

const rulesOf = (findings: readonly LintFinding[], linter: LintFinding['linter']) => [...new Set(findings.filter((f) => f.linter === linter).map((f) => f.rule))].sort();

describe('the OpenAPI document under the stock linter rulesets', () => {
  it('Spectral spectral:oas and Redocly recommended: 0 errors, 0 warnings on the document; the rules they ask for on a document without them', async () => {
    const bad = broken();
    const golden = join(scratch, 'golden.json');
    writeFileSync(golden, readFileSync(join(REPO, 'test/generator/golden/openapi/expected/generated/openapi/openapi.json.golden')));
    const findings = await lintOpenApi([OPENAPI_DOCUMENT, golden, bad.path]);
    const on = (file: string) => findings.filter((f) => f.file === file);
    const shown = (fs: readonly LintFinding[]) => fs.map((f) => `${f.linter}/${f.rule} ${f.severity} at ${f.pointer}: ${f.message}`);
    expect(shown(on(OPENAPI_DOCUMENT))).toEqual([]);
    expect(shown(on(golden))).toEqual([]);
    expect(rulesOf(on(bad.path), 'spectral')).toEqual(bad.expected.spectral);
    expect(rulesOf(on(bad.path), 'redocly')).toEqual(bad.expected.redocly);
    expect(on(bad.path).filter((f) => f.linter === 'redocly' && f.severity === 'error').length).toBeGreaterThan(0);
    expect(findings.filter((f) => ![OPENAPI_DOCUMENT, golden, bad.path].includes(f.file))).toEqual([]);
  }, 45_000);

  it('uses the stock rulesets only, and the repository holds no ruleset, override or ignore file of either linter', async () => {
    expect(SPECTRAL_RULESET).toBe('extends: ["spectral:oas"]\n');
    expect(REDOCLY_RULESET).toBe('recommended');
    expect(await lintConfigFilesIn()).toEqual([]);
    // The names the search looks for are the ones the linters read.
    const names = ['.spectral.yaml', '.spectral.yml', '.spectral.json', '.spectral.js', 'spectral.mjs', 'redocly.yaml', '.redocly.yaml', 'redocly.yml', '.redocly.lint-ignore.yaml'];
    expect(names.filter((n) => !LINT_CONFIG_NAMES.some((re) => re.test(n)))).toEqual([]);
    expect(['spectral.md', 'redocly.ts', 'openapi.json'].filter((n) => LINT_CONFIG_NAMES.some((re) => re.test(n)))).toEqual([]);
  });

  it('every operation has a description naming its success status, body and every error status', () => {
    const doc = openApiDocument(new Resolved(corpus)) as unknown as Doc;
    for (const [name, row] of Object.entries(table.routes) as [string, RouteRow][]) {
      const d = doc.paths[row.path]![row.method.toLowerCase()]!.description ?? '';
      expect(d, name).toContain(`Answers ${row.status ?? 200} with `);
      for (const title of [row.response, ...(row.alsoResponds ?? []), ...(row.request !== undefined ? [row.request] : [])]) expect(d, `${name} ${title}`).toContain(title);
      const errors = d.slice(d.indexOf('Errors: '));
      for (const s of errorStatusesOf(row, table.commonErrors)) expect(errors, `${name} ${s}`).toMatch(new RegExp(`\\b${s}\\b`));
      expect(d.startsWith(row.public === true ? 'Needs no key.' : row.role === 'operator' ? 'Needs an operator key' : 'Needs an API key'), name).toBe(true);
    }
    for (const item of Object.values(doc.paths)) expect(item['options']!.description).toMatch(/^Needs no key, .*answers 204 with Allow: /);
  });

  it('names the repository package.json names as the contact, and one relative server', () => {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { repository: { url: string } };
    expect(INFO_CONTACT.url).toBe(pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, ''));
    expect(committed.info.contact).toEqual(INFO_CONTACT);
    expect(committed.servers?.map((s) => s.url)).toEqual(['/']);
  });

  it('on any subset of the route table: tags used = tags declared (each described), path parameters on every operation of the path', () => {
    const names = Object.keys(table.routes);
    const file = corpus.routeTables![0]!;
    const routes = (file.data as { routes: Record<string, JsonObject> }).routes;
    fc.assert(
      fc.property(fc.subarray(names, { minLength: 1 }), (kept) => {
        const data = { ...file.data, routes: Object.fromEntries(kept.map((n) => [n, routes[n]!])) } as JsonObject;
        const sub: LoadedCorpus = { ...corpus, routeTables: [{ ...file, data }] };
        const doc = openApiDocument(new Resolved(sub)) as unknown as Doc;
        const used = new Set(Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])));
        expect(doc.tags.map((t) => t.name).sort()).toEqual([...used].sort());
        expect(doc.tags.map((t) => t.name)).toEqual(doc.tags.map((t) => t.name).sort());
        expect(doc.tags.every((t) => (t.description ?? '').length > 0)).toBe(true);
        for (const [path, item] of Object.entries(doc.paths)) {
          for (const [method, op] of Object.entries(item)) {
            const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
            expect(declared.map((p) => p.name), `${method} ${path}`).toEqual(pathParametersOf(path));
            expect(declared.every((p) => p.required === true)).toBe(true);
            expect((op.description ?? '').length, `${method} ${path}`).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 25 },
    );
  });
});
