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
    const key = `${ex.major} ${ex.target}`;
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
    for (const [key, { valid, invalid }] of byTarget) {
      const [major, target] = key.split(' ') as [string, string];
      for (const [kind, list] of [['valid', valid], ['invalid', invalid]] as const) {
        if (!list.length) continue;
        // a target two majors share names the first major's type unless --major says otherwise
        const r = await run(['validate', target, ...list, '--root', REPO, '--format', 'json', '--major', major]);
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

describe('validate across majors', () => {
  const corpus = loadCorpus(REPO);
  const v2Event = corpus.examples.find((e) => e.major === 'v2' && e.target === 'run-event' && e.kind === 'valid')!;
  const file = join(REPO, v2Event.path);
  const verdict = async (...args: string[]) => {
    const r = await run(['validate', ...args, file, '--root', REPO, '--format', 'json']);
    return { code: r.code, type: r.code === 2 ? undefined : (JSON.parse(r.out) as { type: string }).type };
  };

  it('a v2 title names the v2 type; a shared target names the first major\'s unless --major names v2', async () => {
    expect(await verdict('RunEventV2')).toEqual({ code: 0, type: 'RunEventV2' });
    expect(await verdict('run-event', '--major', 'v2')).toEqual({ code: 0, type: 'RunEventV2' });
    expect(await verdict('run-event')).toEqual({ code: 1, type: 'RunEvent' });
  });

  it('a major with no generated validators is a usage error', async () => {
    const r = await run(['validate', 'run-event', file, '--root', REPO, '--major', 'v9']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--major v9: no generated validators for it');
  });
});
