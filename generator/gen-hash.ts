/**
 * The input hash of `gen`, recorded in `generated/.gen-hash` so that `gen --check` can answer without emitting.
 *
 * `gen`'s output is a deterministic function of its inputs: the generator's own source files, every file under
 * `schemas/` (the route tables the OpenAPI and routes emitters read included), the corpus's generator settings (corpus-config.ts), and the
 * packages the generator imports (at their installed versions, with their dependencies). The
 * record holds a sha256 over those inputs and the sha256 of every file the emitters produced. When the inputs hash
 * the same as recorded and the files on disk under the owned paths are exactly the recorded ones (same paths, same
 * hashes), a full emit would write nothing: generated/ is up to date. Anything else (no record, an input changed, a
 * generated file edited, deleted or added) falls back to the full emit and comparison, which names the files.
 *
 * The record is a cache: a missing or out-of-date record only makes `gen --check` take the full path.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Emission } from './emit.ts';
import { GENERATED } from './naming.ts';
import { corpusConfig } from './corpus-config.ts';
import { generatorPackages } from './packages.ts';
import { ownedFilesOnDisk } from './write.ts';

/** What `generated/.gen-hash` holds. */
export interface GenHashRecord {
  /** Bumped when what is hashed changes. */
  readonly format: 1;
  /** sha256 (hex) over the generator sources, the schema files and the generator's packages. */
  readonly inputs: string;
  /** The owned paths of the emitters (directories end with `/`). */
  readonly owns: readonly string[];
  /** Every emitted file: repository path → sha256 (hex) of its contents. */
  readonly files: Readonly<Record<string, string>>;
}

/** Why the full path ran (or `undefined`: the record showed generated/ up to date). */
export type FastCheckMiss = 'no-record' | 'inputs-changed' | 'generated-files-differ';

const GENERATOR_DIR = import.meta.dirname;
const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** Files under `dir` (recursively), as sorted paths relative to `base` (one directory read each, no stat per file). */
function filesUnder(dir: string, base: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(base, join(d.parentPath, d.name)).split('\\').join('/'))
    .sort();
}

/** sha256 over the generator's sources, every file under `<root>/schemas`, and the generator's packages. */
export function inputsHash(root: string): string {
  const h = createHash('sha256');
  const add = (kind: string, name: string, data: string | Buffer) => h.update(`${kind}\0${name}\0${data.length}\0`).update(data);
  const sources = filesUnder(GENERATOR_DIR, GENERATOR_DIR).map((p) => [p, readFileSync(join(GENERATOR_DIR, p), 'utf8')] as const);
  for (const [p, text] of sources) add('generator', p, text);
  for (const p of filesUnder(join(root, 'schemas'), root)) add('schema', p, readFileSync(join(root, p)));
  add('settings', 'package.json#/wopkit', JSON.stringify(corpusConfig(root)));
  for (const pkg of generatorPackages(sources.map(([, text]) => text))) add('package', pkg, '');
  return h.digest('hex');
}

/** The record for an emission just compared or written, with the inputs as they are now. */
export function recordOf(root: string, emission: Emission): GenHashRecord {
  return {
    format: 1,
    inputs: inputsHash(root),
    owns: [...emission.owns].sort(),
    files: Object.fromEntries(emission.files.map((f) => [f.path, sha256(f.contents)])),
  };
}

const serialise = (record: GenHashRecord): string => `${JSON.stringify(record, null, 2)}\n`;

/** The recorded hash, or undefined when there is none (or it cannot be read as one). */
export function readRecord(root: string): GenHashRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(join(root, GENERATED.genHash), 'utf8')) as GenHashRecord;
    return record.format === 1 && typeof record.inputs === 'string' && Array.isArray(record.owns) && typeof record.files === 'object' ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the record on disk is exactly `record`. */
export const recordIsCurrent = (root: string, record: GenHashRecord): boolean =>
  existsSync(join(root, GENERATED.genHash)) && readFileSync(join(root, GENERATED.genHash), 'utf8') === serialise(record);

/** Write the record (only when it changed); true when written. */
export function writeRecord(root: string, record: GenHashRecord): boolean {
  if (recordIsCurrent(root, record)) return false;
  writeFileSync(join(root, GENERATED.genHash), serialise(record));
  return true;
}

/**
 * The fast check: `{ files }` when the record shows generated/ up to date (inputs unchanged, every owned file on disk
 * exactly as recorded), else why not.
 */
export function fastCheck(root: string): { readonly files: number } | { readonly miss: FastCheckMiss } {
  const record = readRecord(root);
  if (record === undefined) return { miss: 'no-record' };
  if (inputsHash(root) !== record.inputs) return { miss: 'inputs-changed' };
  const onDisk = ownedFilesOnDisk(root, record.owns);
  const recorded = Object.keys(record.files).sort();
  const same = onDisk.length === recorded.length && onDisk.every((p, i) => p === recorded[i] && sha256(readFileSync(join(root, p))) === record.files[p]);
  return same ? { files: recorded.length } : { miss: 'generated-files-differ' };
}
