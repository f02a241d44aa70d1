/**
 * The packages the code generators need and the CLI leaves to the user to install (optional peers of the `wopkit`
 * package): what each is for, and how to go without it. A command that needs a missing one says so in one line naming
 * the `npm i` command, with the version the nearest package.json declares for it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Peer {
  /** What it produces. */
  readonly for: string;
  /** The emitter that needs it, when gen can leave that emitter out (`--skip <emitter>`). */
  readonly emitter?: string;
}

export const GENERATOR_PEERS: Readonly<Record<string, Peer>> = {
  'json-schema-to-typescript': { for: 'the TypeScript types' },
  'quicktype-core': { for: 'the other-language types', emitter: 'other-languages' },
};

/**
 * The version range the nearest package.json above `from` declares for `name` (the package's peerDependencies, or the
 * repository's devDependencies), if any.
 */
export function declaredRange(name: string, from: string = import.meta.url): string | undefined {
  for (let dir = dirname(fileURLToPath(from)); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const m = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, Record<string, string> | undefined>;
        const range = m['peerDependencies']?.[name] ?? m['devDependencies']?.[name] ?? m['dependencies']?.[name];
        if (range !== undefined || m['version'] !== undefined) return range;
      } catch {
        /* unreadable: keep walking */
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The one line for a command that needs a package that is not installed. */
export function missingPackageMessage(command: string, name: string): string {
  const peer = GENERATOR_PEERS[name];
  const range = declaredRange(name);
  const install = `npm i -D ${name}${range === undefined ? '' : `@${range}`}`;
  if (peer === undefined) return `${command} needs the package "${name}", which is not installed (run npm install)`;
  return `${command} needs the package "${name}" for ${peer.for}, which is not installed: ${install}${peer.emitter ? ` (or leave them out: --skip ${peer.emitter})` : ''}`;
}
