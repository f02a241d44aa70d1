/** Each lint rule fires on a minimal violation of the fixture corpus, with file and pointer. */
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../generator/load.ts';
import { LINT_RULES, lintRuleList, lintCorpus as lintResolved, checkExamples as checkResolved, type Finding } from '../../generator/lint.ts';
import type { Example, JsonObject, LoadedCorpus as Corpus, SchemaFile } from '../../generator/model.ts';
import { resolveCorpus } from '../../generator/resolve.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE, REPO } from './helpers.ts';

const base = loadCorpus(FIXTURE);
/** Each stage takes the previous stage's value: load → resolve → lint. */
const lintCorpus = (c: Corpus) => lintResolved(resolveCorpus(c));
const checkExamples = (c: Corpus) => checkResolved(resolveCorpus(c));

/** A corpus with one schema file changed by `edit`. */
function withSchema(stem: string, edit: (s: JsonObject) => void, corpus: Corpus = base): Corpus {
  return {
    ...corpus,
    schemas: corpus.schemas.map((f): SchemaFile => {
      if (f.stem !== stem) return f;
      const schema = structuredClone(f.schema);
      edit(schema);
      return { ...f, schema, id: typeof schema['$id'] === 'string' ? schema['$id'] : f.id };
    }),
  };
}
const rules = (fs: Finding[]) => fs.map((f) => `${f.rule} ${f.file}#${f.pointer}`);
const obj = (v: unknown) => v as JsonObject;

