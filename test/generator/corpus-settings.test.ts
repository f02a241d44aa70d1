/**
 * The corpus settings (`"wopkit"` in the package.json beside schemas/, generator/corpus-config.ts): checked by a table
 * (an unknown key or a bad value is one error naming package.json and the pointer), the families × majors they name are
 * what is loaded, every path and `$id` comes from (family, major), the `$id` base and the type-name rule come from them,
 * and the generated names derive from the corpus name (this repository's settings name today's names).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CorpusError } from '../../generator/errors.ts';
import { corpusConfig, outputNames, parseCorpusConfig } from '../../generator/corpus-config.ts';
import { idBaseOf, schemaId, schemaPath } from '../../generator/naming.ts';
import { loadCorpus } from '../../generator/load.ts';
import { resolveCorpus } from '../../generator/resolve.ts';
import { lintCorpus } from '../../generator/lint.ts';
import { languagesFor } from '../../generator/emit/other-languages/languages.ts';
import { REPO, run, scratchFixture } from './helpers.ts';

/** The error a settings object gets (undefined: accepted). */
const refusal = (own: unknown): { message: string; pointer: string } | undefined => {
  try {
    parseCorpusConfig(own);
    return undefined;
  } catch (e) {
    if (!(e instanceof CorpusError)) throw e;
    expect(e.file).toBe('package.json');
    return { message: e.message, pointer: e.pointer };
  }
};

/** Every JSON file under `dir`, recursively. */
const jsonFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? jsonFiles(join(dir, d.name)) : d.name.endsWith('.json') ? [join(dir, d.name)] : []));

/** Move the fixture's demo/v1 to `<family>/<major>` under a new `$id` base (schema ids and example `$schema`s). */
function rehome(root: string, idBase: string, family: string, major: string): void {
  mkdirSync(join(root, 'schemas', family), { recursive: true });
  renameSync(join(root, 'schemas/demo/v1'), join(root, 'schemas', family, major));
  for (const file of jsonFiles(join(root, 'schemas')))
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('https://wopkit.dev/schemas/demo/v1/', `${idBase}${family}/${major}/`));
}

