/**
 * The baseline compat compares with: a directory holding `schemas/`, or a git ref whose `schemas/` tree is extracted
 * with `git archive` into a temporary directory (offline: the repository's own objects). Without `--base`: the newest
 * release tag (`v<major>.<minor>.<patch>`) reachable from HEAD, else the newest committed snapshot
 * `compat/baseline/<version>/`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { CorpusError } from '../errors.ts';
import { UsageError } from '../commands/common.ts';

/** Where committed baseline snapshots live, one directory per released version. */
export const SNAPSHOT_DIR = 'compat/baseline';

export interface Baseline {
  /** How reports name it: `v0.2.0`, `compat/baseline/0.2.0`, a directory. */
  readonly label: string;
  /** A directory holding the baseline's `schemas/`. */
  readonly dir: string;
  /** The released version it stands for, when known (its major decides which CHANGELOG sections acknowledge a break). */
  readonly version?: string;
  /** Remove what was extracted (a no-op for a directory). */
  readonly cleanup: () => void;
}

const SEMVER = /^v?(\d+)\.(\d+)\.(\d+)$/;
/** Compare two versions `x.y.z` numerically. */
export const compareVersions = (a: string, b: string): number => {
  const pa = (SEMVER.exec(a) ?? []).slice(1).map(Number);
  const pb = (SEMVER.exec(b) ?? []).slice(1).map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
};
const versionOf = (name: string): string | undefined => (SEMVER.test(name) ? name.replace(/^v/, '') : undefined);

function git(root: string, args: readonly string[]): { ok: boolean; stdout: Buffer; stderr: string } {
  const r = spawnSync('git', ['-C', root, ...args], { maxBuffer: 256 * 1024 * 1024 });
  return { ok: r.status === 0, stdout: r.stdout ?? Buffer.alloc(0), stderr: (r.stderr ?? Buffer.alloc(0)).toString().trim() };
}

/** The newest `v<semver>` tag reachable from HEAD, if the root is a git work tree with one. */
export function lastReleaseTag(root: string): string | undefined {
  const r = git(root, ['tag', '--list', 'v*', '--merged', 'HEAD']);
  if (!r.ok) return undefined;
  return r.stdout.toString().split('\n').map((t) => t.trim()).filter((t) => SEMVER.test(t)).sort(compareVersions).at(-1);
}

/** The newest committed snapshot directory `compat/baseline/<version>/`, if any. */
export function newestSnapshot(root: string): string | undefined {
  const dir = join(root, SNAPSHOT_DIR);
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir).filter((n) => SEMVER.test(n) && existsSync(join(dir, n, 'schemas'))).sort(compareVersions).at(-1);
}

/** Extract `schemas/` at a git ref into a temporary directory. */
function fromGitRef(root: string, ref: string): Baseline {
  const commit = git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!commit.ok) throw new UsageError(`--base "${ref}" is neither a directory nor a git ref of the repository at ${root}`);
  const archive = git(root, ['archive', '--format=tar', ref, '--', 'schemas']);
  if (!archive.ok) throw new CorpusError(`cannot read schemas/ at ${ref} with git archive: ${archive.stderr || 'no schemas/ there'}`, ref);
  const dir = mkdtempSync(join(tmpdir(), 'wopkit-compat-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (untar.status !== 0) {
    cleanup();
    throw new CorpusError(`cannot extract schemas/ at ${ref}: ${(untar.stderr ?? '').toString().trim()}`, ref);
  }
  const version = versionOf(ref) ?? (() => {
    const pkg = git(root, ['show', `${ref}:package.json`]);
    try {
      const v: unknown = pkg.ok ? JSON.parse(pkg.stdout.toString()).version : undefined;
      return typeof v === 'string' && SEMVER.test(v) ? v : undefined;
    } catch {
      return undefined;
    }
  })();
  return { label: ref, dir, ...(version ? { version } : {}), cleanup };
}

/** A directory holding `schemas/` (a snapshot, another checkout). */
function fromDirectory(root: string, dir: string): Baseline {
  if (!existsSync(join(dir, 'schemas'))) throw new UsageError(`--base ${dir} has no schemas/ directory`);
  const version = versionOf(basename(dir));
  const rel = relative(root, dir);
  return { label: rel && !rel.startsWith('..') ? rel : dir, dir, ...(version ? { version } : {}), cleanup: () => {} };
}

/** The baseline named by `--base` (a directory or a git ref), or the default one. */
export function resolveBaseline(root: string, spec?: string): Baseline {
  if (spec !== undefined) {
    // A directory relative to the working directory, else to the root; anything else is a git ref.
    for (const asDir of [resolve(spec), resolve(root, spec)]) if (existsSync(asDir) && statSync(asDir).isDirectory()) return fromDirectory(root, asDir);
    return fromGitRef(root, spec);
  }
  const tag = lastReleaseTag(root);
  if (tag) return fromGitRef(root, tag);
  const snapshot = newestSnapshot(root);
  if (snapshot) return fromDirectory(root, join(root, SNAPSHOT_DIR, snapshot));
  throw new UsageError(`no baseline: no v<version> release tag is reachable from HEAD and ${SNAPSHOT_DIR}/<version>/ has no snapshot; pass --base <git-ref|dir>`);
}

/**
 * Write the current schema files as the committed snapshot of `version` (`compat/baseline/<version>/schemas/…`),
 * replacing an older snapshot of that version; returns the repository paths written. For a release without tags.
 */
export function writeSnapshot(root: string, version: string, schemaPaths: readonly string[]): string[] {
  if (!SEMVER.test(version)) throw new UsageError(`--snapshot needs a version like 0.3.0, not "${version}"`);
  const dir = join(root, SNAPSHOT_DIR, version.replace(/^v/, ''));
  rmSync(dir, { recursive: true, force: true });
  for (const path of schemaPaths) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    cpSync(join(root, path), join(dir, path));
  }
  return schemaPaths.map((p) => `${SNAPSHOT_DIR}/${version.replace(/^v/, '')}/${p}`);
}
