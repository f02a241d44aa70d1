/**
 * Declaration files a consumer compiles against: tsc leaves `.ts` specifiers in emitted `.d.ts` files, which a
 * `nodenext` consumer without `allowImportingTsExtensions` cannot use; the build rewrites them to `.js`.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { leftoverTsSpecifiers, rewriteDeclarationSpecifiers } from '../../scripts/build.ts';
import { codeExports, ROOT, skipUnbuilt } from '../support/built-package.ts';

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
});

const skip = skipUnbuilt();

describe.skipIf(skip)('declarations in dist/', () => {
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  const files = () => walk(join(ROOT, 'dist'));

  it('no declaration file imports a relative .ts specifier', () => {
    const left = files().filter((f) => f.endsWith('.d.ts')).flatMap((f) => leftoverTsSpecifiers(f, readFileSync(f, 'utf8')).map((s) => `${f.slice(ROOT.length + 1)}: ${s}`));
    expect(left).toEqual([]);
  });

  it('every compiled module has its declarations and declaration map; the validators modules their declarations', () => {
    const all = new Set(files());
    const js = [...all].filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(100);
    expect(js.filter((f) => !all.has(f.replace(/\.js$/, '.d.ts')))).toEqual([]);
    expect(js.filter((f) => !f.includes('/generated/validators/') && !all.has(f.replace(/\.js$/, '.d.ts.map')))).toEqual([]);
  });

  it('every export has its JavaScript and declarations', () => {
    expect(codeExports().flatMap((e) => [e.js, e.types]).filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });
});
