/**
 * What `npm pack` / `npm publish` would ship: dist/ (no declaration maps: the sources they point at are not
 * shipped), the schemas without their examples, README, LICENSE, NOTICE, CHANGELOG — and the bin, executable.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeExports, npm, packageJson, ROOT, skipUnbuilt } from '../support/built-package.ts';

interface Packed { files: { path: string; mode: number }[]; entryCount: number; size: number }

const skip = skipUnbuilt();

describe.skipIf(skip)('the package tarball', () => {
  let packed: Packed;
  let paths: string[];
  beforeAll(() => {
    packed = (JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts']).stdout) as Packed[])[0]!;
    paths = packed.files.map((f) => f.path);
  });

  it('ships only dist/, the schema files and the package documents', () => {
    const allowed = (p: string) =>
      p.startsWith('dist/') || /^schemas\/(openwop|inquirium)\/v1\/[^/]+\.schema\.json$/.test(p) || ['package.json', 'README.md', 'LICENSE', 'NOTICE', 'CHANGELOG.md'].includes(p);
    expect(paths.filter((p) => !allowed(p))).toEqual([]);
    for (const doc of ['package.json', 'README.md', 'LICENSE', 'NOTICE', 'CHANGELOG.md']) expect(paths, doc).toContain(doc);
  });

  it('leaves out tests, benchmarks, the site, examples, fixtures, results, TypeScript sources and declaration maps', () => {
    // Test fixtures stay out; the runtime's own fixture runner (dist/runtime/openwop/fixtures/, the upstream
    // conformance fixture workflows a host serves) is code and ships.
    const excluded = paths.filter((p) => /(^|\/)(test|bench|site|examples|results|node_modules)\//.test(p) || (/(^|\/)fixtures\//.test(p) && !p.startsWith('dist/runtime/')) || (p.endsWith('.ts') && !p.endsWith('.d.ts')) || p.endsWith('.map') || p.endsWith('.tsbuildinfo'));
    expect(excluded).toEqual([]);
  });

  it('ships every schema of both families', () => {
    const repo = ['openwop', 'inquirium'].flatMap((f) => readdirSync(join(ROOT, 'schemas', f, 'v1')).filter((n) => n.endsWith('.schema.json')).map((n) => `schemas/${f}/v1/${n}`));
    expect(paths.filter((p) => p.startsWith('schemas/')).sort()).toEqual(repo.sort());
  });

  it('ships the target of every export and of main/types', () => {
    const pkg = packageJson() as ReturnType<typeof packageJson> & { main: string; types: string };
    const targets = [pkg.main, pkg.types, ...codeExports().flatMap((e) => [e.types, e.js])].map((t) => t.replace(/^\.\//, ''));
    expect(targets.filter((t) => !paths.includes(t))).toEqual([]);
  });

  it('keeps the bin: shipped executable, with a node shebang', () => {
    const bin = packageJson().bin.wopkit!;
    const file = packed.files.find((f) => f.path === bin);
    expect(file, bin).toBeDefined();
    expect(file!.mode & 0o111, 'executable bits').toBe(0o111);
    expect(readFileSync(join(ROOT, bin), 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('npm publish --dry-run publishes it unchanged (no bin removed, nothing auto-corrected)', () => {
    const { stdout, stderr } = npm(['publish', '--dry-run', '--ignore-scripts']);
    const pkg = packageJson();
    expect(stdout).toContain(`+ ${pkg.name}@${pkg.version}`);
    expect(stderr.split('\n').filter((l) => /bin\b|bin\[|auto-corrected|corrected|invalid|No bin file/i.test(l))).toEqual([]);
  }, 120_000);
});
