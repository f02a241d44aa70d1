/**
 * The API reference's build pieces (site/typedoc/): which entry points are documented, the names and
 * introductions modules get, the URLs the API index gives, the links back to the schema reference, and the gate
 * that fails the site build on any typedoc warning (typedoc's treatWarningsAsErrors only stops its own CLI).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Application, TSConfigReader } from 'typedoc';
import { afterAll, describe, expect, it } from 'vitest';
import { siteUrlOfTypedocFile } from '../../site/typedoc/api-index.ts';
import { leadingDocComment } from '../../site/typedoc/module-comments.ts';
import { backlinkText, readSchemaTargets } from '../../site/typedoc/schema-backlinks.ts';
import { packageSubpaths, typedocModuleName } from '../../site/typedoc/subpaths.ts';
import { installWarningsGate, TypedocWarningsError } from '../../site/typedoc/warnings-gate.ts';
import type { SchemaDoc, SiteIndex } from '../../generator/site-data-format.ts';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Parameters<typeof packageSubpaths>[0];
const typedocConfig = JSON.parse(readFileSync('typedoc.json', 'utf8')) as { entryPoints: string[]; treatWarningsAsErrors: boolean; plugin: string[] };

describe('API reference entry points', () => {
  it('are exactly the code subpaths of package.json exports, in the same order', () => {
    const subpaths = packageSubpaths(pkg);
    expect(subpaths.map((s) => s.name)).toEqual(['wopkit', 'wopkit/validators', 'wopkit/guards', 'wopkit/run-events', 'wopkit/v2', 'wopkit/v2/validators', 'wopkit/v2/guards', 'wopkit/v2/run-events', 'wopkit/runtime', 'wopkit/host', 'wopkit/conformance']);
    expect(typedocConfig.entryPoints).toEqual(subpaths.map((s) => s.entry));
  });
  it('are told apart by file name (the module name typedoc gives them before the plugin renames them)', () => {
    const names = packageSubpaths(pkg).map((s) => typedocModuleName(s.entry));
    expect(new Set(names).size).toBe(names.length);
  });
  it('are documented with the zero-warning rule and the site plugin', () => {
    expect(typedocConfig.treatWarningsAsErrors).toBe(true);
    expect(typedocConfig.plugin).toContain('./site/typedoc/plugin.ts');
  });
  it('take their module introduction from the barrel’s leading doc comment', () => {
    expect(leadingDocComment('/**\n * `wopkit/x` — does *this*.\n * Second line.\n */\nexport * from "./y.ts";')).toBe('`wopkit/x` — does *this*.\nSecond line.');
    expect(leadingDocComment('export const a = 1;')).toBeUndefined();
    expect(leadingDocComment(readFileSync('entry/guards.ts', 'utf8'))).toMatch(/^`wopkit\/guards` — /);
  });
});

describe('API index URLs', () => {
  it('follow Starlight’s routes for typedoc’s Markdown files', () => {
    expect(siteUrlOfTypedocFile('wopkit/interfaces/MemoryEntry.md')).toBe('/api/wopkit/interfaces/memoryentry/');
    expect(siteUrlOfTypedocFile('wopkit/guards/index.md#ismemoryentry')).toBe('/api/wopkit/guards/#ismemoryentry');
    expect(siteUrlOfTypedocFile('index.md')).toBe('/api/');
    expect(siteUrlOfTypedocFile('wopkit/run-events/type-aliases/PayloadOf.md')).toBe('/api/wopkit/run-events/type-aliases/payloadof/');
  });
});

describe('links from the API back to the schema reference', () => {
  const targets = readSchemaTargets('generated/site-data', 'wopkit');
  const index = JSON.parse(readFileSync('generated/site-data/index.json', 'utf8')) as SiteIndex;
  it('exist for every generated type, its validator and its guards', () => {
    const types = targets.get('wopkit')!;
    const docs = index.families.flatMap((f) => f.schemas.map((s) => JSON.parse(readFileSync(join('generated/site-data', s.data), 'utf8')) as SchemaDoc));
    const generated = docs.flatMap((d) => d.definitions).filter((d) => d.isType);
    expect(generated.length).toBeGreaterThan(100);
    for (const d of generated) expect(types.has(d.title), d.title).toBe(true);
    expect(targets.get('wopkit')!.get('MemoryEntry')).toMatchObject({ kind: 'type', url: '/schemas/openwop/memory-entry/#MemoryEntry' });
    expect(targets.get('wopkit/validators')!.get('validateMemoryEntry')).toMatchObject({ kind: 'validator' });
    expect(targets.get('wopkit/guards')!.get('assertMemoryEntry')).toMatchObject({ kind: 'guard' });
  });
  it('are written as a Markdown line naming the definition and its file', () => {
    expect(backlinkText(targets.get('wopkit')!.get('MemoryEntry')!)).toBe(
      '**Schema:** [MemoryEntry](/schemas/openwop/memory-entry/#MemoryEntry) in `memory-entry.schema.json` (schema reference).',
    );
  });
});

describe('the zero-warning gate', () => {
  const out = mkdtempSync(join(tmpdir(), 'wopkit-typedoc-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  /** typedoc with the Markdown output and the gate, as starlight-typedoc drives it (no CLI). */
  async function render(entry: string): Promise<void> {
    const app = await Application.bootstrapWithPlugins({
      entryPoints: [`test/site/fixtures/typedoc/${entry}`],
      tsconfig: 'test/site/fixtures/typedoc/tsconfig.json',
      plugin: ['typedoc-plugin-markdown'],
      out, // typedoc empties its output directory first: never let it default to ./docs
      readme: 'none',
      disableSources: true, // no source links: a checkout without a usable git remote would warn about them
      logLevel: 'None',
      skipErrorChecking: true,
      treatWarningsAsErrors: true,
      validation: { invalidLink: true, notExported: false, notDocumented: false },
    }, [new TSConfigReader()]); // not the repository's typedoc.json
    installWarningsGate(app);
    const project = await app.convert();
    if (project === undefined) throw new Error('typedoc could not convert the fixture');
    await app.generateOutputs(project);
  }
  it('lets a project with no warning render', async () => {
    await expect(render('clean.ts')).resolves.toBeUndefined();
  }, 60_000);
  it('fails the render when typedoc warned (a {@link} that resolves to nothing)', async () => {
    await expect(render('broken-link.ts')).rejects.toThrow(TypedocWarningsError);
  }, 60_000);
});
