/**
 * Declaration files a consumer compiles against: tsc leaves `.ts` specifiers in emitted `.d.ts` files, which a
 * `nodenext` consumer without `allowImportingTsExtensions` cannot use; the build rewrites them to `.js`, and an import
 * into another package's files to that package's name.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crossPackageSpecifiers, leftoverTsSpecifiers, rewriteDeclarationSpecifiers } from '../../scripts/build.ts';
import { PACKAGES, codeExports, packageDir, skipUnbuilt } from '../support/built-package.ts';

describe('declaration specifier rewrite', () => {
  it('rewrites relative .ts/.mts/.cts module specifiers only, keeping every length', () => {
    const source = [
      "import type { A } from './a.ts';",
      "export * from '../b/c.ts';",
      "export type * from './d.mts';",
      "export declare const x: import('./e.ts').E;",
      "export declare const note = './not-a-specifier.ts';",
      "import type { F } from 'pkg/f.ts';",
      "declare module './g.cts' {}",
    ].join('\n');
    const out = rewriteDeclarationSpecifiers('x.d.ts', source);
    expect(out).toBe([
      "import type { A } from './a.js';",
      "export * from '../b/c.js';",
      "export type * from './d.mjs';",
      "export declare const x: import('./e.js').E;",
      "export declare const note = './not-a-specifier.ts';",
      "import type { F } from 'pkg/f.ts';",
      "declare module './g.cjs' {}",
    ].join('\n'));
    expect(out.length).toBe(source.length);
    expect(leftoverTsSpecifiers('x.d.ts', out)).toEqual([]);
  });

  it('an import into the validators package becomes its name; any other import out of a package fails the build', () => {
    const wopkit = PACKAGES.find((p) => p.name === 'wopkit')!;
    const js = [
      "import { validateMemoryEntry } from '../../generated/validators/validators.js';",
      "export * from '../generated/guards/index.js';",
      "const m = await import('../../generated/run-events/index.js');",
      "import { local } from './local.js';",
    ].join('\n');
    expect(crossPackageSpecifiers(wopkit, 'runtime/memory/x.js', js.replace("'../generated/guards", "'../../generated/guards"))).toBe([
      "import { validateMemoryEntry } from '@wopkit/validators';",
      "export * from '@wopkit/validators/guards';",
      "const m = await import('@wopkit/validators/run-events');",
      "import { local } from './local.js';",
    ].join('\n'));
    expect(crossPackageSpecifiers(wopkit, 'entry/index.d.ts', "export type * from '../generated/ts/index.js';")).toBe("export type * from '@wopkit/validators/types';");
    expect(() => crossPackageSpecifiers(wopkit, 'runtime/x.js', "import '../generated/validators/runtime.js';")).toThrow(/runtime\/x\.js \(package wopkit\) imports \.\.\/generated\/validators\/runtime\.js, which is in @wopkit\/validators and not one of its entry points/);
    expect(() => crossPackageSpecifiers(wopkit, 'runtime/x.js', "import '../generated/site-data/index.json';")).toThrow(/which is in no package/);
    expect(() => crossPackageSpecifiers(wopkit, 'runtime/x.js', "import '../scripts/build.js';")).toThrow(/in no package/);
  });
});

const skip = skipUnbuilt();

describe.skipIf(skip)('declarations in the assembled packages', () => {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  const files = () => PACKAGES.flatMap((p) => walk(packageDir(p)).filter((f) => !f.includes('/schemas/')));

  it('no declaration file imports a relative .ts specifier', () => {
    const left = files().filter((f) => f.endsWith('.d.ts')).flatMap((f) => leftoverTsSpecifiers(f, readFileSync(f, 'utf8')).map((s) => `${f}: ${s}`));
    expect(left).toEqual([]);
  });

  it('every compiled module has its declarations (and, but for the generated validators and their re-exports, its declaration map)', () => {
    const all = new Set(files());
    const js = [...all].filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(100);
    expect(js.filter((f) => !all.has(f.replace(/\.js$/, '.d.ts')))).toEqual([]);
    // The generated validators are JavaScript the generator writes with their .d.ts, and wopkit/validators/<Title> are
    // two-line re-exports the build writes (wopkit/v2/validators/<Title> too): neither has TypeScript sources to map to.
    const unmapped = (f: string) => f.includes('/generated/validators/') || f.includes('/entry/validators/') || f.includes('/entry/v2/validators/');
    expect(js.filter((f) => !unmapped(f) && !all.has(f.replace(/\.js$/, '.d.ts.map')))).toEqual([]);
  });

  it('every export has its JavaScript and declarations', () => {
    expect(PACKAGES.flatMap((p) => codeExports(p).flatMap((e) => [e.js, e.types])).filter((f) => !existsSync(f))).toEqual([]);
  });
});
