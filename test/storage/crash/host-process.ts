/**
 * The reference host as a child process, for tests that kill it: start it with a store, wait for its ready line,
 * `kill -9` it, start it again.
 *
 * Start-up cost: `npm start` runs the host through tsx, which transforms the module graph (a few hundred modules)
 * on every start — 2–3.5 s per start on a loaded 2-core machine, most of a 50-kill campaign. So the entry module is
 * bundled once per test process (esbuild, which tsx itself runs on; dependencies stay external and load from
 * node_modules) and every start runs the bundle on the project's Node: the same code, about 0.5 s per start.
 * CRASH_HOST_TSX=1 runs the entry through tsx instead, exactly as `npm start` does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { childEnv } from '../../support/child-env.ts';

/** The operator token every crash-test host is started with (OPENWOP_HOST_TOKEN, a development key). */
export const CRASH_TOKEN = 'crash-test-operator-token';
/**
 * The credentials file every test host is started with: the key it seals SR-1 registries with and the key it signs
 * cursors with (so a restarted host opens what the killed one sealed, and hosts of one database are one fleet), and
 * one more operator key (the client uses the development token).
 */
export const CRASH_CREDENTIALS = {
  keys: [{ id: 'crash-ops', role: 'operator', key: 'crash-test-file-operator-key' }],
  secretKeys: [{ id: 'crash', key: Buffer.alloc(32, 7).toString('base64') }],
  cursorKey: Buffer.alloc(32, 9).toString('base64'),
};

let credentialsFile: string | undefined;
/** CRASH_CREDENTIALS written to a file of this process (once). */
export function crashCredentialsFile(): string {
  if (credentialsFile === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'wopkit-crash-credentials-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    credentialsFile = join(dir, 'credentials.json');
    writeFileSync(credentialsFile, JSON.stringify(CRASH_CREDENTIALS));
  }
  return credentialsFile;
}

export interface HostSpec {
  /** `npm start` arguments after `--` (e.g. `--store sqlite --data-dir DIR`). */
  readonly args: readonly string[];
  /** Extra environment (WOPKIT_DATABASE_URL, test switches). */
  readonly env?: NodeJS.ProcessEnv;
  /** The entry module (default the host's own `runtime/host/main.ts`). */
  readonly entry?: string;
}

export interface RunningHost {
  readonly url: string;
  readonly pid: number;
  /** SIGKILL, then wait until the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful close), then wait. */
  stop(): Promise<void>;
  /** Send a signal (SIGSTOP, SIGCONT, a test entry's SIGUSR2). */
  signal(sig: NodeJS.Signals): void;
  /** Everything the process wrote so far (stdout + stderr), for failure messages. */
  output(): string;
  /** What the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves when the process exits, however it ends. */
  readonly exit: Promise<HostExit>;
}

/** How a host process ended. */
export interface HostExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
  readonly output: string;
}

const READY = /listening on (http:\/\/[^\s)]+)/;

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

/** Bundles built by this process, per entry module (built once, on first use). */
const bundles = new Map<string, Promise<string>>();
const bundleDir = join('node_modules', '.cache', 'wopkit-crash-hosts', String(process.pid));

/** The Node arguments that run `entry`: its bundle, or the module through tsx (CRASH_HOST_TSX=1). */
async function entryArgs(entry: string): Promise<string[]> {
  if (process.env.CRASH_HOST_TSX === '1') return ['--import', 'tsx', entry];
  let built = bundles.get(entry);
  if (built === undefined) {
    const first = bundles.size === 0;
    built = (async () => {
      const { build } = await import('esbuild');
      // Inside the project, so the external packages resolve from its node_modules.
      if (first) process.once('exit', () => rmSync(bundleDir, { recursive: true, force: true }));
      mkdirSync(bundleDir, { recursive: true });
      const outfile = resolve(bundleDir, `${basename(entry, '.ts')}.mjs`);
      await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node24', packages: 'external', logLevel: 'warning' });
      // The SQLite writer thread runs its own module, which the host finds next to itself.
      await build({ entryPoints: ['runtime/storage/sqlite/writer-worker.ts'], outfile: join(bundleDir, 'writer-worker.js'), bundle: true, platform: 'node', format: 'esm', target: 'node24', packages: 'external', logLevel: 'warning' });
      return outfile;
    })();
    bundles.set(entry, built);
  }
  return [await built];
}

/**
 * Start the host and resolve once it prints its ready line (reject with its output if it exits or times out first).
 * Test hosts lift the follow-up-run bound: a campaign fires thousands of commitments, each asking for a run.
 */
export async function startHost(spec: HostSpec, timeoutMs = 60_000): Promise<RunningHost> {
  const started = await startOrExit(spec, timeoutMs);
  if ('url' in started) return started;
  throw new Error(`host exited before it was ready (code ${started.code}, signal ${started.signal}):\n${started.output}`);
}

/** Start the host: the running host once it prints its ready line, or how it ended if it exits first. */
export async function startOrExit(spec: HostSpec, timeoutMs = 60_000): Promise<RunningHost | HostExit> {
  const child = spawn(process.execPath, [...(await entryArgs(spec.entry ?? 'runtime/host/main.ts')), ...spec.args], {
    env: childEnv({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', OPENWOP_HOST_TOKEN: CRASH_TOKEN, WOPKIT_CREDENTIALS_FILE: crashCredentialsFile(), OPENWOP_FOLLOW_UP_RUNS_PER_TENANT: '1000000', ...spec.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => { err += chunk.toString('utf8'); });
  const exit = new Promise<HostExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr: err, output: out })));
  const host = (url: string): RunningHost => ({
    url,
    pid: child.pid ?? -1,
    async kill9() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      child.kill('SIGCONT'); // a stopped process would not handle SIGTERM
      child.kill('SIGTERM');
      await exited(child);
    },
    signal(sig) {
      if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    },
    output: () => out,
    stderr: () => err,
    exit,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`host did not become ready within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = READY.exec(out);
      if (m?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(host(m[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exit.then((ended) => {
      clearTimeout(timer);
      resolve(ended); // (after the ready line this changes nothing: a promise settles once)
    });
  });
}