describe('the settings table', () => {
  it('accepts every setting this repository uses, and names today\'s outputs', () => {
    const config = corpusConfig(REPO);
    expect(config).toMatchObject({ idBase: 'https://wopkit.dev/schemas/', families: { openwop: ['v1', 'v2'], inquirium: ['v1'] }, editorSettings: true, openapi: true });
    expect(languagesFor(outputNames(config)).map((l) => [l.file, l.options['package'] ?? l.options['namespace'] ?? ''])).toEqual([
      ['python/wopkit_types.py', ''],
      ['go/wopkit/types.go', 'wopkit'],
      ['rust/types.rs', ''],
      ['csharp/WopkitTypes.cs', 'Wopkit.Generated'],
      ['kotlin/WopkitTypes.kt', 'wopkit'],
      ['swift/WopkitTypes.swift', ''],
    ]);
  });

  it.each([
    [{ idBse: 'x' }, '/wopkit/idBse', /unknown generator setting "idBse"/],
    [{ idBase: 'https://example.org/schemas' }, '/wopkit/idBase', /ending with "\/"/],
    [{ families: { acme: [] } }, '/wopkit/families', /non-empty array/],
    [{ families: { acme: ['1'] } }, '/wopkit/families', /majors/],
    [{ families: { acme: ['v1', 'v1'] } }, '/wopkit/families', /distinct/],
    [{ typeName: '[a-' }, '/wopkit/typeName', /regular expression/],
    [{ output: { go: { pkg: 'x' } } }, '/wopkit/output/go/pkg', /unknown generator setting "pkg" \(known: package\)/],
    [{ output: { csharp: { namespace: 'Acme..Gen' } } }, '/wopkit/output/csharp/namespace', /dotted name/],
    [{ output: { python: { module: 'Acme' } } }, '/wopkit/output/python/module', /lower-case identifier/],
    [{ output: 'acme' }, '/wopkit/output', /an object/],
    [[], '/wopkit', /must be an object/],
  ])('refuses %j at its pointer', (own, pointer, message) => {
    const r = refusal(own);
    expect(r?.pointer).toBe(pointer);
    expect(r?.message).toMatch(message);
  });

  it('derives every output name from the corpus name, and a name given wins', () => {
    expect(outputNames({ output: { name: 'acme-spec' } })).toMatchObject({
      name: 'acme-spec', command: 'npm run gen', pythonModule: 'acme_spec_types', goPackage: 'acmespec', rustModule: 'types',
      csharpNamespace: 'AcmeSpec.Generated', csharpFile: 'AcmeSpecTypes', kotlinPackage: 'acmespec', kotlinFile: 'AcmeSpecTypes', swiftFile: 'AcmeSpecTypes',
    });
    expect(outputNames({ output: { name: 'acme', go: { package: 'acmetypes' }, csharp: { file: 'Acme' } } })).toMatchObject({ goPackage: 'acmetypes', csharpFile: 'Acme', csharpNamespace: 'Acme.Generated' });
    // No name: the package name (scope dropped), else "corpus".
    expect(outputNames(parseCorpusConfig(undefined, '@acme/spec-kit')).pythonModule).toBe('spec_kit_types');
    expect(outputNames(parseCorpusConfig(undefined)).goPackage).toBe('corpus');
  });

  it('every derived name is a valid name in its language, whatever the corpus name (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (name) => {
        const n = outputNames({ output: { name } });
        expect(n.pythonModule).toMatch(/^[a-z_][a-z0-9_]*$/);
        expect(n.goPackage).toMatch(/^[a-z][a-z0-9]*$/);
        expect(n.csharpNamespace).toMatch(/^[A-Z][A-Za-z0-9]*\.Generated$/);
        expect([n.csharpFile, n.kotlinFile, n.swiftFile].every((f) => /^[A-Z][A-Za-z0-9]*$/.test(f))).toBe(true);
      }),
    );
  });
});

