/**
 * `wopkit lint --format sarif`: a SARIF 2.1.0 log whose shape is checked against the parts of the SARIF 2.1.0 schema
 * the writer uses (written out below from the standard's required properties), with the lint rule table as
 * `tool.driver.rules` and one result per finding (file, line/column when known, the JSON pointer as a property).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { LINT_RULES } from '../../generator/lint.ts';
import { run, scratchFixture } from './helpers.ts';

/** The SARIF 2.1.0 structure a consumer needs from us (sarifLog → run → tool.driver.rules, results → locations). */
const uri = { type: 'string', format: 'uri' } as const;
const level = { enum: ['none', 'note', 'warning', 'error'] } as const;
const SARIF_SUBSET = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['version', 'runs'],
  properties: { $schema: uri, version: { const: '2.1.0' }, runs: { type: 'array', minItems: 1, items: { $ref: '#/$defs/run' } } },
  $defs: {
    message: { type: 'object', required: ['text'], properties: { text: { type: 'string', minLength: 1 }, markdown: { type: 'string' } } },
    run: {
      type: 'object',
      required: ['tool', 'results'],
      properties: {
        tool: { type: 'object', required: ['driver'], properties: { driver: { $ref: '#/$defs/driver' } } },
        originalUriBaseIds: { type: 'object', additionalProperties: { type: 'object', required: ['uri'], properties: { uri } } },
        columnKind: { enum: ['utf16CodeUnits', 'unicodeCodePoints'] },
        results: { type: 'array', items: { $ref: '#/$defs/result' } },
      },
    },
    driver: {
      type: 'object',
      required: ['name', 'rules'],
      properties: { name: { type: 'string', minLength: 1 }, version: { type: 'string' }, informationUri: uri, rules: { type: 'array', uniqueItems: true, items: { $ref: '#/$defs/rule' } } },
    },
    rule: {
      type: 'object',
      required: ['id', 'shortDescription'],
      properties: {
        id: { type: 'string', minLength: 1 },
        name: { type: 'string' },
        shortDescription: { $ref: '#/$defs/message' },
        fullDescription: { $ref: '#/$defs/message' },
        helpUri: uri,
        defaultConfiguration: { type: 'object', properties: { level } },
      },
    },
    result: {
      type: 'object',
      required: ['message', 'ruleId', 'locations'],
      properties: {
        ruleId: { type: 'string' },
        ruleIndex: { type: 'integer', minimum: -1 },
        level,
        message: { $ref: '#/$defs/message' },
        locations: { type: 'array', minItems: 1, items: { $ref: '#/$defs/location' } },
        properties: { type: 'object', required: ['pointer'], properties: { pointer: { type: 'string' } } },
      },
    },
    location: {
      type: 'object',
      required: ['physicalLocation'],
      properties: {
        physicalLocation: {
          type: 'object',
          required: ['artifactLocation'],
          properties: {
            artifactLocation: { type: 'object', required: ['uri'], properties: { uri: { type: 'string', format: 'uri-reference' }, uriBaseId: { type: 'string' } } },
            region: { type: 'object', required: ['startLine'], properties: { startLine: { type: 'integer', minimum: 1 }, startColumn: { type: 'integer', minimum: 1 } } },
          },
        },
        logicalLocations: { type: 'array', items: { type: 'object', properties: { fullyQualifiedName: { type: 'string' }, kind: { type: 'string' } } } },
      },
    },
  },
} as const;

const ajv = new Ajv2020({ allErrors: true, strict: true });
// format checks are not what this test is about; uri-ish strings are checked below by hand
for (const f of ['uri', 'uri-reference']) ajv.addFormat(f, true);
const validSarif = ajv.compile(SARIF_SUBSET);

describe('lint --format sarif', () => {
  let root = '';
  let cleanup = () => {};
  beforeEach(() => ({ root, cleanup } = scratchFixture()));
  afterEach(() => cleanup());

  it('a clean corpus: a valid log with every lint rule and no results, exit 0', async () => {
    const r = await run(['lint', '--root', root, '--format', 'sarif']);
    expect(r.code).toBe(0);
    const log = JSON.parse(r.out);
    expect(validSarif(log), JSON.stringify(validSarif.errors)).toBe(true);
    const driver = log.runs[0].tool.driver;
    expect(driver.name).toBe('wopkit');
    expect(driver.rules.map((x: { id: string }) => x.id)).toEqual(LINT_RULES.map((x) => x.id));
    expect(driver.rules.map((x: { fullDescription: { markdown: string } }) => x.fullDescription.markdown)).toEqual(LINT_RULES.map((x) => x.doc));
    expect(log.runs[0].results).toEqual([]);
  });

  it('findings: file, line and column, the pointer as a property, a valid rule index; exit 1', async () => {
    const p = join(root, 'schemas/demo/v1/config.schema.json');
    const s = JSON.parse(readFileSync(p, 'utf8'));
    s.properties.createdAt.type = 'strng';
    writeFileSync(p, JSON.stringify(s, null, 2));
    writeFileSync(join(root, 'schemas/demo/v1/examples/config/valid/broken.json'), '{\n  "label": 1,\n}\n');
    const r = await run(['lint', '--root', root, '--format', 'sarif']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.out);
    expect(validSarif(log), JSON.stringify(validSarif.errors)).toBe(true);
    const run0 = log.runs[0];
    const rules = run0.tool.driver.rules;
    const typeLine = readFileSync(p, 'utf8').split('\n').findIndex((l) => l.includes('"strng"')) + 1;
    const meta = run0.results.find((x: { ruleId: string }) => x.ruleId === 'meta-schema');
    expect(meta).toMatchObject({
      level: 'error',
      locations: [{ physicalLocation: { artifactLocation: { uri: 'schemas/demo/v1/config.schema.json', uriBaseId: 'SRCROOT' }, region: { startLine: typeLine, startColumn: 7 } } }],
      properties: { pointer: '/properties/createdAt/type' },
    });
    expect(meta.message.text).toMatch(/`type` is `strng`; expected one of array, boolean, integer, null, number, object, string/);
    const loads = run0.results.find((x: { ruleId: string }) => x.ruleId === 'loads');
    expect(loads.locations[0].physicalLocation).toMatchObject({ artifactLocation: { uri: 'schemas/demo/v1/examples/config/valid/broken.json' }, region: { startLine: 3, startColumn: 1 } });
    for (const result of run0.results) expect(rules[result.ruleIndex].id).toBe(result.ruleId);
    expect(run0.originalUriBaseIds.SRCROOT.uri).toMatch(/^file:\/\/\/.*\/$/);
  });

  it('only lint writes SARIF; other commands refuse the format (exit 2)', async () => {
    const r = await run(['check-examples', '--root', root, '--format', 'sarif']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out).error.message).toMatch(/--format must be "text" or "json" for check-examples, not "sarif"/);
  });
});
