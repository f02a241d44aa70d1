/**
 * Keywords the validator emitter gained for OpenWOP v2 (validators/ir.ts, check-code.ts, report-runtime.ts):
 * `patternProperties` (alone, beside `properties`, and with `additionalProperties` false or a schema: a key matching a
 * pattern is not additional), format `uri`, and `unevaluatedProperties: true` (validates nothing; any other value is
 * refused with its pointer). Each has a valid and an invalid instance, and our verdict and errors equal Ajv's on those
 * and on generated objects (fast-check).
 */
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Resolved } from '../../generator/resolve.ts';
import { emitValidators } from '../../generator/emit/validators.ts';
import { createAjv } from '../../generator/ajv.ts';
import { DEFAULT_CONFIG } from '../../generator/corpus-config.ts';
import { CorpusError } from '../../generator/errors.ts';
import type { JsonObject, LoadedCorpus } from '../../generator/model.ts';

const ID = 'https://example.org/schemas/demo/v1/keys.schema.json';
const str = { description: 'A string.', type: 'string' };
const defs: Record<string, JsonObject> = {
  Patterned: {
    title: 'Patterned',
    description: 'Named a, extension keys x-…, nothing else.',
    type: 'object',
    properties: { a: { description: 'A number.', type: 'number' } },
    patternProperties: { '^x-': str },
    additionalProperties: false,
  },
  PatternsOnly: {
    title: 'PatternsOnly',
    description: 'Two overlapping patterns; other keys must be booleans.',
    type: 'object',
    patternProperties: { '^n[0-9]+$': { description: 'A count.', type: 'integer', minimum: 0 }, '[0-9]$': { description: 'Ends in a digit.', type: 'number', maximum: 9 } },
    additionalProperties: { description: 'A flag.', type: 'boolean' },
  },
  Link: { title: 'Link', description: 'A URI.', type: 'string', format: 'uri' },
  Open: {
    title: 'Open',
    description: 'Open through unevaluatedProperties.',
    type: 'object',
    properties: { a: str },
    required: ['a'],
    unevaluatedProperties: true,
  },
};

function corpusOf(schemaDefs: Record<string, JsonObject>): LoadedCorpus {
  const schema: JsonObject = { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: ID, $defs: schemaDefs };
  return {
    root: '/nonexistent',
    config: DEFAULT_CONFIG,
    schemas: [{ family: 'demo', major: 'v1', fileName: 'keys.schema.json', stem: 'keys', path: 'schemas/demo/v1/keys.schema.json', id: ID, schema }],
    examples: [],
  };
}

