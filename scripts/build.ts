/**
 * `npm run build`: compile the source tree once and assemble the packages of scripts/package-layout.ts from it, each
 * in its own folder with its own manifest (dist/validators/ is `@wopkit/validators`; dist/ itself is `wopkit`, whose
 * `files` leave the validators folder out); `npm run pack` packs them. No source folder moves: a package is a subset of the compiled tree, in the
 * source layout, so every relative import inside a package keeps working.
 *
 *  1. tsc (tsconfig.build.json, `rewriteRelativeImportExtensions`) compiles into the staging tree dist/.tsc/: ESM
 *     JavaScript, `.d.ts` and declaration maps. tsc turns `.ts` specifiers into `.js` in JavaScript but leaves them as
 *     written in declaration files; they are rewritten here (same length, so declaration maps stay exact).
 *  2. The generated validators, which tsc does not emit (JavaScript with a `.d.ts` the generator writes): the barrel is
 *     bundled into one plain ESM file (two hundred modules cost a Node importer about 100 ms more at start-up than one
 *     file), which keeps every pure annotation, so a bundler still keeps only the validators a page imports; each type's
 *     subpath (`./validate/<Title>`) is a one-line re-export of it from the bundle (the same instance as the barrel's,
 *     and the package stays within its size budget); the run-event dispatch imports those.
 *     wopkit re-exports each one under `wopkit/validators/<Title>`: a two-line module per type, written here (from the
 *     generated modules' names) into the staging tree, importing `@wopkit/validators/validate/<Title>` by name.
 *  3. The CLI gets a plain `node` shebang and the executable bit.
 *  4. Each package gets its files, the schema files, its README, LICENSE, NOTICE, CHANGELOG and manifest. An import
 *     from one package into another's files becomes that package's bare specifier (`@wopkit/validators/guards`); an
 *     import that crosses packages any other way, or a compiled file no package takes, fails the build.
 *  5. dist/node_modules/ links each package by name, so the assembled packages run in place (tests, benchmarks) the
 *     way they run once installed.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { buildSync } from 'esbuild';
import { PACKAGES, SPECIFIERS, VALIDATORS_PACKAGE, VALIDATORS_V2_PACKAGE, holds, manifestOf, packageOf, schemaFoldersOf, shippedReadme, type PackageLayout, type RootManifest } from './package-layout.ts';
import { corpusConfig } from '../generator/corpus-config.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist');
/** The staging tree tsc compiles into (removed once the packages are assembled). */
const STAGING = join(DIST, '.tsc');
/** The CLI's bin (its Node version check, which then loads generator/cli.js), relative to the staging tree and to its package. */
export const CLI = 'generator/bin.js';
const PACKAGE_DOCUMENTS = ['LICENSE', 'NOTICE', 'CHANGELOG.md'];

/**
 * The generated validators folders, one per major (generator/naming.ts majorLayout), each bundled on its own; wopkit
 * re-exports each validator of a folder from its package under `stubs` (`wopkit/validators/<Title>`,
 * `wopkit/v2/validators/<Title>`).
 */
const VALIDATOR_FOLDERS = [
  { dir: 'generated/validators', pkg: VALIDATORS_PACKAGE, stubs: 'entry/validators', subpath: 'validators' },
  { dir: 'generated/validators/v2', pkg: VALIDATORS_V2_PACKAGE, stubs: 'entry/v2/validators', subpath: 'v2/validators' },
] as const;
type ValidatorFolder = (typeof VALIDATOR_FOLDERS)[number];

/** The folder of an assembled package. */
export const packageDir = (p: Pick<PackageLayout, 'dir'>): string => join(DIST, p.dir);

