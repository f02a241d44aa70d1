/** Real corpus: every example behaves as declared under the generated validators and guards (each major's own). */
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved } from '../../generator/resolve.ts';
import { validatorIndex } from '../../generated/validators/validators.js';
import { validatorIndex as v2ValidatorIndex } from '../../generated/validators/v2/validators.js';
import { guards, ValidationError } from '../../generated/guards/index.ts';
import { guards as v2Guards, ValidationError as ValidationErrorV2 } from '../../generated/guards/v2/index.ts';
import { REPO } from '../generator/helpers.ts';

const corpus = loadCorpus(REPO);
const r = new Resolved(corpus);
const titleOf = new Map([...r.entries.values()].map((e) => [`${e.file.family}/${e.file.major}/${e.target}`, e.title]));
type Index = Record<string, { validator: ((d: unknown) => boolean) & { errors?: { instancePath: string; keyword: string }[] | null } }>;
const index = { ...validatorIndex, ...v2ValidatorIndex } as unknown as Index;
const guardIndex = { ...guards, ...v2Guards } as unknown as Record<string, { is: (v: unknown) => boolean; assert: (v: unknown) => void }>;

describe('real corpus examples', () => {
  it('has a corpus to check', () => {
    expect(corpus.schemas.length).toBeGreaterThanOrEqual(30);
    expect(corpus.examples.length).toBeGreaterThan(200);
  });

  const valid = corpus.examples.filter((e) => e.kind === 'valid');
  const invalid = corpus.examples.filter((e) => e.kind === 'invalid');

  it.each(valid.map((e) => [e.path, e] as const))('valid: %s', (_p, ex) => {
    const title = titleOf.get(`${ex.family}/${ex.major}/${ex.target}`);
    expect(title, `target ${ex.target}`).toBeTruthy();
    const entry = index[title as string];
    expect(entry, `validator for ${title}`).toBeDefined();
    const ok = entry!.validator(ex.instance);
    expect(ok, JSON.stringify(entry!.validator.errors)).toBe(true);
    expect(guardIndex[title as string]!.is(ex.instance)).toBe(true);
    expect(() => guardIndex[title as string]!.assert(ex.instance)).not.toThrow();
  });

  it.each(invalid.map((e) => [e.path, e] as const))('invalid: %s', (_p, ex) => {
    const title = titleOf.get(`${ex.family}/${ex.major}/${ex.target}`) as string;
    const entry = index[title]!;
    expect(entry.validator(ex.instance)).toBe(false);
    const hits = (entry.validator.errors ?? []).filter((e) => e.instancePath === ex.expect!.instancePath && e.keyword === ex.expect!.keyword);
    expect(hits.length, `expected ${ex.expect!.keyword} at "${ex.expect!.instancePath}", got ${JSON.stringify(entry.validator.errors?.map((e) => [e.instancePath, e.keyword]))}`).toBeGreaterThan(0);
    expect(guardIndex[title]!.is(ex.instance)).toBe(false);
    let thrown: unknown;
    try {
      guardIndex[title]!.assert(ex.instance);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ex.major === 'v2' ? ValidationErrorV2 : ValidationError);
    const err = thrown as ValidationError;
    expect(err.failures).toContainEqual(expect.objectContaining({ instancePath: ex.expect!.instancePath, keyword: ex.expect!.keyword }));
    expect(err.message).toContain(`#${ex.expect!.instancePath}: `);
  });
});
