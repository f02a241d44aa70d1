/**
 * The static module graph of compiled JavaScript: from entry files, follow relative `import`/`export … from` and
 * literal `import("…")` specifiers, and collect the bare specifiers (packages) reached. Node built-ins
 * (`node:…`) are left out.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

export interface ModuleGraph {
  /** Every local file reached, absolute. */
  readonly files: ReadonlySet<string>;
  /** Package name → the local files importing it. */
  readonly packages: ReadonlyMap<string, readonly string[]>;
}

/** `ajv/dist/2020.js` → `ajv`; `@scope/x/y` → `@scope/x`. */
export const packageOf = (spec: string): string => spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/');

/** The module specifiers a compiled file imports: static imports and re-exports, and `import("…")` when `dynamic`. */
function moduleSpecifiers(file: string, text: string, dynamic: boolean): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text);
    else if (dynamic && ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) out.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/**
 * Walk from `entries`. With `dynamic: false`, `import("…")` edges are not followed: what a module loads only on
 * demand is not part of the cost of importing it.
 */
/**
 * The specifiers of a file, parsed once per file version: a package's entry points share modules (every
 * `./validate/<Title>` subpath re-exports the one bundled barrel), so graphs of many entries re-read the same files.
 */
const parsed = new Map<string, string[]>();
function specifiersOf(file: string, dynamic: boolean): string[] {
  const st = statSync(file);
  const key = `${dynamic}:${file}:${st.size}:${st.mtimeMs}`;
  let specs = parsed.get(key);
  if (specs === undefined) parsed.set(key, (specs = moduleSpecifiers(file, readFileSync(file, 'utf8'), dynamic)));
  return specs;
}

export function moduleGraph(entries: readonly string[], options: { readonly dynamic?: boolean } = {}): ModuleGraph {
  const files = new Set<string>();
  const packages = new Map<string, string[]>();
  const queue = entries.map((e) => resolve(e));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const specs = specifiersOf(file, options.dynamic !== false);
    for (const spec of specs) {
      if (spec.startsWith('node:')) continue;
      if (spec.startsWith('./') || spec.startsWith('../')) {
        const target = resolve(dirname(file), spec);
        if (!existsSync(target)) throw new Error(`${file} imports ${spec}, which does not exist`);
        queue.push(target);
      } else {
        const name = packageOf(spec);
        packages.set(name, [...(packages.get(name) ?? []), file]);
      }
    }
  }
  return { files, packages };
}
