/**
 * The reference host as a child process of a benchmark: bench-host.ts (`npm start` plus its SIGUSR2 report) — or its
 * bare Fastify peer, bare-host.ts — bundled once per benchmark run with esbuild (dependencies stay external and load
 * from node_modules; the SQLite writer thread's module beside the bundle) and run on the project's Node with
 * `--expose-gc`. A bundle starts in about half
 * a second where tsx would first transform the module graph (2–3 s on a loaded 2-core machine, the same for every
 * store): what a start-time ratio then compares is the host's own start, not the transform.
 *
 * `launchHost` resolves once the host answers `GET /readyz` 200, with the time from spawn to that answer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { childEnv } from '../../test/support/child-env.ts';
import { CACHE_DIR } from '../storage/store-cache.ts';
import { REPORT_PREFIX, type HostReport } from './report-signal.ts';

/** The operator token every benchmark host accepts (OPENWOP_HOST_TOKEN). */
export const BENCH_TOKEN = 'bench-host-operator-token-0123456789';
/** Keys every benchmark host shares (SR-1 sealing, cursor signing), so hosts on one store serve each other's cursors. */
/**
 * The credentials file every benchmark host is started with (PostgreSQL requires one): the SR-1 sealing key and the
 * cursor key every host of one store shares, and an operator key besides the development token the clients use.
 */
let credentialsFile: string | undefined;
function sharedCredentials(): string {
  if (credentialsFile === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'wopkit-bench-credentials-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    credentialsFile = join(dir, 'credentials.json');
    writeFileSync(credentialsFile, JSON.stringify({
      keys: [{ id: 'bench-ops', role: 'operator', key: 'bench-file-operator-key-0123456789' }],
      secretKeys: [{ id: 'bench', key: Buffer.alloc(32, 9).toString('base64') }],
      cursorKey: Buffer.alloc(32, 5).toString('base64'),
    }));
  }
  return credentialsFile;
}

export type HostStore = { readonly kind: 'memory' } | { readonly kind: 'sqlite'; readonly dataDir: string } | { readonly kind: 'postgres'; readonly url: string };

export interface HostProcess {
  readonly url: string;
  readonly pid: number;
  /** Milliseconds from spawn to the first `GET /readyz` 200. */
  readonly readyMs: number;
  /** Ask the process for its report (event-loop delay since the last one, memory after a full GC) and read its VmRSS. */
  report(): Promise<HostReport & { readonly vmRssBytes: number }>;
  /** SIGTERM (the host drains and closes its store), then wait for the exit. */
  stop(): Promise<void>;
  output(): string;
}

/** What a benchmark process runs: the reference host (bench-host.ts), or the bare Fastify peer (bare-host.ts). */
export type Entry = 'host' | 'bare';
const ENTRY_MODULES: Readonly<Record<Entry, string>> = { host: 'bench/host/bench-host.ts', bare: 'bench/host/bare-host.ts' };

let bundle: Promise<string> | undefined;

/** The entries bundled (once per process) into bench/.cache/host-bundle/, with the SQLite writer thread beside them. */
function bundled(entry: Entry): Promise<string> {
  const dir = join(CACHE_DIR, 'host-bundle');
  bundle ??= (async () => {
    const { build } = await import('esbuild');
    mkdirSync(dir, { recursive: true });
    // ignoreAnnotations: the project's package.json says `sideEffects: false`, which would drop the entries' bare imports.
    const common = { bundle: true, platform: 'node', format: 'esm', target: 'node24', packages: 'external', logLevel: 'warning', ignoreAnnotations: true } as const;
    const root = resolve(import.meta.dirname, '..', '..');
    await build({ ...common, entryPoints: Object.values(ENTRY_MODULES).map((m) => join(root, m)), outdir: dir, outExtension: { '.js': '.mjs' } });
    await build({ ...common, entryPoints: [join(root, 'runtime/storage/sqlite/writer-worker.ts')], outfile: join(dir, 'writer-worker.js') });
    return dir;
  })();
  return bundle.then((d) => join(d, `${basename(ENTRY_MODULES[entry], '.ts')}.mjs`));
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));

const READY_LINE = /listening on (http:\/\/[^\s)]+)/;

/** VmRSS of a process, in bytes (Linux /proc). */
export function vmRss(pid: number): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (m === null) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) * 1024;
}

/** CPU time a process used so far (user + system), in ms (Linux /proc, 10 ms ticks). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Start a host on `store`; resolves once it is ready. `env` adds to (or overrides) its environment; `entry: 'bare'`
 * starts the bare Fastify peer instead (it ignores the store).
 */
export async function launchHost(store: HostStore, env: NodeJS.ProcessEnv = {}, o: { readonly entry?: Entry; readonly timeoutMs?: number } = {}): Promise<HostProcess> {
  const entry = await bundled(o.entry ?? 'host');
  const timeoutMs = o.timeoutMs ?? 120_000;
  const args = store.kind === 'sqlite' ? ['--store', 'sqlite', '--data-dir', store.dataDir] : ['--store', store.kind];
  const started = performance.now();
  const child = spawn(process.execPath, [entry, ...args], {
    env: childEnv({
      PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', OPENWOP_HOST_TOKEN: BENCH_TOKEN, NODE_OPTIONS: '--expose-gc', WOPKIT_CREDENTIALS_FILE: sharedCredentials(),
      ...(store.kind === 'postgres' ? { WOPKIT_DATABASE_URL: store.url } : {}), ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: (() => void)[] = [];
  const onData = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const w of waiters.splice(0)) w();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const until = <T>(find: () => T | undefined, what: string, ms: number): Promise<T> =>
    new Promise((resolveFound, reject) => {
      const timer = setTimeout(() => reject(new Error(`host ${child.pid}: no ${what} within ${ms} ms:\n${out.slice(-2000)}`)), ms);
      const onExit = () => reject(new Error(`host ${child.pid} exited (code ${child.exitCode}) before ${what}:\n${out.slice(-2000)}`));
      child.once('exit', onExit);
      const look = () => {
        const found = find();
        if (found === undefined) return void waiters.push(look);
        clearTimeout(timer);
        child.off('exit', onExit);
        resolveFound(found);
      };
      look();
    });
  try {
    const url = await until(() => READY_LINE.exec(out)?.[1], 'ready line', timeoutMs);
    for (;;) {
      const res = await fetch(`${url}/readyz`).catch(() => undefined);
      if (res?.status === 200) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const readyMs = performance.now() - started;
    let reports = 0;
    return {
      url,
      pid: child.pid!,
      readyMs,
      async report() {
        const n = ++reports;
        child.kill('SIGUSR2');
        const line = await until(() => out.split('\n').filter((l) => l.startsWith(REPORT_PREFIX))[n - 1], 'report', 30_000);
        return { ...(JSON.parse(line.slice(REPORT_PREFIX.length)) as HostReport), vmRssBytes: vmRss(child.pid!) };
      },
      async stop() {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        await exited(child);
        clearTimeout(timer);
      },
      output: () => out,
    };
  } catch (err) {
    child.kill('SIGKILL');
    await exited(child);
    throw err;
  }
}

/** A random suffix for names a benchmark makes up. */
export const nonce = (): string => randomBytes(4).toString('hex');
