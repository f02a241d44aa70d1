/**
 * What `npm pack` / `npm publish` would ship, per package (scripts/package-layout.ts): the files the layout gives it
 * (no declaration maps: the sources they point at are not shipped), the schemas without their examples, README,
 * LICENSE, NOTICE, CHANGELOG — and for wopkit the bin, executable. The repository itself cannot be published.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGES, codeExports, manifestOf, npm, packageDir, rootManifest, ROOT, skipUnbuilt, type PackageLayout } from '../support/built-package.ts';
import { holds, repositoryExports, schemaFoldersOf, shippedReadme, type RootManifest } from '../../scripts/package-layout.ts';
import { corpusConfig } from '../../generator/corpus-config.ts';

interface Packed { files: { path: string; mode: number }[]; entryCount: number; size: number }

const skip = skipUnbuilt();
const DOCUMENTS = ['package.json', 'README.md', 'LICENSE', 'NOTICE', 'CHANGELOG.md'];

it('the repository package.json is private: only the assembled packages can be published; its exports are the wopkit package\'s, in dist/', () => {
  const root = rootManifest();
  expect((root as unknown as { private?: boolean }).private).toBe(true);
  expect(root.exports).toEqual(repositoryExports(root as unknown as RootManifest));
});

describe.skipIf(skip).each(PACKAGES.map((p) => [p.name, p] as const))('the %s tarball', (_name, p: PackageLayout) => {
  let packed: Packed;
  let paths: string[];
  beforeAll(() => {
    packed = (JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], packageDir(p)).stdout) as Packed[])[0]!;
    paths = packed.files.map((f) => f.path);
  });

  it('ships only its own files from the compiled tree, the schema files and the package documents', () => {
    const folders = schemaFoldersOf(p, corpusConfig(ROOT).families!);
    const allowed = (path: string) => holds(p, path.replace(/\.d\.ts$/, '.js')) || folders.some((f) => new RegExp(`^schemas/${f}/[^/]+\\.schema\\.json$`).test(path)) || DOCUMENTS.includes(path);
    expect(paths.filter((path) => !allowed(path))).toEqual([]);
    for (const doc of DOCUMENTS) expect(paths, doc).toContain(doc);
  });

  it('leaves out tests, benchmarks, the site, examples, fixtures, results, TypeScript sources and declaration maps', () => {
    // The runtime's own fixture runner (runtime/openwop/fixtures/: the upstream conformance fixture workflows a host serves) is code and ships.
    const excluded = paths.filter((path) => /(^|\/)(test|bench|site|examples|results|node_modules)\//.test(path) || (/(^|\/)fixtures\//.test(path) && !path.startsWith('runtime/')) || (path.endsWith('.ts') && !path.endsWith('.d.ts')) || path.endsWith('.map') || path.endsWith('.tsbuildinfo'));
    expect(excluded).toEqual([]);
  });

  it('ships its README as the repository has it now, less the figure of its own size, and LICENSE, NOTICE, CHANGELOG as they are', () => {
    // dist/ older than the repository's documents fails here: run npm run build (or npm run figures).
    expect(readFileSync(join(packageDir(p), 'README.md'), 'utf8'), 'README.md (dist/ is older: npm run build)').toBe(shippedReadme(p, readFileSync(join(ROOT, p.readme), 'utf8')));
    for (const doc of ['LICENSE', 'NOTICE', 'CHANGELOG.md']) expect(readFileSync(join(packageDir(p), doc), 'utf8'), `${doc} (dist/ is older: npm run build)`).toBe(readFileSync(join(ROOT, doc), 'utf8'));
  });

  it('ships every schema of the family majors it carries (a validators package: those it was generated from and they reference)', () => {
    const folders = schemaFoldersOf(p, corpusConfig(ROOT).families!);
    expect(folders.length).toBeGreaterThan(0);
    const repo = folders.flatMap((f) => readdirSync(join(ROOT, 'schemas', f)).filter((n) => n.endsWith('.schema.json')).map((n) => `schemas/${f}/${n}`));
    expect(paths.filter((path) => path.startsWith('schemas/')).sort()).toEqual(repo.sort());
  });

  it('ships the target of every export and of main/types', () => {
    const m = manifestOf(p);
    const targets = [m.main, m.types, ...codeExports(p).flatMap((e) => [e.types, e.js].map((t) => t.slice(packageDir(p).length + 1)))].map((t) => t.replace(/^\.\//, ''));
    expect(targets.filter((t) => !paths.includes(t))).toEqual([]);
  });

  it('carries the repository version and the oldest Node it is tested on', () => {
    const m = manifestOf(p);
    expect(m.version).toBe(rootManifest().version);
    expect(m.engines.node).toBe(`>=${p.node}`);
  });

  // A package without a bin has nothing to check here (the test is not defined, rather than skipped).
  if (p.bin !== undefined)
    it('keeps the bin: shipped executable, with a node shebang', () => {
      for (const bin of Object.values(manifestOf(p).bin ?? {})) {
        const file = packed.files.find((f) => f.path === bin);
        expect(file, bin).toBeDefined();
        expect(file!.mode & 0o111, 'executable bits').toBe(0o111);
        expect(readFileSync(join(packageDir(p), bin), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
      }
    });

  it('npm publish --dry-run publishes it unchanged (no bin removed, nothing auto-corrected)', () => {
    const { stdout, stderr } = npm(['publish', '--dry-run', '--ignore-scripts', '--access', 'public'], packageDir(p));
    const m = manifestOf(p);
    expect(stdout).toContain(`+ ${m.name}@${m.version}`);
    expect(stderr.split('\n').filter((l) => /bin\b|bin\[|auto-corrected|corrected|invalid|No bin file/i.test(l))).toEqual([]);
  }, 120_000);
});