function bundleValidators(folder: ValidatorFolder): void {
  const dir = join(ROOT, folder.dir);
  const barrel = `${folder.dir}/validators.js`;
  mkdirSync(join(STAGING, folder.dir, 'by-type'), { recursive: true });
  buildSync({ entryPoints: [join(ROOT, barrel)], outfile: join(STAGING, barrel), bundle: true, format: 'esm', platform: 'neutral', logLevel: 'warning', legalComments: 'none' });
  // The barrel's declarations and the types they name (the Validator type, the Standard Schema interface).
  for (const f of ['validators.d.ts', 'validator.d.ts', 'standard-schema.d.ts']) copyFileSync(join(dir, f), join(STAGING, folder.dir, f));
  for (const title of validatorTitles(folder)) {
    // One line per type (a comment here would be repeated in every one of these files, in both packages).
    const body = `export { validate${title} } from '../validators.js';\n`;
    writeFileSync(join(STAGING, folder.dir, 'by-type', `${title}.js`), body);
    writeFileSync(join(STAGING, folder.dir, 'by-type', `${title}.d.ts`), body);
  }
}

/**
 * The title of every validator a folder's barrel exports (`validate<Title>` in its validators.d.ts): its by-type
 * subpaths. A later major's folder also holds modules of the first major's types it references, which its barrel
 * does not export; they are bundled into the barrel and get no subpath.
 */
const validatorTitles = (folder: ValidatorFolder): string[] =>
  [...readFileSync(join(ROOT, folder.dir, 'validators.d.ts'), 'utf8').matchAll(/^export declare const validate(\w+): /gm)].map((m) => m[1]!).sort();

/** The folder of wopkit's per-type re-exports (`wopkit/validators/*`), in the staging tree. */
export const WOPKIT_VALIDATOR_STUBS = VALIDATOR_FOLDERS[0].stubs;

/** wopkit/validators/<Title> (and wopkit/v2/validators/<Title>): one re-export per validator of the folder's package. */
function writeValidatorStubs(folder: ValidatorFolder): void {
  mkdirSync(join(STAGING, folder.stubs), { recursive: true });
  for (const title of validatorTitles(folder)) {
    const body = `// wopkit/${folder.subpath}/${title}: the validator of ${title} from ${folder.pkg} (the same module instance).\nexport { validate${title} } from '${folder.pkg}/validate/${title}';\n`;
    writeFileSync(join(STAGING, folder.stubs, `${title}.js`), body);
    writeFileSync(join(STAGING, folder.stubs, `${title}.d.ts`), body);
  }
}

/**
 * Every module specifier of a module (imports, exports, `import("…")` calls and types, `declare module "…"`), as the
 * string literals the parser found.
 */
function moduleSpecifiers(file: string, text: string): ts.StringLiteral[] {
  const kind = file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: ts.StringLiteral[] = [];
  const visit = (node: ts.Node): void => {
    let spec: ts.Node | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) spec = node.moduleSpecifier;
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) spec = node.argument.literal;
    else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) spec = node.name;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) spec = node.arguments[0];
    if (spec !== undefined && ts.isStringLiteral(spec)) found.push(spec);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Replace module specifiers: `to(specifier)` gives the new text, or undefined to keep it. */
function replaceSpecifiers(file: string, text: string, to: (specifier: string) => string | undefined): string {
  let out = text;
  for (const lit of moduleSpecifiers(file, text).reverse()) {
    const next = to(lit.text);
    if (next === undefined) continue;
    out = `${out.slice(0, lit.getStart() + 1)}${next}${out.slice(lit.getEnd() - 1)}`;
  }
  return out;
}

const RELATIVE_TS = /^\.\.?\/.*\.(m|c)?ts$/;

/** `./x.ts` → `./x.js` (and `.mts` → `.mjs`, `.cts` → `.cjs`) in module specifiers only; same length, so maps stay exact. */
export const rewriteDeclarationSpecifiers = (file: string, text: string): string =>
  replaceSpecifiers(file, text, (spec) => (RELATIVE_TS.test(spec) ? `${spec.slice(0, -2)}js` : undefined));

