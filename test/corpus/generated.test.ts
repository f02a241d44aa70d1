/**
 * Real corpus: the generated TypeScript compiles, declares every type once (within each major: a later major's guards
 * and run-event module repeat the first major's helper names in their own folder), closes closed objects; gen --check
 * is clean.
 */
import { describe, expect, it } from 'vitest';
import { Project, SyntaxKind, ts } from 'ts-morph';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved, isObject } from '../../generator/resolve.ts';
import { REPO, run } from '../generator/helpers.ts';

const GEN = join(REPO, 'generated');
const project = new Project({
  compilerOptions: {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    types: [],
    lib: ['lib.es2023.d.ts'],
  },
  skipAddingFilesFromTsConfig: true,
});
project.addSourceFilesAtPaths([join(GEN, '{ts,guards,run-events}/**/*.ts'), join(GEN, 'validators/*.d.ts'), join(GEN, 'validators/v2/*.d.ts')]);
const r0 = new Resolved(loadCorpus(REPO));
/** The major folder of a generated file (`v2/` under a generated folder), `''` for the first major. */
const majorOf = (path: string): string => /\/(v[0-9]+)\//.exec(path.slice(GEN.length))?.[1] ?? r0.firstMajor;

describe('generated TypeScript', () => {
  it('type-checks under strict', () => {
    const diags = project.getPreEmitDiagnostics();
    expect(project.formatDiagnosticsWithColorAndContext(diags)).toBe('');
  }, 120_000);

  it('declares every exported type exactly once across generated/', () => {
    const seen = new Map<string, string>();
    const dups: string[] = [];
    for (const sf of project.getSourceFiles()) {
      if (sf.getFilePath().includes('/validators/')) continue;
      for (const [name, decls] of sf.getExportedDeclarations()) {
        for (const d of decls) {
          if (d.getSourceFile() !== sf) continue; // re-exports
          const key = `${majorOf(sf.getFilePath())} ${name}`;
          const where = sf.getFilePath().slice(GEN.length);
          if (seen.has(key) && seen.get(key) !== where) dups.push(`${key}: ${seen.get(key)} and ${where}`);
          else if (seen.has(key) && d.getKind() !== SyntaxKind.FunctionDeclaration) dups.push(`${key} twice in ${where}`);
          seen.set(key, where);
        }
      }
    }
    expect(dups).toEqual([]);
  });

  it('one module per schema, and each major\'s index re-exports each of its modules', () => {
    const corpus = loadCorpus(REPO);
    const r = new Resolved(corpus);
    for (const major of r.majors) {
      const dir = join(REPO, r.layout(major).types);
      const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'index.ts').sort();
      const withTypes = r.typesOf(major).map((t) => `${t.file.stem}.ts`);
      expect(modules, major).toEqual([...new Set(withTypes)].sort());
      const index = project.getSourceFileOrThrow(join(REPO, r.layout(major).typesIndex)).getText();
      for (const m of modules) expect(index).toContain(`from './${m}'`);
    }
    expect(r.majors).toEqual(['v1', 'v2']);
  });

  it('closed objects have no index signature; open ones do', () => {
    const corpus = loadCorpus(REPO);
    const r = new Resolved(corpus);
    let closed = 0;
    let open = 0;
    for (const t of r.types) {
      const s = t.schema;
      if (s['type'] !== 'object' || !isObject(s['properties']) || s['$ref'] || s['oneOf'] || s['anyOf']) continue;
      // an allOf with a $ref member is declared as an intersection with the referenced type
      if (Array.isArray(s['allOf']) && s['allOf'].some((m) => isObject(m) && typeof m['$ref'] === 'string')) continue;
      const sf = project.getSourceFileOrThrow(join(REPO, r.layout(t.file.major).types, `${t.file.stem}.ts`));
      const iface = sf.getInterface(t.title);
      const literal = sf.getTypeAlias(t.title)?.getTypeNode()?.asKind(SyntaxKind.TypeLiteral);
      expect(iface ?? literal, `${t.title} is an interface or a type literal`).toBeDefined();
      const sigs = (iface ?? literal)!.getIndexSignatures().length;
      // patternProperties admit the keys their patterns match: TypeScript can only say so with an index signature
      if ((s['additionalProperties'] === false || s['unevaluatedProperties'] === false) && s['patternProperties'] === undefined) {
        closed++;
        expect(sigs, `${t.title} is closed`).toBe(0);
      } else if (s['additionalProperties'] === true) {
        open++;
        expect(sigs, `${t.title} is open`).toBe(1);
      }
    }
    expect(closed).toBeGreaterThan(20);
    expect(open).toBeGreaterThan(3);
  });

  it('const-tagged oneOf becomes a discriminated union; slash keys are quoted', () => {
    const req = project.getSourceFileOrThrow(join(GEN, 'ts/inquirium.generate.request.v1.ts'));
    expect(req.getTypeAliasOrThrow('InquiriumContentPart').getTypeNode()!.getText()).toMatch(/^\w+ \| \w+$/);
    const all = project.getSourceFiles().map((s) => s.getText()).join('\n');
    expect(all).toMatch(/'runtime\/ref'\??: /);
  });

  it('every oneOf of const-tagged objects narrows like a discriminated union (exhaustive switch compiles)', () => {
    const corpus = loadCorpus(REPO);
    const r = new Resolved(corpus);
    const checks: string[] = [];
    for (const t of r.types) {
      const alts = t.schema['oneOf'];
      if (!Array.isArray(alts) || !alts.every((a) => isObject(a) && typeof a['$ref'] === 'string')) continue;
      const members = alts.map((a) => r.typeOfRef(t.file, (a as { $ref: string }).$ref, t.pointer));
      if (!members.every((m) => m && isObject(m.schema['properties']))) continue;
      const props = (m: (typeof members)[number]) => m!.schema['properties'] as Record<string, unknown>;
      const tag = Object.keys(props(members[0])).find((k) => members.every((m) => isObject(props(m)[k]) && 'const' in (props(m)[k] as object)));
      if (!tag) continue;
      const cases = members
        .map((m) => `    case ${JSON.stringify((props(m)[tag] as { const: unknown }).const)}: { const b: T.${m!.title} = v; return b; }`)
        .join('\n');
      checks.push(
        `export function narrow${t.title}(v: T.${t.title}): unknown {\n  switch (v[${JSON.stringify(tag)}]) {\n${cases}\n    default: { const n: never = v; return n; }\n  }\n}`,
      );
    }
    expect(checks.length).toBeGreaterThan(0);
    const sf = project.createSourceFile(join(GEN, '__narrowing_check.ts'), `import type * as T from './ts/index.ts';\n\n${checks.join('\n\n')}\n`, { overwrite: true });
    try {
      expect(project.formatDiagnosticsWithColorAndContext(sf.getPreEmitDiagnostics())).toBe('');
    } finally {
      project.removeSourceFile(sf);
    }
  });

  it('gen --check is clean against the committed generated/', async () => {
    const r = await run(['gen', '--check', '--root', REPO, '--format', 'json']);
    const body = JSON.parse(r.out);
    expect({ stale: body.stale, missing: body.missing, extra: body.extra }).toEqual({ stale: [], missing: [], extra: [] });
    expect(r.code).toBe(0);
  });

  it('lint and check-examples are clean on the real corpus', async () => {
    const l = await run(['lint', '--root', REPO, '--format', 'json']);
    expect(JSON.parse(l.out).findings).toEqual([]);
    const c = await run(['check-examples', '--root', REPO, '--format', 'json']);
    expect(JSON.parse(c.out).findings).toEqual([]);
  });
});
