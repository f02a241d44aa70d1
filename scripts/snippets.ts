/**
 * The code blocks readers copy: every fenced `ts`, `js` and `sh` block of README.md and docs/*.md, each with a verdict.
 *
 *  - run (the default): a `ts` block is compiled with strict `nodenext` TypeScript and run on Node 24, a `js` block run
 *    on Node 24, in a scratch project that installed the packed tarballs; an `sh` block runs with bash (`-e`) in a scratch
 *    copy of the repository;
 *  - compile-only: `<!-- snippet: compile-only (reason) -->` on the line before the fence; a `ts` block is compiled, not run;
 *  - skip: `<!-- snippet: skip (reason) -->`: for a block that needs what CI lacks (a public registry, a system service,
 *    a long-running server, the whole test suite or a benchmark run).
 *
 * `npm run snippets [-- --no-build] [--keep]` builds, packs, installs and checks them all, and prints how many were
 * executed, compiled and opted out (test/package/snippets.test.ts, soak). The extraction and the verdicts are checked in
 * the main set (test/package/snippets.test.ts), which also compiles and runs the `ts` blocks against the repository's own
 * modules in place of the packages ({@link sourceProgram}); test/package/snippets-packed.test.ts (soak) runs this script.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGES, VALIDATORS_PACKAGE } from './package-layout.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The languages checked, by the names a fence may give them. */
const LANGS: Readonly<Record<string, SnippetLang>> = { ts: 'ts', typescript: 'ts', js: 'js', javascript: 'js', mjs: 'js', sh: 'sh', bash: 'sh', shell: 'sh' };
export type SnippetLang = 'ts' | 'js' | 'sh';

export type Verdict = { readonly kind: 'run' } | { readonly kind: 'compile-only' | 'skip'; readonly reason: string };

export interface Snippet {
  /** Repository-relative path of the Markdown file. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: SnippetLang;
  readonly code: string;
  readonly verdict: Verdict;
}

/** A problem with a file's markers: a marker with no reason, an unknown verdict, a marker not before a checked block. */
export class SnippetMarkerError extends Error {
  constructor(readonly file: string, readonly line: number, what: string) {
    super(`${file}:${line}: ${what}`);
    this.name = 'SnippetMarkerError';
  }
}

const MARKER = /^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$/;
const MARKER_BODY = /^(skip|compile-only)\s*\((.*)\)$/;
const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;

/** The `ts`, `js` and `sh` blocks of one Markdown text, each with its verdict; throws on a malformed or stray marker. */
export function extractSnippets(markdown: string, file: string): Snippet[] {
  const lines = markdown.split('\n');
  const out: Snippet[] = [];
  let pending: { line: number; verdict: Verdict } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const marker = MARKER.exec(text);
    if (marker) {
      if (pending) throw new SnippetMarkerError(file, pending.line, 'snippet marker not followed by a ts, js or sh block');
      const body = MARKER_BODY.exec(marker[1]!);
      if (!body) throw new SnippetMarkerError(file, i + 1, `unknown snippet marker "${marker[1]}": write <!-- snippet: skip (reason) --> or <!-- snippet: compile-only (reason) -->`);
      const reason = body[2]!.trim();
      if (reason === '') throw new SnippetMarkerError(file, i + 1, `snippet marker "${body[1]}" gives no reason`);
      pending = { line: i + 1, verdict: { kind: body[1] as 'skip' | 'compile-only', reason } };
      continue;
    }
    const fence = FENCE.exec(text);
    if (!fence) {
      if (pending && text.trim() !== '') throw new SnippetMarkerError(file, pending.line, 'snippet marker not followed by a ts, js or sh block');
      continue;
    }
    const [, indent, ticks, info] = fence;
    let end = i + 1;
    const closes = (l: string) => { const t = l.trim(); return t.length >= ticks!.length && t === ticks!.charAt(0).repeat(t.length); };
    while (end < lines.length && !closes(lines[end]!)) end++;
    const lang = LANGS[(info ?? '').toLowerCase()];
    if (lang === undefined) {
      if (pending) throw new SnippetMarkerError(file, pending.line, `snippet marker before a block of language "${info ?? ''}", which is not checked`);
    } else {
      const code = lines.slice(i + 1, end).map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l)).join('\n');
      const verdict = pending?.verdict ?? { kind: 'run' };
      if (verdict.kind === 'compile-only' && lang !== 'ts') throw new SnippetMarkerError(file, pending!.line, `compile-only is for ts blocks, not ${lang}`);
      out.push({ file, line: i + 1, lang, code: `${code}\n`, verdict });
    }
    pending = undefined;
    i = end;
  }
  if (pending) throw new SnippetMarkerError(file, pending.line, 'snippet marker not followed by a ts, js or sh block');
  return out;
}

