/** The CLI's version: from the nearest package.json above this file (works from source and from a compiled dist/). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The version in the nearest package.json that has one, walking up from this file (from source or compiled). */
export function cliVersion(from: string = import.meta.url): string {
  for (let dir = dirname(fileURLToPath(from)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const version: unknown = JSON.parse(readFileSync(manifest, 'utf8')).version;
        if (typeof version === 'string') return version;
      } catch {
        /* unreadable or not JSON: keep walking */
      }
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}

