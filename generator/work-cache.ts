/**
 * A content-addressed cache on disk for the generator's slow, pure steps: compiling one type's TypeScript declaration
 * (json-schema-to-typescript + prettier) and rendering one other-language target (quicktype). Each is a pure function
 * of its input text, its options and the installed packages that do the work, so a result is looked up by the
 * sha256 of exactly those: the input, a *salt* naming the work (the source of the module that calls the package, and
 * every package that module imports, transitively, at its installed version). Nothing else can reach the output, so a
 * hit is what the work would produce; a changed schema, option, generator module or package version is a miss.
 *
 * The cache only saves time: `gen` writes the same files with or without it, and `WOPKIT_GEN_CACHE=0` turns it off
 * (the benchmark measures both). It lives in `node_modules/.cache/wopkit-gen/<namespace>/` beside the generator's
 * package (`node_modules/.cache/`, never committed), one file per entry written atomically (temp file + rename, so a concurrent `gen`
 * never reads half an entry), and keeps the newest `limit` entries of a namespace. Any I/O failure is a miss.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatorPackages } from './packages.ts';

/** What the slow steps need of a cache (a `Map<string, string>` is one, in memory). */
export interface TextCache {
  get(key: string): string | undefined;
  set(key: string, value: string): unknown;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The `node_modules` the generator's packages come from: the nearest one above the generator (from source: the
 * repository's; in an install: the one holding the package), else the system's temporary directory.
 */
function nodeModulesDir(): string {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    if (basename(dir) === 'node_modules') return dir;
    if (existsSync(join(dir, 'node_modules'))) return join(dir, 'node_modules');
    if (dirname(dir) === dir) return tmpdir();
  }
}

/** The cache directory, or undefined when the cache is turned off (`WOPKIT_GEN_CACHE=0`). */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const setting = env['WOPKIT_GEN_CACHE'];
  if (setting === '0' || setting === 'off') return undefined;
  return setting && setting !== '1' && setting !== 'on' ? setting : join(nodeModulesDir(), '.cache', 'wopkit-gen');
}

/**
 * The salt of a step: the source of the module that runs it (its options live there) and every package that module
 * imports, with their dependencies, at their installed versions.
 */
export function saltOf(moduleUrl: string): string {
  const source = readFileSync(fileURLToPath(moduleUrl), 'utf8');
  return sha256(`${source}\0${generatorPackages([source]).join('\n')}`);
}

/** One namespace of the disk cache; keys are hashed with the salt. */
export class DiskCache implements TextCache {
  private readonly dir: string;
  private readonly salt: string;
  private readonly limit: number;
  private written = 0;

  constructor(root: string, namespace: string, salt: string, limit = 1000) {
    this.dir = join(root, namespace);
    this.salt = salt;
    this.limit = limit;
  }

  private pathOf(key: string): string {
    return join(this.dir, sha256(`${this.salt}\0${key}`));
  }

  get(key: string): string | undefined {
    try {
      return readFileSync(this.pathOf(key), 'utf8');
    } catch {
      return undefined;
    }
  }

  set(key: string, value: string): this {
    try {
      mkdirSync(this.dir, { recursive: true });
      const path = this.pathOf(key);
      const tmp = `${path}.${process.pid}.${this.written++}.tmp`;
      writeFileSync(tmp, value);
      renameSync(tmp, path);
      if (this.written % 50 === 1) this.prune();
    } catch {
      // a cache that cannot be written only costs time
    }
    return this;
  }

  /** Keep the newest `limit` entries. */
  private prune(): void {
    const entries = readdirSync(this.dir).filter((n) => !n.endsWith('.tmp'));
    if (entries.length <= this.limit) return;
    const byAge = entries.map((n) => ({ n, t: statSync(join(this.dir, n)).mtimeMs })).sort((a, b) => a.t - b.t);
    for (const { n } of byAge.slice(0, entries.length - this.limit)) rmSync(join(this.dir, n), { force: true });
  }
}

/** The disk cache of one step (`namespace`, salted by the module at `moduleUrl`), or undefined when caching is off. */
export function diskCache(namespace: string, moduleUrl: string, limit?: number): DiskCache | undefined {
  const root = cacheRoot();
  return root === undefined ? undefined : new DiskCache(root, namespace, saltOf(moduleUrl), limit);
}
