/**
 * What each package's entry points load, on the static import graph of the assembled package (dynamic `import("…")`
 * edges followed or not) and by a real import by name on Node 24 with a resolve hook recording every module loaded:
 *
 * - @wopkit/validators reaches no package at all (no HTTP server, no database driver, no Ajv);
 * - no subpath of wopkit reaches generator code; the host reaches pg only through a dynamic import;
 * - `dependencies` is exactly what the static graphs reach, the optional peers exactly what only dynamic imports reach
 *   (so a missing optional peer never breaks an import, it fails the one feature that needs it).
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { moduleGraph, packageOf } from '../support/module-graph.ts';
import { PACKAGES, codeExports, manifestOf, NODE, packageDir, skipUnbuilt, type PackageLayout } from '../support/built-package.ts';
import { childEnv } from '../support/child-env.ts';

const GENERATOR_ONLY = ['json-schema-to-typescript', 'quicktype-core', 'ts-morph', 'typedoc', 'typescript'];
const skip = skipUnbuilt();

/** Every module URL Node loads while importing `specifier` from inside package `p` (a package self-reference). */
function loadedBy(p: PackageLayout, specifier: string): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = [];
    registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); seen.push(r.url); return r; } });
    await import(${JSON.stringify(specifier)});
    process.stdout.write(JSON.stringify(seen));`;
  return JSON.parse(execFileSync(NODE, ['--input-type=module', '-e', script], { cwd: packageDir(p), env: childEnv(), encoding: 'utf8' })) as string[];
}

/** Every worker module under a folder (`*-worker.js`): a worker file is started, not imported. */
const workerModules = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('-worker.js')).map((f) => join(dir, f));

/** The package's entry files: every export, and for wopkit the CLI and the worker modules it starts (a worker file is not an import). */
const entryFiles = (p: PackageLayout): string[] => [
  ...codeExports(p).map((e) => e.js),
  ...Object.values(manifestOf(p).bin ?? {}).map((b) => join(packageDir(p), b)),
  ...(p.bin ? workerModules(join(packageDir(p), 'generator')) : []),
];

describe.skipIf(skip)('module graphs of the assembled packages', () => {
  it('@wopkit/validators imports no package: no HTTP server, no database driver, no Ajv', () => {
    const validators = PACKAGES.find((p) => p.dependencies.length === 0 && p.bin === undefined)!;
    const g = moduleGraph(entryFiles(validators));
    expect([...g.packages.keys()]).toEqual([]);
    expect(manifestOf(validators).dependencies).toBeUndefined();
  });

  for (const p of PACKAGES) {
    const manifest = () => manifestOf(p);

    const exportsOf = () => (skip ? [] : codeExports(p));

    it.each(exportsOf().map((e) => [e.specifier, e.js] as const))('%s reaches no generator code; statically only its dependencies', (_specifier, js) => {
      const deps = Object.keys(manifest().dependencies ?? {});
      const g = moduleGraph([js], { dynamic: false });
      expect([...moduleGraph([js]).files].filter((f) => f.startsWith(join(packageDir(p), 'generator/')))).toEqual([]);
      expect([...g.packages.keys()].filter((d) => !deps.includes(d))).toEqual([]);
    });

    // A pattern subpath (one module per validated type) is imported through its first match: they share one shape.
    const imported = () => exportsOf().filter((e, i, all) => e.pattern === undefined || all.findIndex((x) => x.pattern === e.pattern) === i);
    it.each(imported().map((e) => [e.specifier] as const))('import(%j) on Node 24 loads no generator library and no generator module', (specifier) => {
      const loaded = loadedBy(p, specifier);
      expect(loaded.some((u) => u.startsWith(pathToFileURL(packageDir(p)).href)), 'the import went through the package').toBe(true);
      expect(loaded.filter((u) => u.startsWith(pathToFileURL(join(packageDir(p), 'generator/')).href) || GENERATOR_ONLY.some((g) => u.includes(`/node_modules/${g}/`)))).toEqual([]);
    });

    it(`${p.name}: dependencies are exactly what its entry points reach statically; optional peers exactly what only dynamic imports reach`, () => {
      const m = manifest();
      const deps = Object.keys(m.dependencies ?? {}).sort();
      const staticPackages = new Set(entryFiles(p).flatMap((f) => [...moduleGraph([f], { dynamic: false }).packages.keys()]));
      const allPackages = new Set(moduleGraph(entryFiles(p)).packages.keys());
      // The CLI loads its commands on demand: what they need (ajv for lint and gen) is a dependency all the same.
      const needed = [...allPackages].filter((d) => !p.optionalPeers.includes(d)).sort();
      expect(needed).toEqual(deps);
      expect([...allPackages].filter((d) => p.optionalPeers.includes(d)).sort()).toEqual([...p.optionalPeers].sort());
      expect([...staticPackages].filter((d) => p.optionalPeers.includes(d))).toEqual([]);
      for (const peer of p.optionalPeers) expect(m.peerDependenciesMeta?.[peer]?.optional, peer).toBe(true);
    });
  }

  it('packageOf names the package of a deep or scoped specifier', () => {
    expect(packageOf('ajv/dist/runtime/equal.js')).toBe('ajv');
    expect(packageOf('@scope/name/sub/path.js')).toBe('@scope/name');
  });
});
