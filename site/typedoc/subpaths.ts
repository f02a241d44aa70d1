/**
 * The public subpaths of the package, read from package.json `exports`: each names the barrel under `entry/` that
 * typedoc documents, and the module name readers import (`wopkit`, `wopkit/validators`, …).
 */

export interface Subpath {
  /** The import specifier: `wopkit` or `wopkit/<subpath>`. */
  readonly name: string;
  /** The barrel typedoc documents, repository-relative: `entry/<file>.ts`. */
  readonly entry: string;
}

interface PackageJson {
  readonly name: string;
  readonly exports: Record<string, string | { readonly default?: string }>;
}

const DIST_ENTRY = /^\.\/dist\/(entry\/[^/]+)\.js$/;

/** Every code subpath of `exports` (not `./schemas/*` or `./package.json`), in the order package.json lists them. */
export function packageSubpaths(pkg: PackageJson): Subpath[] {
  const out: Subpath[] = [];
  for (const [key, target] of Object.entries(pkg.exports)) {
    const file = typeof target === 'string' ? target : target.default;
    const m = file === undefined ? null : DIST_ENTRY.exec(file);
    if (m === null) continue;
    out.push({ name: key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`, entry: `${m[1]}.ts` });
  }
  return out;
}

/** The module name typedoc gives an entry point when it documents several: the file name without extension. */
export const typedocModuleName = (entry: string): string => entry.replace(/^.*\//, '').replace(/\.ts$/, '');
