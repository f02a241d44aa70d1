/**
 * A unit of work is the only way to the store (issue 32): checked on the source, parsed with the TypeScript compiler.
 *
 * - Outside `runtime/storage/`, code imports the storage layer only through its public entry (`runtime/storage/index.ts`).
 * - In `runtime/` outside the storage layer: no `new Plan(`, no `.commit(` call, no SQL text in a string literal, no
 *   stale-read retry of its own (`isStale`: the unit of work re-runs its work), no `as unknown as`, `as any` or
 *   `as never`, and no cast to a type parameter, alone or as a union, intersection or array of it (`as R`,
 *   `as R | undefined`, `as R[]`: a helper that answers any type it is asked for from what it read, such as a SQL
 *   session answering the row type its caller names; the session answers untyped rows, read through column readers),
 *   and no call asks a query for a row type (`s.get<{ n: number }>(…)`, `pool.query<{ x: string }>(…)`).
 * - Reads go through the request's unit of work and nothing else: no file outside the storage layer imports `readsOf`
 *   (the store's queries bound to a port, private to `runtime/storage/`), and no runtime code outside it holds the
 *   store's queries — no `Reads` type (nor `Tx['read']`, `typeof x.read`) in a field, parameter or variable, and no
 *   `tx.read` taken as a value (kept, passed on or destructured) rather than called through (`tx.read.runGet(…)`). A
 *   domain object then reads only through the `tx` it is handed, so it can hold no query table of its own.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceOf, tsFilesUnder } from './sources.ts';

const STORAGE = 'runtime/storage/';
const ENTRY = 'runtime/storage/index.ts';
const outsideStorage = (f: string): boolean => !f.startsWith(STORAGE);
const RUNTIME = tsFilesUnder('runtime').filter(outsideStorage);
/** Every runtime file, the storage layer's included: the cast rules hold everywhere in runtime/. */
const ALL_RUNTIME = tsFilesUnder('runtime');
const CONSUMERS = [...RUNTIME, ...tsFilesUnder('entry'), ...tsFilesUnder('conformance')];
/** Every file outside the storage layer, tests, benchmarks and scripts included. */
const EVERYWHERE = [...CONSUMERS, ...tsFilesUnder('test'), ...tsFilesUnder('bench'), ...tsFilesUnder('scripts')];