/** The Markdown files whose blocks are checked: README.md and docs/*.md (not docs/ subfolders). */
export function snippetFiles(root = ROOT): string[] {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

/** Every checked block of the repository (or of `root`, a copy). */
export function allSnippets(root = ROOT): Snippet[] {
  return snippetFiles(root).flatMap((f) => extractSnippets(readFileSync(join(root, f), 'utf8'), f));
}

/** A block's name in reports and in the scratch project: `README.md:27`. */
export const snippetName = (s: Pick<Snippet, 'file' | 'line'>): string => `${s.file}:${s.line}`;
const fileStem = (s: Snippet, i: number): string => `snippet-${String(i).padStart(2, '0')}-${s.file.replace(/[^\w]+/g, '-')}-${s.line}`;

/** How many blocks were executed, compiled only, and opted out. */
export interface SnippetCounts { readonly executed: number; readonly compiled: number; readonly optedOut: number }
export const countLine = (c: SnippetCounts): string => `snippets: ${c.executed} executed, ${c.compiled} compiled only, ${c.optedOut} opted out`;

// --- the repository's own modules in place of the packages (the main set's fast check) ---------------------------

/** Bare specifier prefix → repository source file, from the packages' export maps (scripts/package-layout.ts). */
function sourceExports(root: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const p of PACKAGES) {
    for (const [sub, target] of Object.entries(p.exports)) {
      const spec = sub === '.' ? p.name : `${p.name}/${sub.slice(2)}`;
      const ts = target.replace(/\.js$/, '.ts');
      map.set(spec, !target.includes('*') && existsSync(join(root, ts)) ? ts : target);
    }
  }
  // wopkit/validators/<Type> re-exports @wopkit/validators/validate/<Type> (written by the build, not in the source tree).
  map.set('wopkit/validators/*', map.get(`${VALIDATORS_PACKAGE}/validate/*`)!);
  map.set('wopkit/schemas/*', 'schemas/*');
  return map;
}

/** The repository file a package specifier names, or undefined when it is not one of the packages'. */
export function sourceOf(specifier: string, root = ROOT): string | undefined {
  const map = sourceExports(root);
  const exact = map.get(specifier);
  if (exact !== undefined && !exact.includes('*')) return join(root, exact);
  for (const [spec, target] of map) {
    if (!spec.endsWith('/*') || !specifier.startsWith(spec.slice(0, -1))) continue;
    const file = join(root, target.replace('*', specifier.slice(spec.length - 1)));
    const found = [file.replace(/\.js$/, '.ts'), file].find((f) => existsSync(f));
    if (found !== undefined) return found;
  }
  return undefined;
}