/** Relative `.ts` specifiers left in a declaration file (empty when the file is consumable under nodenext). */
export const leftoverTsSpecifiers = (file: string, text: string): string[] => moduleSpecifiers(file, text).map((l) => l.text).filter((s) => RELATIVE_TS.test(s));

/** Files under `dir`, as paths relative to it with `/` separators. */
function* walk(dir: string, base = dir): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p, base);
    else yield relative(base, p).split('\\').join('/');
  }
}

/**
 * The specifiers of one compiled file of package `p`, with every relative import that leaves the package replaced by
 * the bare specifier of the package it reaches (SPECIFIERS); throws when an import leaves the package any other way.
 */
export function crossPackageSpecifiers(p: PackageLayout, path: string, text: string): string {
  return replaceSpecifiers(path, text, (spec) => {
    if (!spec.startsWith('./') && !spec.startsWith('../')) return undefined;
    const target = posix.normalize(posix.join(posix.dirname(path), spec));
    const module = target.replace(/\.d\.ts$/, '.js');
    if (holds(p, module)) return undefined;
    const owner = packageOf(module);
    const bare = SPECIFIERS.find((s) => s.module.test(target))?.bare;
    if (bare === undefined) throw new Error(`build: ${path} (package ${p.name}) imports ${spec}, which is ${owner ? `in ${owner.name} and not one of its entry points` : 'in no package'}`);
    return bare;
  });
}

/** A declaration map moved from `fromDir` to `toDir`: its sources still name the same TypeScript files. */
function relocatedMap(text: string, fromDir: string, toDir: string): string {
  const map = JSON.parse(text) as { sources: string[] };
  map.sources = map.sources.map((s) => relative(toDir, resolve(fromDir, s)).split('\\').join('/'));
  return JSON.stringify(map);
}