describe('paths and ids from (family, major)', () => {
  it('schemaId and idBaseOf are inverses for any base, family, major and file (property)', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
    fc.assert(
      fc.property(word, word, fc.integer({ min: 1, max: 99 }), word, (host, family, n, stem) => {
        const base = `https://${host}.example/s/`;
        const folder = { family, major: `v${n}` };
        const id = schemaId(base, folder, `${stem}.schema.json`);
        expect(idBaseOf(id, folder, `${stem}.schema.json`)).toBe(base);
        expect(id.endsWith(schemaPath(folder, `${stem}.schema.json`).replace(/^schemas\//, ''))).toBe(true);
        expect(idBaseOf(id, { family, major: `v${n + 1}` }, `${stem}.schema.json`)).toBeUndefined();
      }),
    );
  });
});

describe('a corpus under its own base, family and major', () => {
  let cleanup = () => {};
  afterEach(() => cleanup());
  const scratch = (): string => {
    const s = scratchFixture();
    cleanup = s.cleanup;
    return s.root;
  };
  const settings = (root: string, own: object) => writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'acme', wopkit: own }));

  it('loads schemas/<family>/<major>/, infers the base its ids share, and lints clean', async () => {
    const root = scratch();
    rehome(root, 'https://acme.example/spec/', 'acme', 'v3');
    const corpus = loadCorpus(root);
    expect(corpus.idBase).toBe('https://acme.example/spec/');
    expect(new Set(corpus.schemas.map((f) => `${f.family}/${f.major}`))).toEqual(new Set(['acme/v3']));
    expect(corpus.schemas.map((f) => f.path)).toContain('schemas/acme/v3/config.schema.json');
    expect(lintCorpus(resolveCorpus(corpus))).toEqual([]);
    expect((await run(['check-examples', '--root', root])).code).toBe(0);
  });

  it('the idBase setting is what lint requires; lint --fix writes the $schema lint then accepts', async () => {
    const root = scratch();
    rehome(root, 'https://acme.example/spec/', 'acme', 'v3');
    settings(root, { idBase: 'https://acme.example/other/' });
    const before = JSON.parse((await run(['lint', '--root', root, '--format', 'json'])).out);
    expect(before.findings.filter((f: { rule: string }) => f.rule === 'id-base')).toHaveLength(4);
    expect(before.findings.find((f: { rule: string }) => f.rule === 'id-base').message).toContain('"https://acme.example/other/acme/v3/');
    // --fix names the $id the id-base rule requires in every example, so example-schema is clean afterwards.
    const after = JSON.parse((await run(['lint', '--fix', '--root', root, '--format', 'json'])).out);
    expect(after.findings.filter((f: { rule: string }) => f.rule === 'example-schema')).toEqual([]);
    expect(readFileSync(join(root, 'schemas/acme/v3/examples/config/valid/full.json'), 'utf8')).toContain('"$schema": "https://acme.example/other/acme/v3/config.schema.json"');
  });

  it('loads only the families and majors the settings name; a named folder that is missing is an error at its pointer', async () => {
    const root = scratch();
    rehome(root, 'https://acme.example/spec/', 'acme', 'v1');
    // Another major on disk, not named: not loaded (its files may be work in progress).
    mkdirSync(join(root, 'schemas/acme/v2'));
    writeFileSync(join(root, 'schemas/acme/v2/broken.schema.json'), '{ not json');
    settings(root, { families: { acme: ['v1'] } });
    expect(loadCorpus(root).schemas.every((f) => f.major === 'v1')).toBe(true);
    expect((await run(['lint', '--root', root])).code).toBe(0);
    settings(root, { families: { acme: ['v1', 'v4'] } });
    const r = await run(['lint', '--root', root]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('package.json#/wopkit/families/acme/1: the settings name schemas/acme/v4/, which is not a directory');
  });

  it('two majors of one family load side by side, each file under its own folder and $id', () => {
    const root = scratch();
    rehome(root, 'https://acme.example/spec/', 'acme', 'v1');
    mkdirSync(join(root, 'schemas/acme/v2'));
    const v2 = { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://acme.example/spec/acme/v2/note.schema.json', title: 'Note', description: 'A note.', 'x-direction': 'both', type: 'string' };
    writeFileSync(join(root, 'schemas/acme/v2/note.schema.json'), JSON.stringify(v2));
    settings(root, { families: { acme: ['v1', 'v2'] } });
    const corpus = loadCorpus(root);
    const note = corpus.schemas.find((f) => f.stem === 'note');
    expect(note).toMatchObject({ family: 'acme', major: 'v2', path: 'schemas/acme/v2/note.schema.json' });
    expect(lintCorpus(resolveCorpus(corpus)).filter((f) => f.rule === 'id-base')).toEqual([]);
  });

  it('the typeName setting allows lower-case titles; words a declaration cannot take stay reserved', () => {
    const root = scratch();
    const shared = join(root, 'schemas/demo/v1/shared.schema.json');
    writeFileSync(shared, readFileSync(shared, 'utf8').replace('"title": "DemoRef"', '"title": "demoRef"'));
    const titles = (own: object) => {
      settings(root, own);
      return lintCorpus(resolveCorpus(loadCorpus(root))).filter((f) => f.rule.startsWith('title')).map((f) => `${f.rule} ${f.pointer}`);
    };
    expect(titles({})).toEqual(['title /title']);
    expect(titles({ typeName: '[a-z][A-Za-z0-9]*|[A-Z][A-Za-z0-9]*' })).toEqual([]);
    writeFileSync(shared, readFileSync(shared, 'utf8').replace('"title": "demoRef"', '"title": "class"'));
    expect(titles({ typeName: '[a-z][A-Za-z0-9]*|[A-Z][A-Za-z0-9]*' })).toEqual(['title-reserved /title']);
    // A pattern never lets through a title that is no identifier.
    writeFileSync(shared, readFileSync(shared, 'utf8').replace('"title": "class"', '"title": "demo-ref"'));
    expect(titles({ typeName: '.+' })).toEqual(['title /title']);
  });
});
