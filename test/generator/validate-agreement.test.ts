/**
 * `validate` and `check-examples` agree on every example of this repository's corpus: each valid example file is
 * valid for `validate <its target>` (its editor `$schema` is not data), each invalid example file is invalid (its
 * `instance` is what validates), because both take what validates from generator/example-instance.ts.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadCorpus } from '../../generator/load.ts';
import { validatedPart, withoutEditorSchema } from '../../generator/example-instance.ts';
import { REPO, run } from './helpers.ts';

describe('validate and check-examples agree', () => {
  const corpus = loadCorpus(REPO);
  const byTarget = new Map<string, { valid: string[]; invalid: string[] }>();
  for (const ex of corpus.examples) {
    const key = ex.target;
    const entry = byTarget.get(key) ?? { valid: [], invalid: [] };
    entry[ex.kind].push(join(REPO, ex.path));
    byTarget.set(key, entry);
  }

  it('check-examples finds every example as declared', async () => {
    expect((await run(['check-examples', '--root', REPO])).code).toBe(0);
  });

  it('validate gives each example file the verdict its folder declares', async () => {
    let files = 0;
    const wrong: string[] = [];
    for (const [target, { valid, invalid }] of byTarget) {
      for (const [kind, list] of [['valid', valid], ['invalid', invalid]] as const) {
        if (!list.length) continue;
        const r = await run(['validate', target, ...list, '--root', REPO, '--format', 'json']);
        const results = JSON.parse(r.out).results as { file: string; valid: boolean }[];
        files += results.length;
        for (const res of results) if (res.valid !== (kind === 'valid')) wrong.push(`${kind} ${res.file}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(files).toBe(corpus.examples.length);
  });

  it('the editor $schema is taken out in one place, the same for a valid file and an invalid wrapper', () => {
    const doc = { $schema: 'https://example.org/s/x.schema.json', a: 1 };
    expect(withoutEditorSchema(doc)).toEqual({ instance: { a: 1 }, declaredSchema: doc.$schema });
    expect(validatedPart(doc, 'schemas/x/v1/examples/x/valid/a.json')).toEqual({ a: 1 });
    const wrapper = { description: 'd', expect: { instancePath: '', keyword: 'required' }, instance: doc };
    expect(validatedPart(wrapper, 'schemas/x/v1/examples/x/invalid/a.json')).toEqual({ a: 1 });
    // Outside an invalid-example folder a document is validated whole (a wrapper-looking instance stays as it is).
    expect(validatedPart(wrapper, 'elsewhere/a.json')).toEqual(wrapper);
  });
});
