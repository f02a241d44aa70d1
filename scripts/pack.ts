/**
 * `npm run pack [-- --no-build] [--dry-run] [--destination <dir>]`: `npm pack` every package the build assembles
 * (scripts/package-layout.ts) from its folder under dist/, and print what each tarball holds. The repository's own
 * package.json is private: the packages are the only things that can be published.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, packageDir } from './build.ts';
import { PACKAGES, type PackageLayout } from './package-layout.ts';

/** What `npm pack --json` says of one tarball. */
export interface Packed {
  readonly name: string;
  readonly filename: string;
  /** Bytes, packed. */
  readonly size: number;
  /** Bytes, unpacked. */
  readonly unpackedSize: number;
  readonly entryCount: number;
  readonly files: readonly { readonly path: string; readonly size: number; readonly mode: number }[];
}

const NPM_ENV = { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

/** Pack one assembled package (with `destination` undefined: a dry run that writes nothing). */
export function packOne(p: PackageLayout, destination?: string): Packed {
  const args = ['pack', '--json', '--ignore-scripts', ...(destination === undefined ? ['--dry-run'] : ['--pack-destination', destination])];
  const out = execFileSync('npm', args, { cwd: packageDir(p), env: NPM_ENV, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return (JSON.parse(out) as Packed[])[0]!;
}

/** Pack every package; `destination` undefined is a dry run. */
export const packAll = (destination?: string): Packed[] => PACKAGES.map((p) => packOne(p, destination));

const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--destination');
  const destination = args.includes('--dry-run') ? undefined : resolve(at >= 0 && args[at + 1] ? args[at + 1]! : '.');
  if (!args.includes('--no-build')) build();
  if (destination !== undefined) mkdirSync(destination, { recursive: true });
  for (const p of packAll(destination))
    console.log(`${p.name}: ${destination === undefined ? '(dry run) ' : `${resolve(destination, p.filename)} `}${kB(p.size)} packed, ${kB(p.unpackedSize)} unpacked, ${p.entryCount} files`);
}
