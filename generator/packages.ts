/**
 * The packages the generator depends on: every bare package its sources import, with their dependencies, at their
 * installed versions. Both caches key on it — `generated/.gen-hash` (gen-hash.ts) and the per-work disk cache
 * (work-cache.ts) — so it stands apart from either, importing nothing of the generator.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const GENERATOR_DIR = import.meta.dirname;

/**
 * Bare package names a source file imports: static imports and re-exports at the start of a line, and dynamic
 * `import(...)` of a string literal (import statements written inside templates, for generated code, do not count).
 * Node built-ins are left out.
 */
function importedPackages(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\b[^'\n]*?\bfrom\s+'([^']+)'/gm),
    ...source.matchAll(/^\s*import\s+'([^']+)'/gm),
    ...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers
    .filter((spec) => /^(@[\w.-]+\/)?[\w.-]+(\/[\w./-]*)?$/.test(spec) && !spec.startsWith('.') && !spec.startsWith('node:'))
    .map((spec) => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/'));
}

/** The directory of package `name` as Node would resolve it from `from` (walking up node_modules), if installed. */
function packageDir(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * `name@version` of every package the generator imports and of everything those depend on, sorted; a package that
 * is not installed is `name@missing`.
 */
export function generatorPackages(sources: readonly string[]): string[] {
  const seen = new Map<string, string>();
  const queue: [string, string][] = [...new Set(sources.flatMap(importedPackages))].map((n) => [n, GENERATOR_DIR]);
  while (queue.length > 0) {
    const [name, from] = queue.pop()!;
    const dir = packageDir(name, from);
    const key = dir ?? `missing:${name}`;
    if (seen.has(key)) continue;
    if (dir === undefined) {
      seen.set(key, `${name}@missing`);
      continue;
    }
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      version?: string;
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    seen.set(key, `${name}@${manifest.version ?? 'unversioned'}`);
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) queue.push([dep, dir]);
  }
  return [...new Set(seen.values())].sort();
}

