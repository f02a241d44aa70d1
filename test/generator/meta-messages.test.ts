/**
 * Human messages for schema mistakes: meta-schema violations name the keyword, the value and what is allowed, with the
 * file, line and pointer; unknown keywords get a did-you-mean; lint keeps going past a file that does not load.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from '../../generator/load.ts';
import { resolveCorpus } from '../../generator/resolve.ts';
import { lintCorpus, type Finding } from '../../generator/lint.ts';
import { jsonLocator, pointerOffsets } from '../../generator/json-locate.ts';
import { didYouMean } from '../../generator/meta-messages.ts';
import { run, scratchFixture } from './helpers.ts';

const CONFIG = 'schemas/demo/v1/config.schema.json';

describe('JSON pointer → line locator', () => {
  const text = '{\n  "a": {\n    "runtime/ref": [1,\n      {"x~y": true}]\n  },\n  "b": "s"\n}\n';
  it('finds keys of members and array elements, with escaped segments', () => {
    const at = jsonLocator(text);
    expect(at('')).toEqual({ line: 1, column: 1 });
    expect(at('/a')).toEqual({ line: 2, column: 3 });
    expect(at('/a/runtime~1ref')).toEqual({ line: 3, column: 5 });
    expect(at("/a/runtime~1ref/0")).toEqual({ line: 3, column: 21 });
    expect(at('/a/runtime~1ref/1/x~0y')).toEqual({ line: 4, column: 8 });
    expect(at('/b')).toEqual({ line: 6, column: 3 });
  });
  it('a pointer that does not exist falls back to its longest existing prefix', () => {
    expect(jsonLocator(text)('/a/missing/deeper')).toEqual({ line: 2, column: 3 });
  });
  it('records every pointer of the document', () => {
    expect([...pointerOffsets(text).keys()].sort()).toEqual(['', '/a', '/a/runtime~1ref', '/a/runtime~1ref/0', '/a/runtime~1ref/1', '/a/runtime~1ref/1/x~0y', '/b']);
  });
});

describe('did you mean', () => {
  it('suggests the closest keyword within two edits, or none', () => {
    const known = ['minLength', 'maxLength', 'minItems', 'properties', 'additionalProperties'];
    expect(didYouMean('minLenght', known)).toBe('minLength');
    expect(didYouMean('propertes', known)).toBe('properties');
    expect(didYouMean('MinItems', known)).toBe('minItems');
    expect(didYouMean('colour', known)).toBeUndefined();
  });
});

describe('meta-schema and strict-mode messages on a scratch copy of the fixture corpus', () => {
  let root = '';
  let cleanup = () => {};
  beforeEach(() => ({ root, cleanup } = scratchFixture()));
  afterEach(() => cleanup());

  /** Edit config.schema.json (written with two-space indentation, so lines are predictable) and lint the corpus. */
  function lintWith(edit: (s: Record<string, any>) => void): Finding[] {
    const p = join(root, CONFIG);
    const s = JSON.parse(readFileSync(p, 'utf8'));
    edit(s);
    writeFileSync(p, `${JSON.stringify(s, null, 2)}\n`);
    return lintCorpus(resolveCorpus(loadCorpus(root, { keepGoing: true })));
  }
  const lineOf = (pointerKey: string) => readFileSync(join(root, CONFIG), 'utf8').split('\n').findIndex((l) => l.includes(pointerKey)) + 1;

  it('"type": "strng" is one message naming the value and the allowed types, with file, line and pointer', () => {
    const findings = lintWith((s) => (s.properties.createdAt.type = 'strng'));
    expect(findings).toEqual([
      {
        file: CONFIG,
        pointer: '/properties/createdAt/type',
        rule: 'meta-schema',
        message: 'not a valid draft 2020-12 schema: `type` is `strng`; expected one of array, boolean, integer, null, number, object, string',
        line: lineOf('"strng"'),
        column: 7,
      },
    ]);
  });

  it('a bad member of a type list is named by its index', () => {
    const [f] = lintWith((s) => (s.properties.createdAt.type = ['string', 'nul']));
    expect(f).toMatchObject({ pointer: '/properties/createdAt/type/1', message: expect.stringContaining('`type[1]` is `nul`; expected one of array, boolean') });
  });

  it.each([
    ['minItems', (s: Record<string, any>) => (s.properties.parts.minItems = 'one'), '/properties/parts/minItems', '`minItems` is `"one"`, a string; expected a non-negative integer'],
    ['required', (s: Record<string, any>) => (s.required = 'label'), '/required', '`required` is `"label"`, a string; expected an array of distinct strings'],
    ['additionalProperties', (s: Record<string, any>) => (s.additionalProperties = 'no'), '/additionalProperties', '`additionalProperties` is `"no"`, a string; expected a schema (an object, true or false)'],
    ['pattern', (s: Record<string, any>) => (s.properties.createdAt.pattern = '(unclosed'), '/properties/createdAt/pattern', '`pattern` is `"(unclosed"`; expected a valid regular expression (Unterminated group)'],
    ['required duplicate', (s: Record<string, any>) => (s.required = ['label', 'label']), '/required', '`required` lists `"label"` twice'],
  ])('wrong value of a keyword: %s', (_name, edit, pointer, message) => {
    const findings = lintWith(edit);
    expect(findings.map((f) => f.pointer)).toEqual([pointer]); // one message per mistake, not Ajv's three
    expect(findings[0]!.message).toContain(message);
    expect(findings[0]!.line).toBeGreaterThan(1);
  });

  it('an unknown keyword is reported where it is written, with a did-you-mean; the rest of the corpus is not buried in consequences', () => {
    const findings = lintWith((s) => (s.properties.createdAt.minLenght = 3));
    expect(findings).toEqual([
      expect.objectContaining({
        file: CONFIG,
        pointer: '/properties/createdAt/minLenght',
        rule: 'strict-compile',
        message: expect.stringMatching(/^unknown keyword `minLenght` \(did you mean `minLength`\?\)/),
        line: lineOf('"minLenght"'),
      }),
    ]);
  });

  it('lint keeps going past malformed files: each is one finding with its line, and the other files are checked', async () => {
    writeFileSync(join(root, 'schemas/demo/v1/shared.schema.json'), '{\n  "title": "X",\n  oops\n}\n');
    writeFileSync(join(root, 'schemas/demo/v1/examples/config/valid/broken.json'), '{\n  "label": 1,\n}\n');
    const s = JSON.parse(readFileSync(join(root, CONFIG), 'utf8'));
    s.properties.createdAt.type = 'strng';
    writeFileSync(join(root, CONFIG), JSON.stringify(s, null, 2));
    const r = await run(['lint', '--root', root, '--format', 'json']);
    expect(r.code).toBe(1);
    const findings: Finding[] = JSON.parse(r.out).findings;
    expect(findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'schemas/demo/v1/shared.schema.json', rule: 'loads', line: 3, column: 3, message: expect.stringContaining('malformed JSON at line 3, column 3') }),
        expect.objectContaining({ file: 'schemas/demo/v1/examples/config/valid/broken.json', rule: 'loads', line: 3, column: 1 }),
        expect.objectContaining({ file: CONFIG, rule: 'meta-schema', pointer: '/properties/createdAt/type' }),
      ]),
    );
    // The examples of the schema that did not load are not reported one by one.
    expect(findings.filter((f) => f.file.includes('/examples/shared'))).toEqual([]);
    const text = await run(['lint', '--root', root]);
    expect(text.out).toMatch(/^schemas\/demo\/v1\/shared\.schema\.json:3:3: malformed JSON at line 3, column 3: unexpected "o" \[loads\]$/m);
    expect(text.out).toMatch(/^schemas\/demo\/v1\/config\.schema\.json:\d+:\d+: #\/properties\/createdAt\/type: not a valid draft 2020-12 schema: `type` is `strng`/m);
  });
});