const scratch = mkdtempSync(join(tmpdir(), 'wopkit-keywords-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface V {
  (d: unknown): boolean;
  errors?: unknown[] | null;
}
async function ours(): Promise<Record<string, V>> {
  const files = [...emitValidators(new Resolved(corpusOf(defs))), { path: 'generated/package.json', contents: '{ "type": "module" }\n' }];
  for (const f of files) {
    mkdirSync(dirname(join(scratch, f.path)), { recursive: true });
    writeFileSync(join(scratch, f.path), f.contents);
  }
  return (await import(pathToFileURL(join(scratch, 'generated/validators/validators.js')).href)) as Record<string, V>;
}
const ajv = createAjv({ allErrors: true });
ajv.addSchema(corpusOf(defs).schemas[0]!.schema);
const reference = (title: string) => ajv.getSchema(`${ID}#/$defs/${title}`)!;
const comparable = (errors: unknown[] | null | undefined) =>
  (errors ?? []).map((e) => {
    const { instancePath, keyword, params, message } = e as Record<string, unknown>;
    return { instancePath, keyword, params, message };
  });

/** Our validator and Ajv agree on x (verdict and every error); returns the verdict. */
function agree(v: V, title: string, x: unknown): boolean {
  const ref = reference(title);
  const verdict = v(x);
  expect(verdict, `${title} ${JSON.stringify(x)}`).toBe(ref(x));
  expect(comparable(v.errors), `${title} ${JSON.stringify(x)}`).toEqual(comparable(ref.errors as unknown[]));
  return verdict;
}

const CASES: [title: string, valid: unknown[], invalid: [unknown, string, string][]][] = [
  ['Patterned', [{ a: 1 }, { a: 1, 'x-b': 'y' }, { 'x-': '' }], [[{ 'x-b': 2 }, '/x-b', 'type'], [{ b: 1 }, '', 'additionalProperties'], [{ a: 1, 'y-x': 's' }, '', 'additionalProperties']]],
  ['PatternsOnly', [{}, { n1: 5, flag: true }, { n12: 9, z9: 3 }], [[{ n1: -1 }, '/n1', 'minimum'], [{ n1: 12 }, '/n1', 'maximum'], [{ flag: 'yes' }, '/flag', 'type'], [{ a9: 10 }, '/a9', 'maximum']]],
  ['Link', ['https://wopkit.dev/x?y=1#z', 'urn:isbn:0451450523', 'mailto:a@b.c', 'http://[::1]:8080/'], [['not a uri', '', 'format'], ['//no-scheme', '', 'format'], ['http://[1::2::3]/', '', 'format']]],
  ['Open', [{ a: 'x' }, { a: 'x', anything: [1, 2] }], [[{ b: 'x' }, '', 'required'], [{ a: 1 }, '/a', 'type']]],
];

describe('validator emitter keywords for v2', () => {
  it.each(CASES)('%s: valid instances pass, invalid ones fail for their reason, as Ajv says', async (title, valid, invalid) => {
    const v = (await ours())[`validate${title}`]!;
    for (const x of valid) expect(agree(v, title, x), JSON.stringify(x)).toBe(true);
    for (const [x, instancePath, keyword] of invalid) {
      expect(agree(v, title, x), JSON.stringify(x)).toBe(false);
      expect((v.errors ?? []).map((e) => `${(e as { instancePath: string }).instancePath} ${(e as { keyword: string }).keyword}`)).toContain(`${instancePath} ${keyword}`);
    }
  });

  it('patternProperties with properties and additionalProperties: Ajv\'s verdict and errors on generated objects', async () => {
    const validators = await ours();
    const key = fc.oneof(fc.constantFrom('a', 'b', 'x-', 'x-1', 'n1', 'n10', 'z9', 'flag', 'x-n1'), fc.string({ maxLength: 4 }));
    const value = fc.oneof(fc.integer({ min: -3, max: 15 }), fc.boolean(), fc.string({ maxLength: 3 }), fc.constant(null));
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 5 }), fc.constantFrom('Patterned', 'PatternsOnly', 'Open'), (x, title) => {
        agree(validators[`validate${title}`]!, title, x);
      }),
      { numRuns: 1500 },
    );
  });

  it('format uri: Ajv\'s verdict on generated URLs and near misses', async () => {
    const v = (await ours())['validateLink']!;
    const nearMiss = fc.tuple(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.constantFrom('', ' ', '%', '[', '::', '%4', '#%zz')).map(([u, junk]) => u + junk);
    fc.assert(fc.property(fc.oneof(fc.webUrl(), nearMiss, fc.string({ maxLength: 12 })), (s) => void agree(v, 'Link', s)), { numRuns: 1500 });
  });

  it.each([false, { description: 'Strings only.', type: 'string' }])('unevaluatedProperties %j is refused with its pointer, not skipped', (value) => {
    const bad = { ...defs, Open: { ...defs['Open']!, unevaluatedProperties: value } };
    let thrown: unknown;
    try {
      emitValidators(new Resolved(corpusOf(bad)));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CorpusError);
    expect((thrown as CorpusError).pointer).toBe('/$defs/Open/unevaluatedProperties');
    expect((thrown as CorpusError).message).toContain('"unevaluatedProperties" is supported only as true');
  });
});
