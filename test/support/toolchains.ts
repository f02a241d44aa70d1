/**
 * Optional toolchains some tests need (compilers for the other-language round trips, Chromium for the browser
 * tests, a PostgreSQL server). On a machine without one, the tests that need it are skipped and the reason is noted
 * once per test file (`no go compiler; run scripts/install-toolchains.sh`) for the run's skip summary, which the
 * reporter prints after everything else (test/support/skip-summary.ts); with
 * `WOPKIT_REQUIRE_TOOLCHAINS=1` (set by CI, which installs everything) they run and fail instead, so a broken CI
 * image cannot turn into a green run with fewer tests.
 *
 *   const go = toolchain('go');
 *   it.skipIf(go.skip)('Go: …', () => { go.assert(); … });
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { noteSkip } from './skip-log.ts';

export { noteSkip };

export const REQUIRE_ENV = 'WOPKIT_REQUIRE_TOOLCHAINS';
const INSTALL_HINT = 'run scripts/install-toolchains.sh';

/** On PATH, as the tests will spawn it. */
const onPath = (cmd: string): boolean => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const hasDir = (dir: string, prefix: string): boolean => existsSync(dir) && readdirSync(dir).some((f) => f.startsWith(prefix));
const python = '/usr/bin/python3';

/** Whether this process may mount (and unmount) a tmpfs: tried once on a scratch directory. */
const canMountTmpfs = (): boolean => {
  if (process.getuid?.() !== 0 || !onPath('mount')) return false;
  const dir = mkdtempSync(join(tmpdir(), 'wopkit-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** Where the browser tests find Chromium (`CHROMIUM_PATH` overrides Debian's). */
export const chromiumPath = (): string => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Newtonsoft.Json assembly, when installed (its folder name carries the version). */
export const newtonsoftDll = (): string | undefined =>
  ['/usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll', '/usr/lib/cli/Newtonsoft.Json/Newtonsoft.Json.dll'].find((p) => existsSync(p));

interface ToolchainSpec {
  /** What is missing, as the skip reason says it ("no go compiler"). */
  readonly missing: string;
  /** How to install it when the toolchains script does not. */
  readonly hint?: string;
  readonly present: () => boolean;
}

/** Every optional toolchain, and how its presence is detected. */
export const TOOLCHAINS = {
  python: {
    missing: 'no python3 with dateutil',
    present: () => {
      if (!existsSync(python)) return false;
      try {
        execFileSync(python, ['-c', 'import dateutil'], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    },
  },
  go: { missing: 'no go compiler', present: () => onPath('go') && onPath('gofmt') },
  csharp: { missing: 'no Mono C# compiler (mcs, mono, Newtonsoft.Json)', present: () => onPath('mcs') && onPath('mono') && newtonsoftDll() !== undefined },
  rust: {
    missing: "no cargo with Debian's serde crates",
    present: () => onPath('cargo') && hasDir('/usr/share/cargo/registry', 'serde_json-1') && hasDir('/usr/share/cargo/registry', 'serde_derive-1'),
  },
  kotlin: { missing: 'no kotlinc', present: () => onPath('kotlinc') },
  chromium: { missing: 'no Chromium', hint: `${INSTALL_HINT} or set CHROMIUM_PATH`, present: () => existsSync(chromiumPath()) },
  tmpfs: {
    missing: 'no permission to mount a tmpfs (the full-disk tests mount a small one)',
    hint: 'run the tests as root, as CI does',
    present: () => canMountTmpfs(),
  },
  postgres: {
    missing: 'no PostgreSQL server',
    hint: `${INSTALL_HINT} or set WOPKIT_DATABASE_URL`,
    present: () => process.env.WOPKIT_DATABASE_URL !== undefined || (onPath('pg_ctlcluster') && hasDir('/usr/lib/postgresql', '')),
  },
} as const satisfies Record<string, ToolchainSpec>;

export type ToolchainId = keyof typeof TOOLCHAINS;

export interface Toolchain {
  readonly id: ToolchainId;
  readonly present: boolean;
  /** True when the tests that need it must be skipped (missing, and not required). */
  readonly skip: boolean;
  /** `skipped: no go compiler; run scripts/install-toolchains.sh` */
  readonly reason: string;
  /** Throws, naming what is missing, unless the toolchain is present: the first line of a test that needs it. */
  assert(): void;
}

export const toolchainsRequired = (env: NodeJS.ProcessEnv = process.env): boolean => env[REQUIRE_ENV] === '1' || env[REQUIRE_ENV] === 'true';

const announced = new Set<ToolchainId>();

/**
 * Look a toolchain up (once per test file: vitest isolates files). When it is missing and not required, note the
 * skip reason once for the summary.
 */
export function toolchain(id: ToolchainId, env: NodeJS.ProcessEnv = process.env): Toolchain {
  const spec: ToolchainSpec = TOOLCHAINS[id];
  const present = spec.present();
  const required = toolchainsRequired(env);
  const reason = `skipped: ${spec.missing}; ${spec.hint ?? INSTALL_HINT}`;
  const skip = !present && !required;
  if (skip && !announced.has(id)) {
    announced.add(id);
    noteSkip(`${spec.missing}; ${spec.hint ?? INSTALL_HINT}`);
  }
  return {
    id,
    present,
    skip,
    reason,
    assert() {
      if (!present) throw new Error(`${spec.missing} (${REQUIRE_ENV}=1 turns the skip into this failure); ${spec.hint ?? INSTALL_HINT}`);
    },
  };
}
