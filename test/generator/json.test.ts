/** The JSON error locator used for "malformed JSON at line L, column C" agrees with JSON.parse (fast-check). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonErrorOffset, parseJson } from '../../generator/json.ts';
import { CorpusError } from '../../generator/errors.ts';

const parses = (s: string): boolean => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

/** JSON texts, and texts one edit away from JSON (a character dropped, inserted or replaced). */
const nearJson = fc
  .tuple(fc.tuple(fc.jsonValue(), fc.constantFrom(0, 2)).map(([v, indent]) => JSON.stringify(v, null, indent)), fc.nat(), fc.constantFrom('drop', 'insert', 'replace', 'none'), fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', '0', '-', 'e', ' ', '\n', 'x', '\u0001'))
  .map(([text, n, op, ch]) => {
    const i = text.length ? n % text.length : 0;
    if (op === 'drop') return text.slice(0, i) + text.slice(i + 1);
    if (op === 'insert') return text.slice(0, i) + ch + text.slice(i);
    if (op === 'replace') return text.slice(0, i) + ch + text.slice(i + 1);
    return text;
  });

describe('JSON error location', () => {
  it('finds an error exactly when JSON.parse fails, on near-JSON and on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(nearJson, fc.string(), fc.string({ unit: 'binary' })), (text) => {
        expect(jsonErrorOffset(text) < 0, JSON.stringify(text)).toBe(parses(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('names line and column; a leading byte-order mark is accepted', () => {
    expect(() => parseJson('{\n  "a": 1,\n  oops\n}', 'f.json')).toThrow(/line 3, column 3: unexpected "o"/);
    expect(() => parseJson('[1, 2', 'f.json')).toThrow(/unexpected end of input/);
    expect(parseJson('\uFEFF{"a": [1]}', 'f.json')).toEqual({ a: [1] });
    let thrown: unknown;
    try {
      parseJson('\uFEFF{"a": }', 'f.json');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CorpusError);
    expect((thrown as CorpusError).file).toBe('f.json');
    expect((thrown as Error).message).toBe('malformed JSON at line 1, column 7: unexpected "}"');
  });
});
