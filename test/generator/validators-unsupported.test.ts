/**
 * The validator emitter never skips a keyword silently: a keyword it does not implement stops generation with an
 * error naming the schema file and the keyword's JSON pointer (case: test/generator/golden/validators/unsupported/,
 * a corpus whose only problem is a `dependentSchemas`).
 */
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCorpus } from '../../generator/load.ts';
import { resolveCorpus } from '../../generator/resolve.ts';
import { lintCorpus } from '../../generator/lint.ts';
import { emitValidators } from '../../generator/emit/validators.ts';
import { CorpusError } from '../../generator/errors.ts';
import { REPO, run } from './helpers.ts';

const CASE = join(REPO, 'test/generator/golden/validators/unsupported');
const expected = JSON.parse(readFileSync(join(CASE, 'expected-error.json'), 'utf8')) as { file: string; pointer: string; message: string };

describe('validator emitter: unsupported keyword', () => {
  it('the case corpus is otherwise clean (lint finds nothing)', () => {
    expect(lintCorpus(resolveCorpus(loadCorpus(CASE)))).toEqual([]);
  });

  it('the emitter throws a CorpusError naming file and pointer', () => {
    let thrown: unknown;
    try {
      emitValidators(resolveCorpus(loadCorpus(CASE)));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CorpusError);
    const e = thrown as CorpusError;
    expect({ file: e.file, pointer: e.pointer, message: e.message }).toEqual(expected);
  });

  it('gen exits 2 with that one line', async () => {
    const root = mkdtempSync(join(tmpdir(), 'wopkit-unsupported-'));
    try {
      cpSync(join(CASE, 'schemas'), join(root, 'schemas'), { recursive: true });
      const res = await run(['gen', '--root', root]);
      expect(res.code).toBe(2);
      expect(res.err).toContain(expected.file);
      expect(res.err).toContain(expected.pointer);
      expect(res.err).toContain('"dependentSchemas" is not supported');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