/** Write package `p` into its folder from the staging tree. */
function assemble(p: PackageLayout, root: RootManifest, files: readonly string[]): number {
  const dir = packageDir(p);
  let count = 0;
  for (const path of files) {
    if (!holds(p, path.replace(/\.d\.ts(\.map)?$/, '.js'))) continue;
    const to = join(dir, path);
    mkdirSync(dirname(to), { recursive: true });
    if (path.endsWith('.js') || path.endsWith('.d.ts')) writeFileSync(to, crossPackageSpecifiers(p, path, readFileSync(join(STAGING, path), 'utf8')));
    else if (path.endsWith('.d.ts.map')) writeFileSync(to, relocatedMap(readFileSync(join(STAGING, path), 'utf8'), dirname(join(STAGING, path)), dirname(to)));
    else copyFileSync(join(STAGING, path), to);
    count++;
  }
  const families = corpusConfig(ROOT).families;
  // A package naming its schema folders ships those (each must be one the settings load); else every loaded folder.
  const shipped = families === undefined ? undefined : schemaFoldersOf(p, families);
  const folders = shipped === undefined ? undefined : Object.fromEntries(Object.keys(families!).map((family) => [family, shipped.filter((f) => f.startsWith(`${family}/`)).map((f) => f.slice(family.length + 1))]));
  cpSync(join(ROOT, 'schemas'), join(dir, 'schemas'), { recursive: true, filter: (src) => shipsSchemaPath(join(ROOT, 'schemas'), folders, src) });
  compactSchemas(join(dir, 'schemas'));
  shipDocuments(p);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifestOf(p, root), null, 2)}\n`);
  if (p.bin) for (const bin of Object.values(p.bin)) chmodSync(join(dir, bin), 0o755);
  return count;
}

/**
 * The shipped schema files as compact JSON (the same document, without the indentation the repository keeps for
 * reading and diffs): 52 kB less in the validators package, whose install is held to 1.8 MB (issue 26).
 */
function compactSchemas(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.schema.json')) continue;
    const file = join(entry.parentPath, entry.name);
    writeFileSync(file, `${JSON.stringify(JSON.parse(readFileSync(file, 'utf8')))}\n`);
  }
}

/**
 * Whether a path under the schemas folder ships in a package: the schema files (not the examples, not other JSON) of
 * the `<family>/<major>` folders the corpus settings load, and the folders leading to them. With no families setting,
 * every folder. A major folder that is in the repository but not yet in the settings (OpenWOP v2 before its emission is
 * wired) and corpus data beside the majors (`schemas/openwop/majors/`) stay out.
 */
export function shipsSchemaPath(schemasDir: string, families: Readonly<Record<string, readonly string[]>> | undefined, src: string): boolean {
  if (src.includes('/examples') || (src.endsWith('.json') && !src.endsWith('.schema.json'))) return false;
  if (families === undefined || src === schemasDir) return true;
  const listed = Object.entries(families).flatMap(([family, majors]) => majors.map((major) => join(schemasDir, family, major)));
  return listed.some((dir) => src === dir || src.startsWith(`${dir}/`) || dir.startsWith(`${src}/`));
}

/** The documents an assembled package ships, by their name in it: their text as the repository has it now. */
export function shippedDocuments(p: PackageLayout): Record<string, string> {
  return {
    'README.md': shippedReadme(p, readFileSync(join(ROOT, p.readme), 'utf8')),
    ...Object.fromEntries(PACKAGE_DOCUMENTS.map((doc) => [doc, readFileSync(join(ROOT, doc), 'utf8')])),
  };
}

/** Write the documents of an assembled package afresh (the README without the figure of the package's own size). */
export function shipDocuments(p: PackageLayout): void {
  for (const [name, text] of Object.entries(shippedDocuments(p))) writeFileSync(join(packageDir(p), name), text);
}

/** Link every package by name under dist/node_modules/ (relative symlinks), so the packages resolve each other in place. */
function linkInPlace(): void {
  for (const p of PACKAGES) {
    const link = join(DIST, 'node_modules', p.name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(relative(dirname(link), packageDir(p)), link, 'dir');
  }
}

export function build(log: (s: string) => void = (s) => process.stdout.write(`${s}\n`)): void {
  const t0 = performance.now();
  rmSync(DIST, { recursive: true, force: true });
  execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(ROOT, 'tsconfig.build.json'), '--outDir', STAGING], { cwd: ROOT, stdio: 'inherit' });
  for (const folder of VALIDATOR_FOLDERS) {
    bundleValidators(folder);
    writeValidatorStubs(folder);
  }
  const files = [...walk(STAGING)].sort();
  let rewritten = 0;
  for (const path of files.filter((f) => f.endsWith('.d.ts'))) {
    const text = readFileSync(join(STAGING, path), 'utf8');
    const next = rewriteDeclarationSpecifiers(path, text);
    if (next !== text) {
      writeFileSync(join(STAGING, path), next);
      rewritten++;
    }
  }
  const cli = join(STAGING, CLI);
  writeFileSync(cli, `#!/usr/bin/env node\n${readFileSync(cli, 'utf8').replace(/^#!.*\n/, '')}`);
  const orphans = files.filter((f) => packageOf(f.replace(/\.d\.ts(\.map)?$/, '.js')) === undefined);
  if (orphans.length) throw new Error(`build: compiled files no package takes (scripts/package-layout.ts): ${orphans.slice(0, 5).join(', ')}${orphans.length > 5 ? ` and ${orphans.length - 5} more` : ''}`);
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as RootManifest;
  const counts = PACKAGES.map((p) => `${p.name} ${assemble(p, root, files)} files`);
  linkInPlace();
  rmSync(STAGING, { recursive: true, force: true });
  log(`build: ${counts.join(', ')} in dist/ (${rewritten} declaration files had .ts specifiers rewritten) in ${Math.round(performance.now() - t0)} ms`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) build();
