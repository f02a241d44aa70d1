/**
 * Importing a subpath of the built package loads what that subpath needs and nothing of the generator: no
 * json-schema-to-typescript, quicktype-core, ts-morph, typedoc or TypeScript, no dist/generator/ module. Checked two
 * ways: the static import graph of dist/ (dynamic `import("…")` edges included), and a real import by package name
 * on Node 24 with a resolve hook recording every module loaded. `dependencies` is exactly what dist/ reaches.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { moduleGraph, packageOf } from '../support/module-graph.ts';
import { codeExports, NODE, packageJson, ROOT, skipUnbuilt, specifierOf } from '../support/built-package.ts';
import { childEnv } from '../support/child-env.ts';

const GENERATOR_ONLY = ['json-schema-to-typescript', 'quicktype-core', 'ts-morph', 'typedoc', 'typescript'];
const skip = skipUnbuilt();

/** Every module URL Node loads while importing `specifier` from the repository root (package self-reference). */
function loadedBy(specifier: string): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = [];
    registerHooks({ resolve(spec, ctx, next) { const r = next(spec, ctx); seen.push(r.url); return r; } });
    await import(${JSON.stringify(specifier)});
    process.stdout.write(JSON.stringify(seen));`;
  return JSON.parse(execFileSync(NODE, ['--input-type=module', '-e', script], { cwd: ROOT, env: childEnv(), encoding: 'utf8' })) as string[];
}

describe.skipIf(skip)('module graph of the built package', () => {
  const pkg = packageJson();
  const deps = Object.keys(pkg.dependencies).sort();
  const entries = codeExports();

  it.each(entries.map((e) => [e.subpath, e.js] as const))('%s reaches no generator code and only runtime dependencies (static graph)', (_subpath, js) => {
    const g = moduleGraph([join(ROOT, js)]);
    expect([...g.files].filter((f) => f.includes('/dist/generator/'))).toEqual([]);
    expect([...g.packages.keys()].filter((p) => !deps.includes(p))).toEqual([]);
  });

  it.each(entries.map((e) => [specifierOf(e.subpath)] as const))('import(%j) on Node 24 loads no generator library and no generator module', (specifier) => {
    const loaded = loadedBy(specifier);
    expect(loaded.some((u) => u.includes('/dist/entry/')), 'the import went through dist/entry').toBe(true);
    expect(loaded.filter((u) => u.includes('/dist/generator/') || GENERATOR_ONLY.some((p) => u.includes(`/node_modules/${p}/`)))).toEqual([]);
  });

  it('dependencies are exactly the packages the subpaths and the CLI reach; the generator libraries it reaches, and only those, are optional peers', () => {
    const subpaths = moduleGraph(entries.map((e) => join(ROOT, e.js)));
    // The CLI, and the worker it starts for the other-language emitter (a worker file is not an import).
    const cli = moduleGraph([join(ROOT, pkg.bin.wopkit!), join(ROOT, 'dist/generator/emit/other-languages/render-worker.js')]);
    expect([...new Set([...subpaths.packages.keys(), ...cli.packages.keys()].filter((p) => !GENERATOR_ONLY.includes(p)))].sort()).toEqual(deps);
    const cliOnly = [...cli.packages.keys()].filter((p) => !deps.includes(p)).sort();
    expect(cliOnly.filter((p) => pkg.peerDependenciesMeta[p]?.optional !== true)).toEqual([]);
    for (const p of cliOnly) expect(pkg.peerDependencies[p], p).toBe(pkg.devDependencies[p]);
    // And no peer the CLI no longer reaches (an installer would be told to add a package nothing loads).
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(cliOnly);
    // Nothing a subpath or the CLI imports is left as a devDependency only.
    expect([...subpaths.packages.keys()].filter((p) => pkg.devDependencies[p] !== undefined && pkg.dependencies[p] === undefined)).toEqual([]);
  });

  it('packageOf names the package of a deep or scoped specifier', () => {
    expect(packageOf('ajv/dist/runtime/equal.js')).toBe('ajv');
    expect(packageOf('@scope/name/sub/path.js')).toBe('@scope/name');
  });
});
