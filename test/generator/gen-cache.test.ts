/**
 * The input hash of `gen` (generator/gen-hash.ts): `gen --check` answers without emitting when nothing changed, and
 * takes the full path (which names the files) as soon as an input or a generated file changed. Which path ran is
 * read from the output (`fastPath` in the JSON), never from timing. Also: quicktype's worker threads give the same
 * code however the targets are shared, and a failure in a worker is reported.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, scratchFixture } from './helpers.ts';
import { readRecord } from '../../generator/gen-hash.ts';
import { generatorPackages } from '../../generator/packages.ts';
import { loadCorpus } from '../../generator/load.ts';
import { resolveCorpus } from '../../generator/resolve.ts';
import { topLevelTypes } from '../../generator/emit/other-languages/index.ts';
import { languagesFor } from '../../generator/emit/other-languages/languages.ts';
import { outputNames } from '../../generator/corpus-config.ts';
import { renderInWorkers } from '../../generator/emit/other-languages/render-job.ts';
import { GENERATED } from '../../generator/naming.ts';

const check = async (root: string) => {
  const r = await run(['gen', '--check', '--root', root, '--format', 'json']);
  return { code: r.code, body: JSON.parse(r.out) as Record<string, unknown> };
};

describe('gen --check and the input hash (scratch copy of the fixture corpus)', () => {
  // One full gen, copied for every test (each test changes its copy).
  let generated = { root: '', cleanup: () => {} };
  let root = '';
  beforeAll(async () => {
    generated = scratchFixture();
    expect((await run(['gen', '--all', '--root', generated.root])).code).toBe(0);
  });
  afterAll(() => generated.cleanup());
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'wopkit-gen-cache-'));
    cpSync(generated.root, root, { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('gen records the hash; with nothing changed gen --check takes the fast path (json field and text line)', async () => {
    const record = readRecord(root);
    expect(record?.inputs).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(record!.files)).toContain(GENERATED.guards);
    const { code, body } = await check(root);
    expect(code).toBe(0);
    expect(body).toMatchObject({ ok: true, fastPath: true, stale: [], missing: [], extra: [] });
    expect(body['files']).toBe(Object.keys(record!.files).length);
    const text = await run(['gen', '--check', '--root', root]);
    expect(text.out).toMatch(/^gen --check: generated\/ is up to date \(\d+ files, \d+ ms; input hash unchanged, nothing emitted\)$/);
  });

  it('gen again writes neither files nor the record', async () => {
    const r = await run(['gen', '--root', root, '--format', 'json']);
    expect(JSON.parse(r.out)).toMatchObject({ written: [], removed: [], hashRecordWritten: false });
  });

  it('editing a schema: the full path runs and reports the stale files; gen repairs and re-records', async () => {
    const p = join(root, 'schemas/demo/v1/shared.schema.json');
    const s = JSON.parse(readFileSync(p, 'utf8'));
    s.$defs.Label.description = 'A label, now described differently.';
    writeFileSync(p, JSON.stringify(s, null, 2));
    const { code, body } = await check(root);
    expect(code).toBe(1);
    expect(body).toMatchObject({ fastPath: false, fastPathMiss: 'inputs-changed' });
    expect((body['stale'] as string[]).length).toBeGreaterThan(0);
    const ownsAfterAll = readRecord(root)!.owns;
    expect((await run(['gen', '--root', root])).code).toBe(0);
    expect((await check(root)).body).toMatchObject({ ok: true, fastPath: true });
    // the record gen rewrites lists the owned paths as gen --all does (sorted): which command ran last does not churn it
    expect(readRecord(root)!.owns).toEqual(ownsAfterAll);
    expect([...ownsAfterAll]).toEqual([...ownsAfterAll].sort());
  });

  it('an input change that changes no output: full path, clean, and the record is reported out of date (not an error)', async () => {
    const p = join(root, 'schemas/demo/v1/shared.schema.json');
    writeFileSync(p, `${readFileSync(p, 'utf8')}\n\n`);
    const { code, body } = await check(root);
    expect(code).toBe(0);
    expect(body).toMatchObject({ ok: true, fastPath: false, fastPathMiss: 'inputs-changed', hashRecordCurrent: false });
    expect((await run(['gen', '--check', '--root', root])).out).toMatch(/note: the input hash record is out of date/);
  });

  it('a hand-edited generated file is reported stale (full path)', async () => {
    appendFileSync(join(root, GENERATED.guards), '// hand edit\n');
    const { code, body } = await check(root);
    expect(code).toBe(1);
    expect(body).toMatchObject({ fastPath: false, fastPathMiss: 'generated-files-differ', stale: [GENERATED.guards] });
  });

  it('a deleted or an extra generated file is reported (full path)', async () => {
    rmSync(join(root, GENERATED.guards));
    writeFileSync(join(root, `${GENERATED.types}stray.ts`), 'export {};\n');
    const { code, body } = await check(root);
    expect(code).toBe(1);
    expect(body).toMatchObject({ fastPath: false, fastPathMiss: 'generated-files-differ', missing: [GENERATED.guards], extra: [`${GENERATED.types}stray.ts`] });
  });

  it('no record (or an unreadable one): full path, clean', async () => {
    for (const content of [undefined, '{ not json']) {
      if (content === undefined) rmSync(join(root, GENERATED.genHash));
      else writeFileSync(join(root, GENERATED.genHash), content);
      const { code, body } = await check(root);
      expect(code).toBe(0);
      expect(body).toMatchObject({ ok: true, fastPath: false, fastPathMiss: 'no-record', hashRecordCurrent: false });
    }
  });

  it('a record whose file hashes were tampered with does not make a stale tree pass', async () => {
    const record = readRecord(root)!;
    appendFileSync(join(root, GENERATED.guards), '// hand edit\n');
    writeFileSync(join(root, GENERATED.genHash), JSON.stringify({ ...record, files: { ...record.files, [GENERATED.guards]: '0'.repeat(64) } }));
    expect((await check(root)).body).toMatchObject({ fastPath: false, stale: [GENERATED.guards] });
  });
});

describe('what the input hash covers', () => {
  it('the packages the generator imports, with their dependencies and versions; a missing one as missing', () => {
    const version = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../node_modules', name, 'package.json'), 'utf8')).version as string;
    const pkgs = generatorPackages([
      "import { quicktype } from 'quicktype-core';",
      "export { x } from 'ajv/dist/2020.js';",
      "const m = await import('not-an-installed-package');",
      "import { readFileSync } from 'node:fs';",
      "const text = `import { T } from '${specifier}';`;",
    ]);
    expect(pkgs).toContain(`quicktype-core@${version('quicktype-core')}`);
    expect(pkgs).toContain(`ajv@${version('ajv')}`);
    expect(pkgs).toContain(`pako@${version('pako')}`); // a dependency of quicktype-core
    expect(pkgs).toContain('not-an-installed-package@missing');
    expect(pkgs.some((p) => p.includes('node:') || p.includes('$'))).toBe(false);
  });
});

describe('quicktype in worker threads', () => {
  const resolved = resolveCorpus(loadCorpus(join(import.meta.dirname, '../fixtures/corpus')));
  const job = {
    schemas: resolved.corpus.schemas.map((s) => [s.id, s.schema] as const),
    tops: topLevelTypes(resolved).map((t) => ({ name: t.name, uri: t.uri })),
    targets: languagesFor(outputNames(resolved.corpus.config)).map((l) => ({ lang: l.lang, options: l.options })),
  };

  it('the same code in target order however the targets are shared among workers', async () => {
    const one = await renderInWorkers(job, 1);
    expect(one).toHaveLength(job.targets.length);
    expect(await renderInWorkers(job, 3)).toEqual(one);
  });

  it('a failure inside a worker rejects with its message', async () => {
    await expect(renderInWorkers({ ...job, tops: [{ name: 'Nope', uri: 'https://example.invalid/nope.json' }] }, 1)).rejects.toThrow(/./);
  });
});
