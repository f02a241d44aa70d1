/**
 * The built package (dist/) as the package tests see it. The tests never build (a build rewrites dist/ under any
 * test reading it in parallel): without dist/ they are skipped with the reason; `npm run main` (and CI) builds it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { childEnv } from './child-env.ts';
import { toolchainsRequired } from './toolchains.ts';

export const ROOT = process.cwd();

export interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly bin: Record<string, string>;
  readonly files: readonly string[];
  readonly exports: Record<string, string | { readonly types: string; readonly default: string }>;
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
  readonly peerDependencies: Record<string, string>;
  readonly peerDependenciesMeta: Record<string, { readonly optional?: boolean }>;
}

export const packageJson = (): PackageJson => JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

/** Code subpaths (`.`, `./validators`, …) and their compiled targets; the `./schemas/*` pattern and package.json are left out. */
export const codeExports = (): { subpath: string; types: string; js: string }[] =>
  Object.entries(packageJson().exports).flatMap(([subpath, t]) => (typeof t === 'string' ? [] : [{ subpath, types: t.types, js: t.default }]));

/** `wopkit/validators` for `./validators`, `wopkit` for `.`. */
export const specifierOf = (subpath: string): string => `${packageJson().name}${subpath.slice(1)}`;

const BUILT_MARKER = 'dist/entry/index.js';
export const built = (): boolean => existsSync(join(ROOT, BUILT_MARKER));

/**
 * Whether the tests of the built package must be skipped: dist/ is missing and missing things are not required
 * (under WOPKIT_REQUIRE_TOOLCHAINS=1, as in CI, they run and fail). Prints the reason once per file.
 */
export function skipUnbuilt(): boolean {
  const skip = !built() && !toolchainsRequired();
  if (skip) process.stderr.write('skipped: no dist/ (run npm run build; npm run main and CI build it)\n');
  return skip;
}

/** The Node 24 the repository pins: package code must run on plain Node, not tsx. */
export const NODE = join(ROOT, 'node_modules/.bin/node');

/** Run npm in the repository root (warnings on); throws with its stderr unless it exits 0. */
export function npm(args: readonly string[]): { stdout: string; stderr: string } {
  const r = spawnSync('npm', args, { cwd: ROOT, env: childEnv({ npm_config_loglevel: 'warn', npm_config_update_notifier: 'false' }), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} exited ${r.status ?? r.signal}: ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}