/** Every node of `file` for which `pick` answers a finding, as `file:line finding`. */
function findings(files: readonly string[], pick: (n: ts.Node, sf: ts.SourceFile) => string | undefined): string[] {
  const out: string[] = [];
  for (const file of files) {
    const sf = sourceOf(file);
    const visit = (n: ts.Node): void => {
      const found = pick(n, sf);
      if (found !== undefined) out.push(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1} ${found}`);
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

const SQL = /^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|BEGIN|COMMIT|ROLLBACK|PRAGMA|WITH)\b[\s\S]*\b(FROM|INTO|SET|TABLE|INDEX|WHERE|VALUES|TRANSACTION)?/i;
const SQL_WORDS = /\b(SELECT\s+[\w*]|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX)|ALTER\s+TABLE|DROP\s+TABLE|PRAGMA\s+\w)/;

/** `n` names the store's query table as a type: `Reads`, `Tx['read']`, or `typeof x.read`. */
function readsType(n: ts.Node): string | undefined {
  if (ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName) && n.typeName.text === 'Reads') return n.getText();
  if (ts.isIndexedAccessTypeNode(n) && ts.isLiteralTypeNode(n.indexType) && ts.isStringLiteral(n.indexType.literal) && n.indexType.literal.text === 'read') return n.getText();
  if (ts.isTypeQueryNode(n) && ts.isQualifiedName(n.exprName) && n.exprName.right.text === 'read') return n.getText();
  return undefined;
}

/**
 * `n` takes a unit of work's query table as a value: `x.read` that is neither called through (`x.read.q(…)`) nor a
 * method call of its own (`log.read(tx, …)`), or `read` destructured out of an object.
 */
function readsTaken(n: ts.Node): string | undefined {
  if (ts.isPropertyAccessExpression(n) && n.name.text === 'read') {
    const p = n.parent;
    if (ts.isPropertyAccessExpression(p) && p.expression === n) return undefined;
    if (ts.isCallExpression(p) && p.expression === n) return undefined;
    return n.getText();
  }
  if (ts.isBindingElement(n) && ts.isObjectBindingPattern(n.parent) && ((n.propertyName ?? n.name).getText() === 'read')) return n.getText();
  return undefined;
}

/** The type parameters in scope at `n`. */
function typeParametersAt(n: ts.Node): Set<string> {
  const names = new Set<string>();
  for (let p: ts.Node | undefined = n.parent; p !== undefined; p = p.parent) {
    const tps = (p as { typeParameters?: ts.NodeArray<ts.TypeParameterDeclaration> }).typeParameters;
    for (const tp of tps ?? []) names.add(tp.name.text);
  }
  return names;
}

/** The methods that answer a database's rows (the SQL session's, `pg`'s `query`). */
const ROW_METHODS = new Set(['get', 'all', 'returning', 'query']);

/** Generic containers whose type argument a cast hands back as it is (an array, a promise of it). */
const CONTAINERS = new Set(['Array', 'ReadonlyArray', 'Promise', 'Readonly']);

/**
 * The cast's type answers a type parameter in scope, alone or as a union, intersection or array of it: `as R`,
 * `as R | undefined`, `as R[]`, `as readonly R[]`, `as Array<R>`, `as Promise<R | undefined>`.
 */
function answersTypeParameter(t: ts.TypeNode, params: ReadonlySet<string>): boolean {
  if (ts.isTypeReferenceNode(t) && ts.isIdentifier(t.typeName)) {
    if (params.has(t.typeName.text)) return true;
    return CONTAINERS.has(t.typeName.text) && (t.typeArguments ?? []).some((a) => answersTypeParameter(a, params));
  }
  if (ts.isUnionTypeNode(t) || ts.isIntersectionTypeNode(t)) return t.types.some((m) => answersTypeParameter(m, params));
  if (ts.isArrayTypeNode(t)) return answersTypeParameter(t.elementType, params);
  if (ts.isTypeOperatorNode(t) || ts.isParenthesizedTypeNode(t)) return answersTypeParameter(t.type, params);
  return false;
}

export const RULES: Readonly<Record<string, { readonly files: readonly string[]; readonly pick: (n: ts.Node, sf: ts.SourceFile) => string | undefined }>> = {
  'no new Plan(': {
    files: RUNTIME,
    pick: (n) => (ts.isNewExpression(n) && n.expression.getText() === 'Plan' ? 'new Plan(' : undefined),
  },
  'no .commit( call': {
    files: RUNTIME,
    pick: (n) => (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'commit' ? n.getText().slice(0, 60) : undefined),
  },
  'no SQL text in a string literal': {
    files: RUNTIME,
    pick: (n) => ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n)) && SQL_WORDS.test(n.text) ? n.text.slice(0, 60) : undefined),
  },
  'no stale-read retry of its own': {
    files: RUNTIME,
    pick: (n) => (ts.isIdentifier(n) && (n.text === 'isStale' || n.text === 'retryStale') ? n.text : undefined),
  },
  'no as unknown as, as any, as never': {
    files: ALL_RUNTIME,
    pick: (n) => {
      if (!ts.isAsExpression(n)) return undefined;
      if (n.type.kind === ts.SyntaxKind.AnyKeyword || n.type.kind === ts.SyntaxKind.NeverKeyword) return n.getText().slice(0, 80);
      if (ts.isAsExpression(n.expression) && n.expression.type.kind === ts.SyntaxKind.UnknownKeyword) return n.getText().slice(0, 80);
      return undefined;
    },
  },
  'no cast to a type parameter': {
    files: ALL_RUNTIME,
    pick: (n) => (ts.isAsExpression(n) && answersTypeParameter(n.type, typeParametersAt(n)) ? n.getText().slice(0, 80) : undefined),
  },
  'no row type asked of a query (rows are read through column readers)': {
    files: ALL_RUNTIME,
    pick: (n) => {
      if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression) || n.typeArguments === undefined) return undefined;
      const method = n.expression.name.text;
      if (!ROW_METHODS.has(method)) return undefined;
      // `pg`'s own `query<Row>` names the untyped row, the one shape a driver's answer has before it is read.
      if (method === 'query' && n.typeArguments.length === 1 && n.typeArguments[0]!.getText() === 'Row') return undefined;
      return n.getText().slice(0, 80);
    },
  },
  'no import of readsOf (anywhere outside the storage layer)': {
    files: EVERYWHERE,
    pick: (n) => (ts.isImportSpecifier(n) && (n.propertyName ?? n.name).text === 'readsOf' ? `import ${n.getText()}` : undefined),
  },
  'no store query table held: no Reads type': {
    files: RUNTIME,
    pick: readsType,
  },
  'no store query table held: tx.read only called through': {
    files: RUNTIME,
    pick: readsTaken,
  },
};

/**
 * A call that opens a unit of work: `unitOfWork(…)`, `unitsOf(…)` (an opener made), or a call through an opener held
 * as `units` / `#units`.
 */
export function opensUnit(n: ts.Node): string | undefined {
  if (!ts.isCallExpression(n)) return undefined;
  const callee = n.expression;
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
  return name === 'unitOfWork' || name === 'unitsOf' || name === 'units' || name === '#units' ? `${name}(` : undefined;
}

/**
 * The only runtime modules that open units of work (issue 32: one unit per request; domain code never opens its own),
 * each with why. Everything else takes the `tx` of the unit it runs in.
 */
export const UNIT_OPENERS: Readonly<Record<string, string>> = {
  'runtime/host/route-helpers.ts': 'the request boundary: serve opens ONE unit per request; serveSteps hands step-composed seams one per step',
  'runtime/host/server.ts': 'wiring: makes the opener the request boundary uses (unitsOf(port))',
  'runtime/host/auth-binding.ts': 'the tenant binding reads the owners of the ids a request names before Fastify validates it: a read-only unit before the request\'s',
  'runtime/host/workflow-runs.ts': 'the fixture runner drives the host as a client does: one unit per host operation it calls, each seeing the last committed',
  'runtime/host/reference-runtime.ts': 'the readiness probe write after a full disk (no request\'s data)',
  'runtime/host/background.ts': 'the background loop: one unit per piece of work',
  'runtime/host/fleet-credentials.ts': 'start-up and rotation of the fleet\'s credentials (no request)',
  'runtime/host/mutants.ts': 'test-only broken hosts: a commitment evaluation is a tick, and one mutant deliberately keeps a partial archive outside the request\'s unit',
  'runtime/openwop/index.ts': 'wiring: hands the schedulers\' ticks and the background work their opener',
  'runtime/inquirium/index.ts': 'wiring: hands the Inquirium services their opener; a stand-alone generate or trace call (a library caller outside any request: the host uses generateIn and traceStream in the request\'s unit) is its one unit',
  'runtime/commitments/engine.ts': 'the commitment tick (background firing loop): one unit per firing',
  'runtime/distillation/schedule.ts': 'the schedule tick: one unit per due schedule',
  'runtime/inquirium/operator-questions.ts': 'the question tick (background): one unit per overdue question it times out',
  // Not converted yet (issue 32): the transcript's appends and reads take the request's tx when a generate turn runs;
  // without one (feedback, a library read, bundles' target reads) each opens its one unit, as do excision and retention.
  'runtime/inquirium/storage/transcript.ts': 'a call without the request\'s tx (feedback, a library read) opens one unit; the retention pass (applyRetention) and excision one each',
  'runtime/multi-agent/sub-run-memory.ts': 'a child run\'s write is its own unit of work (the spec commits it on its own; strict concurrency serialises it per parent run, commit included)',
};

describe('a unit of work is the only way to the store', () => {
  it('code outside runtime/storage/ imports it only through its public entry', () => {
    const into = CONSUMERS.flatMap((f) => importsOf(f).filter((to) => to.startsWith(STORAGE) && to !== ENTRY).map((to) => `${f} → ${to}`));
    expect(into).toEqual([]);
  });

  for (const [rule, { files, pick }] of Object.entries(RULES)) {
    it(`${rule}`, () => {
      expect(findings(files, pick)).toEqual([]);
    });
  }

  it('units of work are opened only by the request boundary and the named background modules', () => {
    const openers = findings(RUNTIME, opensUnit);
    expect(openers.filter((f) => UNIT_OPENERS[f.slice(0, f.indexOf(':'))] === undefined)).toEqual([]);
    // No stale entry: every module the list names still opens units.
    expect(Object.keys(UNIT_OPENERS).filter((file) => !openers.some((f) => f.startsWith(`${file}:`)))).toEqual([]);
  });

  it('the rules find what they look for (each on a sample that breaks it)', () => {
    const sample = (text: string): ts.SourceFile => ts.createSourceFile('sample.ts', text, ts.ScriptTarget.Latest, true);
    const hits = (rule: string, text: string): number => {
      const sf = sample(text);
      let n = 0;
      const visit = (node: ts.Node): void => {
        if (RULES[rule]!.pick(node, sf) !== undefined) n++;
        ts.forEachChild(node, visit);
      };
      visit(sf);
      return n;
    };
    expect(hits('no new Plan(', 'const p = new Plan();')).toBe(1);
    const opens = (text: string): number => {
      let n = 0;
      const visit = (node: ts.Node): void => {
        if (opensUnit(node) !== undefined) n++;
        ts.forEachChild(node, visit);
      };
      visit(sample(text));
      return n;
    };
    expect(opens('await unitOfWork(port, (tx) => f(tx)); const u = unitsOf(port); await this.#o.units((tx) => g(tx)); await this.#units(h); await units(k);')).toBe(5);
    expect(opens('await service.answer(tx, a); const units = 3; rt.unitOfWorkCount(); tx.add(op, args);')).toBe(0);
    expect(hits('no .commit( call', 'await plan.commit(port);')).toBe(1);
    expect(hits('no SQL text in a string literal', "db.get('SELECT doc FROM runs WHERE id = ?');")).toBe(1);
    expect(hits('no SQL text in a string literal', "const m = 'select a memory scope';")).toBe(0);
    expect(hits('no stale-read retry of its own', 'if (isStale(err)) again();')).toBe(1);
    expect(hits('no as unknown as, as any, as never', 'const a = x as unknown as Y; const b = y as any; const c = z as never; const d = w as Y;')).toBe(3);
    const castToParameter = 'no cast to a type parameter';
    expect(hits(castToParameter, 'function f<T>(v: unknown): T { return v as T; }')).toBe(1);
    // The SQL session's old shape: a row type the caller names, handed back from what the driver gave.
    expect(hits(castToParameter, 'class S { async get<R extends Row = Row>(sql: string) { return this.st(sql).get() as R | undefined; } }')).toBe(1);
    expect(hits(castToParameter, 'class S { async all<R extends Row = Row>(sql: string) { return this.st(sql).all() as R[]; } }')).toBe(1);
    expect(hits(castToParameter, 'function f<R>(v: unknown) { return [v as readonly R[], v as Array<R>, v as Promise<R | null>, v as (R & object)]; }')).toBe(4);
    // Casts to concrete types, and a type parameter only named inside another type, are other rules' business.
    expect(hits(castToParameter, 'function f<R>(v: unknown) { return [v as string | undefined, v as Row[], v as Map<string, R>]; }')).toBe(0);
    expect(hits(castToParameter, 'function g(v: unknown) { type R = string; return v as R | undefined; }')).toBe(0);
    const rowType = 'no row type asked of a query (rows are read through column readers)';
    expect(hits(rowType, "await s.get<{ n: number }>('SELECT count(*) AS n FROM t'); await s.all<RunRow>(q, [], 10); await s.returning<R>(q, []);")).toBe(3);
    expect(hits(rowType, "await pool.query<{ synchronous_commit: string }>('SHOW synchronous_commit');")).toBe(1);
    expect(hits(rowType, "await s.get('SELECT 1'); await pool.query<Row>('SHOW x'); map.get(key);")).toBe(0);
    expect(SQL.test('SELECT 1')).toBe(true);
    const importsReadsOf = 'no import of readsOf (anywhere outside the storage layer)';
    expect(hits(importsReadsOf, "import { readsOf, unitOfWork } from '../storage/index.ts';")).toBe(1);
    expect(hits(importsReadsOf, "import { readsOf as bound } from '../storage/reads/index.ts';")).toBe(1);
    expect(hits(importsReadsOf, "import { unitOfWork } from '../storage/index.ts'; function readsOf() {}")).toBe(0);
    const readsTyped = 'no store query table held: no Reads type';
    expect(hits(readsTyped, 'class Log { readonly #reads: Reads; constructor(reads: Reads) { this.#reads = reads; } }')).toBe(2);
    expect(hits(readsTyped, "class Log { constructor(private readonly read: Tx['read']) {} }")).toBe(1);
    expect(hits(readsTyped, 'let kept: typeof tx.read | undefined;')).toBe(1);
    expect(hits(readsTyped, 'function page(tx: Tx, runId: string) { return tx.read.eventPage({ runId }); }')).toBe(0);
    const readsHeld = 'no store query table held: tx.read only called through';
    expect(hits(readsHeld, 'const log = new RunEventLog({ reads: tx.read });')).toBe(1);
    expect(hits(readsHeld, 'class Reader { readonly #r; constructor(tx: Tx) { this.#r = tx.read; } }')).toBe(1);
    expect(hits(readsHeld, 'const { read } = tx; const { read: q } = tx;')).toBe(2);
    expect(hits(readsHeld, 'await tx.read.runGet(id); await log.read(tx, id, 0); await this.#tx.read.entryGet(a);')).toBe(0);
  });
});