describe('lint', () => {
  it('the fixture corpus is clean', () => {
    expect(lintCorpus(base)).toEqual([]);
    expect(checkExamples(base).findings).toEqual([]);
  });

  const SHARED = 'schemas/demo/v1/shared.schema.json';
  const CONFIG = 'schemas/demo/v1/config.schema.json';
  const cases: [string, Corpus, string][] = [
    ['schema-draft', withSchema('shared', (s) => (s['$schema'] = 'http://json-schema.org/draft-07/schema#')), `schema-draft ${SHARED}#/$schema`],
    ['id-base', withSchema('shared', (s) => (s['$id'] = 'https://example.com/shared.schema.json')), `id-base ${SHARED}#/$id`],
    ['file-name', { ...base, schemas: base.schemas.map((f) => (f.stem === 'shared' ? { ...f, stem: 'Shared_Types', fileName: 'Shared_Types.schema.json' } : f)) }, `file-name ${SHARED}#`],
    ['schema-discriminator', withSchema('config', (s) => (obj(s['properties'])['schema'] = { description: 'Schema discriminator.', const: 'demo.config.v2' })), `schema-discriminator ${CONFIG}#/properties/schema/const`],
    ['title', withSchema('shared', (s) => delete obj(obj(s['$defs'])['Label'])['title']), `title ${SHARED}#/$defs/Label/title`],
    ['title-reserved', withSchema('shared', (s) => (obj(obj(s['$defs'])['Label'])['title'] = 'Record')), `title-reserved ${SHARED}#/$defs/Label/title`],
    ['title-unique', withSchema('config', (s) => (obj(obj(s['$defs'])['Extras'])['title'] = 'DemoLabel')), `title-unique ${SHARED}#/$defs/Label/title`],
    ['description', withSchema('config', (s) => delete s['description']), `description ${CONFIG}#/description`],
    ['property-description', withSchema('config', (s) => delete obj(obj(s['properties'])['createdAt'])['description']), `property-description ${CONFIG}#/properties/createdAt`],
    ['object-openness', withSchema('config', (s) => delete obj(obj(s['$defs'])['Extras'])['additionalProperties']), `object-openness ${CONFIG}#/$defs/Extras`],
    ['ref-relative', withSchema('config', (s) => (obj(obj(s['properties'])['label'])['$ref'] = 'https://wopkit.dev/schemas/demo/v1/shared.schema.json#/$defs/Label')), `ref-relative ${CONFIG}#/properties/label/$ref`],
    ['ref-resolves', withSchema('config', (s) => (obj(obj(s['properties'])['label'])['$ref'] = './missing.schema.json')), `ref-resolves ${CONFIG}#/properties/label/$ref`],
    ['strict-compile', withSchema('config', (s) => (obj(obj(s['properties'])['createdAt'])['minimum'] = 1)), `strict-compile ${CONFIG}#/properties/createdAt`],
    ['type-index', withSchema('run-event-payloads', (s) => (obj(s['x-type-index'])['demo.gone'] = '#/$defs/gone')), 'type-index schemas/demo/v1/run-event-payloads.schema.json#/x-type-index/demo.gone'],
    ['runtime-rules', withSchema('shared', (s) => (obj(obj(s['$defs'])['Settings'])['x-runtime-rules'] = [{ id: 'Not Kebab', text: 'x' }])), `runtime-rules ${SHARED}#/$defs/Settings/x-runtime-rules/0`],
    ['examples-present', { ...base, examples: base.examples.filter((e) => !(e.target === 'config--Extras' && e.kind === 'invalid')) }, `examples-present ${CONFIG}#/$defs/Extras`],
    ['example-target', { ...base, examples: [...base.examples, { ...base.examples[0]!, target: 'config--Nope', path: 'schemas/demo/v1/examples/config--Nope/valid/x.json' }] }, 'example-target schemas/demo/v1/examples/config--Nope/valid/x.json#'],
    ['meta-schema', withSchema('config', (s) => (obj(obj(s['properties'])['parts'])['minItems'] = 'one')), `meta-schema ${CONFIG}#/properties/parts/minItems`],
    ['schema-shape', withSchema('config', (s) => (obj(s['$defs'])['Broken'] = 3)), `schema-shape ${CONFIG}#/$defs/Broken`],
    ['x-source', withSchema('shared', (s) => (s['x-source'] = 5)), `x-source ${SHARED}#/x-source`],
    ['example-schema', { ...base, examples: base.examples.map((e) => (e.target === 'config' && e.kind === 'valid' ? { ...e, declaredSchema: undefined } : e)) }, 'example-schema schemas/demo/v1/examples/config/valid/full.json#/$schema'],
    ['direction', withSchema('config', (s) => delete s['x-direction']), `direction ${CONFIG}#/x-direction`],
    // the same stem in another family of the same major (two majors may share one: each major has its own folders)
    ['file-stem-unique', { ...base, schemas: [...base.schemas, ...base.schemas.filter((f) => f.stem === 'shared').map((f) => ({ ...f, family: 'other', path: 'schemas/other/v1/shared.schema.json' }))] }, 'file-stem-unique schemas/other/v1/shared.schema.json#'],
    ['route-table', { ...base, routeTables: [{ path: 'schemas/demo/v1/routes.json', family: 'demo', text: '', data: { commonErrors: { always: [500], authenticated: [401], body: [400] }, parameters: {}, routes: { thing: { kind: 'protocol', method: 'GET', path: '/v1/thing', response: 'NoSuchTitle', role: 'tenant', summary: 'A thing.', errors: [] } } } }] }, 'route-table schemas/demo/v1/routes.json#/routes/thing/response'],
    ['majors-table', { ...base, majorTables: [{ path: 'schemas/demo/majors/event-names.json', family: 'demo', name: 'event-names', data: { rows: [{ v1: 'a.done', v2: 'a.done' }, { v1: 'a.done', v2: 'b.done' }] } }] }, 'majors-table schemas/demo/majors/event-names.json#/rows/1/v1'],
    ['loads', { ...base, problems: [{ file: 'schemas/demo/v1/broken.schema.json', pointer: '', message: 'malformed JSON at line 1, column 2: unexpected "x"' }] }, 'loads schemas/demo/v1/broken.schema.json#'],
  ];
  it.each(cases)('%s', (_rule, corpus, expected) => {
    expect(rules(lintCorpus(corpus))).toContain(expected);
  });

  it('file-stem-unique: one stem in two majors is fine (a later major\'s modules sit in its own folders)', () => {
    const twoMajors = { ...base, schemas: [...base.schemas, ...base.schemas.filter((f) => f.stem === 'shared').map((f) => ({ ...f, major: 'v2', path: 'schemas/demo/v2/shared.schema.json' }))] };
    expect(rules(lintCorpus(twoMajors)).filter((x) => x.startsWith('file-stem-unique'))).toEqual([]);
  });

  it('majors-table: a row of this repository\'s event-name table that breaks the schema beside it is found at its pointer', () => {
    const repo = loadCorpus(REPO);
    const tables = repo.majorTables!.map((t) =>
      t.name === 'event-names' ? { ...t, data: { ...t.data, rows: [{ v1: 'a.done', v2: 'Not A Name', registered: true }, ...(t.data['rows'] as JsonObject[]).slice(1)] } } : t,
    );
    const found = rules(lintResolved(resolveCorpus({ ...repo, majorTables: tables }))).filter((x) => x.startsWith('majors-table'));
    expect(found).toEqual(['majors-table schemas/openwop/majors/event-names.json#/rows/0/v2']);
    expect(rules(lintResolved(resolveCorpus(repo))).filter((x) => x.startsWith('majors-table'))).toEqual([]);
  });

  it('every rule of the table has a case above, and every id is unique', () => {
    const ids = LINT_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(cases.map(([rule]) => rule).sort()).toEqual([...ids].sort());
  });

  it("docs/generator.md lists exactly the table's rules, with their one-line docs", () => {
    for (const r of LINT_RULES) expect(r.doc, r.id).not.toMatch(/\n/);
    const docs = readFileSync(join(REPO, 'docs/generator.md'), 'utf8');
    const block = /<!-- lint-rules: begin[^\n]*-->\n([\s\S]*?)\n?<!-- lint-rules: end -->/.exec(docs);
    expect(block, 'docs/generator.md has a lint-rules block').not.toBeNull();
    expect(block![1]).toBe(lintRuleList());
  });

  it('check-examples: a valid example that fails, an invalid one that passes, and a wrong expected pointer', () => {
    const ex = base.examples;
    const broken: Corpus = {
      ...base,
      examples: ex.map((e): Example => {
        if (e.target === 'config--Extras' && e.kind === 'valid') return { ...e, instance: { note: 5 } };
        if (e.target === 'config--TextPart' && e.kind === 'invalid') return { ...e, instance: { kind: 'text', text: 'fine' } };
        if (e.target === 'config--RefPart' && e.kind === 'invalid') return { ...e, expect: { instancePath: '/kind', keyword: 'const' } };
        return e;
      }),
    };
    const f = checkExamples(broken).findings;
    expect(rules(f)).toEqual(
      expect.arrayContaining([
        'example-valid schemas/demo/v1/examples/config--Extras/valid/open.json#/note',
        'example-invalid schemas/demo/v1/examples/config--TextPart/invalid/empty-text.json#/instance',
        'example-invalid schemas/demo/v1/examples/config--RefPart/invalid/bad-ref.json#/kind',
      ]),
    );
  });
});
