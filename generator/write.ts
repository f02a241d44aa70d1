/**
 * Stage 5, write: an {@link Emission} in, the files on disk out (only those that changed); and `--check`, which compares
 * instead of writing and reports stale, missing and extra files (extra = a file under an owned path that no emitter
 * produced).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Emission } from './emit.ts';
import { CorpusError } from './errors.ts';

function listFiles(root: string, rel: string): string[] {
  const abs = join(root, rel);
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return [rel];
  return readdirSync(abs)
    .sort()
    .flatMap((n) => listFiles(root, `${rel.replace(/\/$/, '')}/${n}`));
}

/** Files currently on disk under the owned paths. */
export function ownedFilesOnDisk(root: string, owns: readonly string[]): string[] {
  return [...new Set(owns.flatMap((o) => listFiles(root, o)))].sort();
}

export interface CheckResult {
  stale: string[];
  missing: string[];
  extra: string[];
  /** For each stale file, the first line (1-based) where disk and the emitted contents differ. */
  staleAt: Record<string, number>;
}

/** First line (1-based) at which two texts differ. */
export function firstDifferentLine(a: string, b: string): number {
  const la = a.split('\n');
  const lb = b.split('\n');
  let i = 0;
  while (i < la.length && i < lb.length && la[i] === lb[i]) i++;
  return i + 1;
}

/** Compare an emission with disk (writes nothing). */
export function checkFiles(root: string, { files, owns }: Emission): CheckResult {
  const stale: string[] = [];
  const missing: string[] = [];
  const staleAt: Record<string, number> = {};
  const produced = new Set(files.map((f) => f.path));
  for (const f of files) {
    const abs = join(root, f.path);
    if (!existsSync(abs)) {
      missing.push(f.path);
      continue;
    }
    const onDisk = readFileSync(abs, 'utf8');
    if (onDisk === f.contents) continue;
    stale.push(f.path);
    staleAt[f.path] = firstDifferentLine(onDisk, f.contents);
  }
  const extra = ownedFilesOnDisk(root, owns).filter((p) => !produced.has(p));
  return { stale, missing, extra, staleAt };
}

export interface WriteResult {
  written: string[];
  unchanged: number;
  removed: string[];
}

/** Write the files (only those that changed) and remove extra files under the owned paths. */
export function writeFiles(root: string, emission: Emission): WriteResult {
  const { files } = emission;
  const { stale, missing, extra } = checkFiles(root, emission);
  const toWrite = new Set([...stale, ...missing]);
  const io = (path: string, what: string, fn: () => void) => {
    try {
      fn();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new CorpusError(`cannot ${what}${code ? ` (${code})` : ''}`, path);
    }
  };
  for (const f of files) {
    if (!toWrite.has(f.path)) continue;
    const abs = join(root, f.path);
    io(f.path, 'write file', () => {
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, f.contents);
    });
  }
  for (const p of extra) io(p, 'remove extra file', () => rmSync(join(root, p)));
  return { written: [...toWrite].sort(), unchanged: files.length - toWrite.size, removed: extra };
}
