/**
 * The assembled packages (dist/<dir>/, scripts/package-layout.ts) as the package tests see them. The tests never build
 * (a build rewrites dist/ under any test reading it in parallel): without dist/ they are skipped with the reason;
 * `npm run main` (and CI) builds it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv } from './child-env.ts';
import { noteSkip, toolchainsRequired } from './toolchains.ts';
import { PACKAGES, type PackageLayout } from '../../scripts/package-layout.ts';

export const ROOT = process.cwd();
export { PACKAGES, type PackageLayout };

export interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly main: string;
  readonly types: string;
  readonly bin?: Record<string, string>;
  readonly files: readonly string[];
  readonly engines: { readonly node: string };
  readonly exports: Record<string, string | { readonly types: string; readonly default: string }>;
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
}

/** The folder of an assembled package. */
export const packageDir = (p: PackageLayout): string => join(ROOT, 'dist', p.dir);
/** A package's manifest as the build wrote it. */
export const manifestOf = (p: PackageLayout): PackageJson => JSON.parse(readFileSync(join(packageDir(p), 'package.json'), 'utf8')) as PackageJson;
/** The repository's own package.json. */
export const rootManifest = (): PackageJson => JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

/**
 * Code subpaths (`.`, `./validators`, …) of a package and their targets (absolute); `./schemas/*` and package.json left
 * out. A pattern subpath (`./validate/*`) stands for every module its target matches, each listed with `pattern` set.
 */
export const codeExports = (p: PackageLayout): { subpath: string; specifier: string; types: string; js: string; pattern?: string }[] =>
  Object.entries(manifestOf(p).exports).flatMap(([subpath, t]) => {
    if (typeof t === 'string') return [];
    const one = (sub: string, types: string, js: string) => ({ subpath: sub, specifier: `${p.name}${sub.slice(1)}`, types: join(packageDir(p), types), js: join(packageDir(p), js) });
    if (!subpath.includes('*')) return [one(subpath, t.types, t.default)];
    const [before, after] = t.default.split('*') as [string, string];
    const folder = before.slice(0, before.lastIndexOf('/') + 1);
    const prefix = before.slice(folder.length);
    const dir = join(packageDir(p), folder);
    const names = existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(prefix) && f.endsWith(after) && f.length > prefix.length + after.length).sort() : [];
    return names.map((f) => {
      const stem = f.slice(prefix.length, f.length - after.length);
      return { ...one(subpath.replace('*', stem), t.types.replace('*', stem), t.default.replace('*', stem)), pattern: subpath };
    });
  });

export const built = (): boolean => PACKAGES.every((p) => existsSync(join(packageDir(p), 'package.json')));

/**
 * Whether the tests of the built packages must be skipped: dist/ is missing and missing things are not required
 * (under WOPKIT_REQUIRE_TOOLCHAINS=1, as in CI, they run and fail). The reason goes to the run's skip summary.
 */
export function skipUnbuilt(): boolean {
  const skip = !built() && !toolchainsRequired();
  if (skip) noteSkip('no dist/ (run npm run build; npm run main and CI build it)');
  return skip;
}

/** The Node 24 the repository pins: package code must run on plain Node, not tsx. */
export const NODE = join(ROOT, 'node_modules/.bin/node');

/** Run npm (warnings on) in `cwd`; throws with its stderr unless it exits 0. */
export function npm(args: readonly string[], cwd: string = ROOT): { stdout: string; stderr: string } {
  const r = spawnSync('npm', args, { cwd, env: childEnv({ npm_config_loglevel: 'warn', npm_config_update_notifier: 'false' }), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} (in ${cwd}) exited ${r.status ?? r.signal}: ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}
