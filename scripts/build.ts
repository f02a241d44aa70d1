/**
 * `npm run build`: compile the package into dist/ (ESM JavaScript, `.d.ts`, declaration maps), mirroring the source
 * tree so that every relative import keeps working: dist/entry/ (the subpath barrels), dist/generated/,
 * dist/runtime/, dist/conformance/, dist/generator/ (the CLI).
 *
 * tsc (tsconfig.build.json, `rewriteRelativeImportExtensions`) turns `.ts` specifiers into `.js` in JavaScript but
 * leaves them as written in declaration files, and never emits the generated standalone validator module (it is
 * JavaScript with a hand-written-by-the-generator `.d.ts`). This script bundles that module (esbuild), rewrites relative
 * `.ts` specifiers in every emitted `.d.ts` (same length, so declaration maps stay exact), and turns the CLI into an
 * executable with a plain `node` shebang.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { buildSync } from 'esbuild';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist');
/** The `bin` target, relative to the package root. */
export const CLI = 'dist/generator/cli.js';
/**
 * The generated validators, which tsc does not emit: in the repository one module per schema file (under by-schema/,
 * so that watch mode re-emits only what an edit affects) behind the index `validators.js`; in the package that index
 * bundled into one plain ESM file (loading some sixty modules costs a consumer about 50 ms more at start-up than one
 * file) with its declarations copied beside it.
 */
const VALIDATORS = 'generated/validators/validators.js';
const VALIDATORS_DTS = 'generated/validators/validators.d.ts';

function bundleValidators(): void {
  mkdirSync(dirname(join(DIST, VALIDATORS)), { recursive: true });
  buildSync({ entryPoints: [join(ROOT, VALIDATORS)], outfile: join(DIST, VALIDATORS), bundle: true, format: 'esm', platform: 'neutral', logLevel: 'warning', legalComments: 'none' });
  copyFileSync(join(ROOT, VALIDATORS_DTS), join(DIST, VALIDATORS_DTS));
}

const RELATIVE_TS = /^\.\.?\/.*\.(m|c)?ts$/;

/** Positions of every relative `.ts`/`.mts`/`.cts` module specifier in a declaration file (imports, exports, `import("…")` types). */
function tsSpecifiers(file: string, text: string): ts.StringLiteral[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: ts.StringLiteral[] = [];
  const visit = (node: ts.Node): void => {
    let spec: ts.Node | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) spec = node.moduleSpecifier;
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) spec = node.argument.literal;
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) spec = node.name;
    if (spec !== undefined && ts.isStringLiteral(spec) && RELATIVE_TS.test(spec.text)) found.push(spec);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `./x.ts` → `./x.js` (and `.mts` → `.mjs`, `.cts` → `.cjs`) in module specifiers only; same length, so maps stay exact. */
export function rewriteDeclarationSpecifiers(file: string, text: string): string {
  let out = text;
  for (const lit of tsSpecifiers(file, text).reverse()) {
    const end = lit.getEnd() - 1; // before the closing quote
    out = `${out.slice(0, end - 2)}js${out.slice(end)}`;
  }
  return out;
}

/** Relative `.ts` specifiers left in a declaration file (empty when the file is consumable under nodenext). */
export const leftoverTsSpecifiers = (file: string, text: string): string[] => tsSpecifiers(file, text).map((l) => l.text);

function* walk(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else yield p;
  }
}

export function build(log: (s: string) => void = (s) => process.stdout.write(`${s}\n`)): void {
  const t0 = performance.now();
  rmSync(DIST, { recursive: true, force: true });
  execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  bundleValidators();
  let rewritten = 0;
  let files = 0;
  for (const p of walk(DIST)) {
    files++;
    if (!p.endsWith('.d.ts')) continue;
    const text = readFileSync(p, 'utf8');
    const next = rewriteDeclarationSpecifiers(p, text);
    if (next !== text) {
      writeFileSync(p, next);
      rewritten++;
    }
  }
  const cli = join(ROOT, CLI);
  const body = readFileSync(cli, 'utf8').replace(/^#!.*\n/, '');
  writeFileSync(cli, `#!/usr/bin/env node\n${body}`);
  chmodSync(cli, 0o755);
  log(`build: ${files} files in dist/ (${rewritten} declaration files had .ts specifiers rewritten) in ${Math.round(performance.now() - t0)} ms`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) build();
