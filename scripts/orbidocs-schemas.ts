#!/usr/bin/env -S npx tsx
/**
 * Issue 38: where orbidocs publishes a schema for an Inquirium shape, our examples of that shape must be judged the
 * same by orbidocs' schema and by ours (valid examples accepted by both, invalid ones refused by both).
 *
 * orbidocs' schema files are not in this repository: they sit in a scratch folder (default /tmp/upstream/orbidocs,
 * or $WOPKIT_ORBIDOCS_DIR, or --dir) filled by hand from the upstream repository, each file at its upstream path,
 * with a `manifest.json` naming every file's path, the upstream commit it was read at and the schema of ours it
 * corresponds to:
 *
 *   { "repo": "diapod/orbidocs", "files": [{ "path": "doc/schemas/inquirium.terminal-outcome.v1.schema.json",
 *                                            "commit": "<40 hex>", "ours": "inquirium.terminal-outcome.v1" }] }
 *
 *   npx tsx scripts/orbidocs-schemas.ts [--dir DIR] [--format text|json]
 *
 * Exit 0 when every example is judged alike; 1 when one is not; 2 when the folder or its manifest is missing or
 * malformed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { checkDto, type DtoId } from '../runtime/inquirium/dto.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const ORBIDOCS_DIR_ENV = 'WOPKIT_ORBIDOCS_DIR';
export const DEFAULT_ORBIDOCS_DIR = '/tmp/upstream/orbidocs';
const EXAMPLES = join(REPO, 'schemas/inquirium/v1/examples');

/** The shapes orbidocs publishes a schema for, and which of ours each corresponds to. */
export const PUBLISHED: Readonly<Record<string, DtoId>> = {
  'doc/schemas/inquirium.terminal-outcome.v1.schema.json': 'inquirium.terminal-outcome.v1',
};

export interface ManifestEntry {
  readonly path: string;
  readonly commit: string;
  readonly ours: string;
}

export interface Verdict {
  readonly schema: string;
  readonly example: string;
  readonly expected: 'valid' | 'invalid';
  readonly upstream: boolean;
  readonly ours: boolean;
}

export interface Report {
  readonly dir: string;
  readonly files: readonly ManifestEntry[];
  readonly verdicts: readonly Verdict[];
  /** Examples the two schemas judge differently, or that either judges against its folder. */
  readonly disagreements: readonly Verdict[];
}

/** A scratch folder that is absent or malformed (exit 2). */
export class ScratchFolderError extends Error {}

/** Read and check the manifest: every published shape listed once, each file present, each commit 40 hex digits. */
export function readManifest(dir: string): ManifestEntry[] {
  const at = join(dir, 'manifest.json');
  if (!existsSync(at)) throw new ScratchFolderError(`no ${at}: fill ${dir} from diapod/orbidocs first (docs/interop.md, "orbidocs' published schemas")`);
  const m = JSON.parse(readFileSync(at, 'utf8')) as { repo?: unknown; files?: unknown };
  if (m.repo !== 'diapod/orbidocs' || !Array.isArray(m.files)) throw new ScratchFolderError(`${at}: expected {"repo": "diapod/orbidocs", "files": [...]}`);
  const files = m.files as ManifestEntry[];
  for (const f of files) {
    if (typeof f.path !== 'string' || typeof f.commit !== 'string' || !/^[0-9a-f]{40}$/.test(f.commit)) throw new ScratchFolderError(`${at}: each file needs a path and a 40-hex commit`);
    if (PUBLISHED[f.path] === undefined || PUBLISHED[f.path] !== f.ours) throw new ScratchFolderError(`${at}: ${f.path} is not a published shape of ours (or names the wrong one)`);
    if (!existsSync(join(dir, f.path))) throw new ScratchFolderError(`${at} lists ${f.path}, which is not in ${dir}`);
  }
  for (const path of Object.keys(PUBLISHED)) if (!files.some((f) => f.path === path)) throw new ScratchFolderError(`${at}: ${path} is missing`);
  return files;
}

/** Our examples of one shape: the instance (editor `$schema` key removed) and the folder it is in. */
function examplesOf(ours: string): { name: string; expected: 'valid' | 'invalid'; instance: unknown }[] {
  return (['valid', 'invalid'] as const).flatMap((expected) => {
    const folder = join(EXAMPLES, ours, expected);
    return readdirSync(folder).filter((f) => f.endsWith('.json')).sort().map((f) => {
      const raw = JSON.parse(readFileSync(join(folder, f), 'utf8')) as Record<string, unknown>;
      const { $schema: _editor, ...instance } = (expected === 'invalid' ? raw['instance'] : raw) as Record<string, unknown>;
      return { name: `${expected}/${f}`, expected, instance };
    });
  });
}

/** Judge every example of every published shape by both schemas. */
export function judge(dir: string): Report {
  const files = readManifest(dir);
  const verdicts: Verdict[] = [];
  for (const f of files) {
    // orbidocs' file as published: compiled without our corpus' strictness (it is their schema, not ours to lint).
    const upstream = new Ajv2020({ strict: false, allErrors: true }).compile(JSON.parse(readFileSync(join(dir, f.path), 'utf8')) as object);
    for (const ex of examplesOf(f.ours)) {
      verdicts.push({ schema: f.ours, example: ex.name, expected: ex.expected, upstream: upstream(ex.instance), ours: checkDto(f.ours as DtoId, ex.instance).length === 0 });
    }
  }
  const disagreements = verdicts.filter((v) => v.upstream !== v.ours || v.ours !== (v.expected === 'valid'));
  return { dir, files, verdicts, disagreements };
}

function main(): number {
  const { values } = parseArgs({ options: { dir: { type: 'string' }, format: { type: 'string', default: 'text' } } });
  const dir = values.dir ?? process.env[ORBIDOCS_DIR_ENV] ?? DEFAULT_ORBIDOCS_DIR;
  let report: Report;
  try {
    report = judge(dir);
  } catch (err) {
    if (!(err instanceof ScratchFolderError)) throw err;
    process.stderr.write(`orbidocs-schemas: ${err.message}\n`);
    return 2;
  }
  if (values.format === 'json') process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    for (const v of report.verdicts) process.stdout.write(`${v.upstream === v.ours && v.ours === (v.expected === 'valid') ? 'same' : 'DIFF'}  ${v.schema}  ${v.example}  orbidocs=${v.upstream ? 'valid' : 'invalid'} ours=${v.ours ? 'valid' : 'invalid'}\n`);
    process.stdout.write(`orbidocs-schemas: ${report.verdicts.length} examples, ${report.disagreements.length} judged differently (${report.files.map((f) => `${f.path}@${f.commit.slice(0, 7)}`).join(', ')})\n`);
  }
  return report.disagreements.length === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
