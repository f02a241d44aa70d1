/**
 * Source facts for the architecture tests, read with the TypeScript compiler API (parse only, no type checking):
 * the .ts files of a folder, their exported interfaces and type aliases (with the property names of object-shaped
 * ones), and their relative imports resolved to repository paths.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Every .ts file under `dir` (repository-relative, `/`-separated, sorted). */
export function tsFilesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    for (const d of readdirSync(abs, { withFileTypes: true })) {
      const p = join(abs, d.name);
      if (d.isDirectory()) walk(p);
      else if (d.name.endsWith('.ts') && !d.name.endsWith('.d.ts')) out.push(relative(ROOT, p).split('\\').join('/'));
    }
  };
  walk(join(ROOT, dir));
  return out.sort();
}

const parsed = new Map<string, ts.SourceFile>();
export function sourceOf(file: string): ts.SourceFile {
  let sf = parsed.get(file);
  if (sf === undefined) parsed.set(file, (sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true)));
  return sf;
}

export interface DeclaredShape {
  readonly file: string;
  readonly name: string;
  readonly kind: 'interface' | 'type';
  /** Property names when the declaration is object-shaped (an interface, or a type alias to a type literal). */
  readonly properties: readonly string[] | undefined;
}

const isExported = (n: ts.Node): boolean =>
  ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

const propertyNames = (members: ts.NodeArray<ts.TypeElement>): string[] =>
  members.filter(ts.isPropertySignature).map((m) => (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) ? m.name.text : m.name.getText()));

/** Exported interfaces and type aliases declared (not re-exported) in `file`. */
export function declaredShapes(file: string): DeclaredShape[] {
  const out: DeclaredShape[] = [];
  for (const s of sourceOf(file).statements) {
    if (!isExported(s)) continue;
    if (ts.isInterfaceDeclaration(s)) out.push({ file, name: s.name.text, kind: 'interface', properties: propertyNames(s.members) });
    else if (ts.isTypeAliasDeclaration(s)) {
      out.push({ file, name: s.name.text, kind: 'type', properties: ts.isTypeLiteralNode(s.type) ? propertyNames(s.type.members) : undefined });
    }
  }
  return out;
}

/** Names a module exports through `export type * from './x.ts'` chains and its own declarations. */
export function exportedShapes(indexFile: string): DeclaredShape[] {
  const out: DeclaredShape[] = [];
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    out.push(...declaredShapes(file));
    for (const s of sourceOf(file).statements) {
      if (ts.isExportDeclaration(s) && s.exportClause === undefined && s.moduleSpecifier !== undefined && ts.isStringLiteral(s.moduleSpecifier)) {
        visit(relative(ROOT, resolve(ROOT, dirname(file), s.moduleSpecifier.text)).split('\\').join('/'));
      }
    }
  };
  visit(indexFile);
  return out;
}

/** Repository-relative targets of every relative import / re-export of `file` (type-only ones included). */
export function importsOf(file: string): string[] {
  const out: string[] = [];
  const add = (spec: ts.Expression | undefined): void => {
    if (spec === undefined || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) return;
    out.push(relative(ROOT, resolve(ROOT, dirname(file), spec.text)).split('\\').join('/'));
  };
  const walk = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) add(n.moduleSpecifier);
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) add(n.arguments[0]);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) add(n.argument.literal as ts.Expression);
    ts.forEachChild(n, walk);
  };
  walk(sourceOf(file));
  return out;
}

export interface DeclaredClass {
  readonly file: string;
  readonly name: string;
  /** The `extends` expression as written, if any. */
  readonly extends: string | undefined;
}

/** Every class declared in `file` (exported or not). */
export function declaredClasses(file: string): DeclaredClass[] {
  const out: DeclaredClass[] = [];
  const walk = (n: ts.Node): void => {
    if ((ts.isClassDeclaration(n) || ts.isClassExpression(n)) && n.name !== undefined) {
      const clause = n.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
      out.push({ file, name: n.name.text, extends: clause?.types[0]?.expression.getText() });
    }
    ts.forEachChild(n, walk);
  };
  walk(sourceOf(file));
  return out;
}