const IMPORT = /(\bfrom\s+|\bimport\s+)(['"])([^'"]+)\2/g;

/**
 * A `ts` block rewritten to import the repository's modules where it imports the packages, to run with tsx from a
 * folder inside the repository (so any other package resolves from its node_modules). Undefined when it imports a
 * package subpath the source tree lacks.
 */
export function sourceProgram(code: string, root = ROOT): string | undefined {
  let unresolved = false;
  const out = code.replace(IMPORT, (all, kw: string, q: string, spec: string) => {
    if (spec !== 'wopkit' && !spec.startsWith('wopkit/') && !spec.startsWith(VALIDATORS_PACKAGE)) return all;
    const file = sourceOf(spec, root);
    if (file === undefined) unresolved = true;
    return `${kw}${q}${file ?? spec}${q}`;
  });
  return unresolved ? undefined : out;
}

/** Run one `ts` block against the repository's modules with tsx, in a fresh working directory; its exit status and output. */
export function runFromSource(code: string, o: { root?: string; node?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): { status: number | null; output: string } {
  const root = o.root ?? ROOT;
  const program = sourceProgram(code, root);
  if (program === undefined) throw new Error('the block imports a package subpath the source tree does not have');
  const dir = join(root, '.tmp', 'snippets');
  mkdirSync(dir, { recursive: true });
  const work = mkdtempSync(join(dir, 'run-'));
  try {
    writeFileSync(join(work, 'snippet.ts'), program);
    const node = o.node ?? realpathSync(join(root, 'node_modules/.bin/node'));
    const r = spawnSync(node, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'snippet.ts'], { cwd: work, env: o.env ?? process.env, encoding: 'utf8', timeout: o.timeoutMs ?? 300_000 });
    return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Type-check `ts` blocks against the repository's modules (the repository's strict tsconfig, imports rewritten by
 * {@link sourceProgram}); the compiler's output, empty when they compile. Every block must resolve to the source tree.
 */
export function compileFromSource(blocks: readonly { name: string; code: string }[], o: { root?: string; node?: string; env?: NodeJS.ProcessEnv } = {}): { status: number | null; output: string } {
  const root = o.root ?? ROOT;
  const dir = join(root, '.tmp', 'snippets');
  mkdirSync(dir, { recursive: true });
  const work = mkdtempSync(join(dir, 'tsc-'));
  try {
    const files = blocks.map((b, i) => {
      const program = sourceProgram(b.code, root);
      if (program === undefined) throw new Error(`${b.name} imports a package subpath the source tree does not have`);
      const file = `snippet-${i}-${b.name.replace(/[^\w]+/g, '-')}.ts`;
      writeFileSync(join(work, file), program);
      return file;
    });
    writeFileSync(join(work, 'tsconfig.json'), JSON.stringify({ extends: relative(work, join(root, 'tsconfig.json')), compilerOptions: { noEmit: true }, include: [], files }));
    const node = o.node ?? realpathSync(join(root, 'node_modules/.bin/node'));
    const r = spawnSync(node, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: work, env: o.env ?? process.env, encoding: 'utf8', timeout: 300_000 });
    return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// --- the packed tarballs (the soak set) ----------------------------------------------------------------------------

function run(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, timeout = 600_000): string {
  try {
    return execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, timeout });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; status?: number | null };
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${err.status ?? 'on a signal or timeout'}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  }
}

const TSCONFIG = (files: string[]) => `${JSON.stringify({
  compilerOptions: {
    target: 'ES2023', lib: ['ES2023'], module: 'nodenext', moduleResolution: 'nodenext', types: ['node'],
    strict: true, noUncheckedIndexedAccess: true, resolveJsonModule: true, skipLibCheck: false, outDir: 'out', rootDir: '.',
  },
  files,
}, null, 2)}\n`;

/** Bare package names a block imports, other than ours and node's (installed from the registry at the repo's pinned version). */
function thirdParty(snippets: readonly Snippet[]): string[] {
  const names = new Set<string>();
  for (const s of snippets) for (const m of s.code.matchAll(IMPORT)) {
    const spec = m[3]!;
    if (spec.startsWith('.') || spec.startsWith('node:') || spec === 'wopkit' || spec.startsWith('wopkit/') || spec.startsWith(VALIDATORS_PACKAGE)) continue;
    names.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
  }
  return [...names].sort();
}

/** A copy of the repository for `sh` blocks: the tracked tree without .git, dist and site output, node_modules linked. */
function scratchCopy(at: string): string {
  const skip = new Set(['.git', 'node_modules', 'dist', '.tmp', '.wopkit-data']);
  cpSync(ROOT, at, { recursive: true, filter: (src) => { const rel = relative(ROOT, src); return !skip.has(rel.split('/')[0]!) && !rel.startsWith('site/dist') && !rel.startsWith('site/.astro'); } });
  symlinkSync(join(ROOT, 'node_modules'), join(at, 'node_modules'));
  return at;
}

export interface SnippetRunOptions {
  readonly build?: boolean;
  readonly keep?: boolean;
  /** The Markdown files are read from here (default: the repository); the packages are always the repository's. */
  readonly docsRoot?: string;
  readonly log?: (line: string) => void;
}

/** Build (unless told not to), pack, install, then compile and run every block; throws naming every block that failed. */
export async function checkSnippets(o: SnippetRunOptions = {}): Promise<SnippetCounts> {
  const log = o.log ?? ((s: string) => process.stdout.write(`${s}\n`));
  const NODE = realpathSync(join(ROOT, 'node_modules/.bin/node'));
  const env = { ...process.env, PATH: `${dirname(NODE)}:${process.env.PATH ?? ''}`, npm_config_loglevel: 'error', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
  const snippets = allSnippets(o.docsRoot ?? ROOT);
  if (o.build !== false) {
    const { build } = await import('./build.ts');
    log('snippets: npm run build');
    build(() => {});
  }
  const { packAll } = await import('./pack.ts');
  const work = mkdtempSync(join(tmpdir(), 'wopkit-snippets-'));
  const failures: string[] = [];
  let executed = 0;
  let compiled = 0;
  let optedOut = 0;
  try {
    const packed = packAll(work);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; dependencies: Record<string, string> };
    const pinned = (name: string) => `${name}@${pkg.devDependencies[name] ?? pkg.dependencies[name] ?? 'latest'}`;

    // One project for every ts and js block: every tarball (wopkit depends on each validators package), TypeScript,
    // Node's types, and any other package a block imports.
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'wopkit-snippets', version: '0.0.0', private: true, type: 'module' }, null, 2)}\n`);
    const code = snippets.filter((s) => s.lang !== 'sh');
    const extra = thirdParty(code.filter((s) => s.verdict.kind !== 'skip'));
    run('npm', ['install', '--prefer-offline', '--no-package-lock', ...packed.map((p) => join(work, p.filename)), pinned('typescript'), pinned('@types/node'), ...extra.map(pinned)], app, env);
    log(`snippets: installed ${packed.map((p) => p.name).join(', ')}${extra.length ? ` and ${extra.join(', ')}` : ''} into ${app}`);

    const named = code.map((s, i) => ({ s, stem: fileStem(s, i) }));
    const tsBlocks = named.filter(({ s }) => s.lang === 'ts' && s.verdict.kind !== 'skip');
    for (const { s, stem } of named) writeFileSync(join(app, `${stem}.${s.lang === 'ts' ? 'ts' : 'mjs'}`), s.code);
    // Each ts block compiled on its own (a block's errors name it), under the same strict nodenext settings.
    for (const { s, stem } of tsBlocks) {
      writeFileSync(join(app, 'tsconfig.json'), TSCONFIG([`${stem}.ts`]));
      try {
        run(NODE, [join(app, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app, env);
      } catch (e) {
        failures.push(`${snippetName(s)} does not compile (strict, nodenext):\n${(e as Error).message}`);
      }
    }
    for (const { s, stem } of named) {
      if (s.verdict.kind === 'skip') { optedOut++; log(`snippets: ${snippetName(s)} (${s.lang}) opted out: ${s.verdict.reason}`); continue; }
      if (s.verdict.kind === 'compile-only') { compiled++; log(`snippets: ${snippetName(s)} (ts) compiled, not run: ${s.verdict.reason}`); continue; }
      if (failures.some((f) => f.startsWith(`${snippetName(s)} `))) continue;
      const cwd = mkdtempSync(join(work, 'cwd-'));
      const entry = s.lang === 'ts' ? join(app, 'out', `${stem}.js`) : join(app, `${stem}.mjs`);
      try {
        const out = run(NODE, [entry], cwd, env, 300_000).trim();
        executed++;
        log(`snippets: ${snippetName(s)} (${s.lang}) ${s.lang === 'ts' ? 'compiled and ' : ''}ran on Node 24${out ? `: ${out.split('\n').at(-1)}` : ''}`);
      } catch (e) {
        failures.push(`${snippetName(s)} failed on Node 24:\n${(e as Error).message}`);
      }
    }

    // sh blocks: bash -e in a scratch copy of the repository, Node 24 first on PATH.
    const shell = snippets.filter((s) => s.lang === 'sh');
    let copy: string | undefined;
    for (const s of shell) {
      if (s.verdict.kind !== 'run') { optedOut++; log(`snippets: ${snippetName(s)} (sh) opted out: ${s.verdict.reason}`); continue; }
      copy ??= scratchCopy(join(work, 'repo'));
      try {
        run('bash', ['-e', '-o', 'pipefail', '-c', s.code], copy, env, 600_000);
        executed++;
        log(`snippets: ${snippetName(s)} (sh) ran in a scratch copy of the repository`);
      } catch (e) {
        failures.push(`${snippetName(s)} failed in a scratch copy of the repository:\n${(e as Error).message}`);
      }
    }
  } finally {
    if (failures.length === 0 && o.keep !== true) rmSync(work, { recursive: true, force: true });
    else log(`snippets: files kept in ${work}`);
  }
  const counts = { executed, compiled, optedOut };
  log(countLine(counts));
  if (failures.length > 0) throw new Error(`${failures.length} block(s) failed:\n\n${failures.join('\n\n')}`);
  log('snippets: passed');
  return counts;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const docsAt = args.indexOf('--docs');
  checkSnippets({ build: !args.includes('--no-build'), keep: args.includes('--keep'), ...(docsAt >= 0 ? { docsRoot: resolve(args[docsAt + 1]!) } : {}) }).catch((e: unknown) => {
    process.stderr.write(`snippets: FAILED\n${(e as Error).message}\n`);
    process.exitCode = 1;
  });
}
