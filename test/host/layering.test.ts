/**
 * The host's import rule (docs/host.md, "How the host is layered"): routes talk to the HostRuntime interface only —
 * never to a store, a registry or a runtime part, and never to a mutation switch — and register through serve() from
 * a catalogue row. The broken hosts live behind mutants.ts, which wraps the HostRuntime; a switch, a raw-store call
 * or a hand-registered route that creeps back into a route file fails here.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { MUTATION_NAMES } from '../../runtime/host/mutants.ts';
import { importsOf } from './sources.ts';

const ROUTES = 'runtime/host/routes';
const routeFiles = readdirSync(ROUTES).filter((f) => f.endsWith('.ts')).map((f) => ({ file: `${ROUTES}/${f}`, text: readFileSync(`${ROUTES}/${f}`, 'utf8') }));

/** What a route must never name: the switches, and the raw store and the parts behind the runtime facade. */
const FORBIDDEN: [RegExp, string][] = [
  ...MUTATION_NAMES.map((m): [RegExp, string] => [new RegExp(`\\b${m}\\b`), `mutation switch ${m}`]),
  [/\bmutations\b/, 'the mutation switches'],
  [/\.store\b|\b(upsertSync|listRawSync|getRawSync|removeSync)\b/, 'the raw memory store'],
  [/\bTenantMemoryAdapter\b|\badapterFor\b/, 'a hand-built read adapter'],
  [/\b(registries|byok|writer|journal|compactor|distiller|consolidation|commitments|predicates|subRuns|escalationPolicy)\./, 'a part of the OpenWOP runtime'],
  [/\bctx\.(openwop|inquirium)/, 'a raw runtime'],
  [/\bapp\.(get|post|put|delete|patch|head|options|all|route)\(/, 'a route registered around the catalogue (use serve)'],
];

/** Value imports a route may make; anything else from the runtime it may import as a type only. */
const VALUE_IMPORTS = [/^fastify$/, /^node:/, /^\.\.\/\.\.\/\.\.\/generated\//, /^\.\.\/(route-helpers|errors|seam-catalogue)\.ts$/, /^\.\/cached-document\.ts$/];

/**
 * Named pure values a route may import from a runtime module (no state, no store, no part of a runtime), each with
 * why; any other value import from these modules fails, and so does an entry no route uses any more.
 */
const PURE_VALUES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '../../events/log.ts': {
    MAX_EVENT_PAGE: 'the largest page of GET /v1/runs/{runId}/events, a constant the route checks `limit` against',
    backgroundRunId: 'the name of the log a seed that names no run is attributed to (`bg-<tenant>`), returned in the seed answer',
  },
  '../../distillation/schedule.ts': { outcomeRecord: 'the projection of a run outcome to the record the schedule read answers with' },
};

/** The names a value import brings in (`import { a, type B, c as d }` → a, c; a default or namespace import → `*`). */
function valueNames(clause: string): string[] {
  const braces = /\{([^}]*)\}/.exec(clause);
  const names = (braces?.[1] ?? '').split(',').map((n) => n.trim()).filter((n) => n !== '' && !n.startsWith('type ')).map((n) => n.split(/\s+as\s+/)[0]!);
  return braces === null || /^\s*[\w$*]/.test(clause.replace(/\{[^}]*\}/, '').replace(/,/g, '')) ? [...names, '*'] : names;
}
const clauses = (text: string) => [...text.matchAll(/^import\s+(?!type\s)([^'"]*?)\s+from\s+'([^']+)'/gms)].map((m) => ({ clause: m[1]!, from: m[2]! }));

describe('host layering: routes → HostRuntime → runtimes', () => {
  it('finds the route modules', () => {
    expect(routeFiles.map((r) => r.file)).toContain(`${ROUTES}/memory-seams.ts`);
    expect(routeFiles.length).toBeGreaterThanOrEqual(6);
  });
  it('no route names a mutation switch, the raw store or a runtime part', () => {
    const hits = routeFiles.flatMap(({ file, text }) => FORBIDDEN.filter(([re]) => re.test(text)).map(([, what]) => `${file}: ${what}`));
    expect(hits).toEqual([]);
  });
  it('routes import runtime modules as types only (or a listed pure value), and never the implementations or the mutants', () => {
    const bad = routeFiles.flatMap(({ file, text }) => importsOf(text)
      .filter((i) => !i.typeOnly && !VALUE_IMPORTS.some((re) => re.test(i.from)) && PURE_VALUES[i.from] === undefined)
      .map((i) => `${file}: imports ${i.from}`));
    expect(bad).toEqual([]);
    const used = routeFiles.flatMap(({ text }) => clauses(text).filter((c) => PURE_VALUES[c.from] !== undefined).flatMap((c) => valueNames(c.clause).map((name) => ({ from: c.from, name }))));
    expect(used.filter((u) => PURE_VALUES[u.from]![u.name] === undefined).map((u) => `${u.from}: ${u.name}`), 'value imports not listed as pure').toEqual([]);
    const listed = Object.entries(PURE_VALUES).flatMap(([from, names]) => Object.keys(names).map((name) => ({ from, name })));
    expect(listed.filter((l) => !used.some((u) => u.from === l.from && u.name === l.name)).map((l) => `${l.from}: ${l.name}`), 'listed pure values no route imports').toEqual([]);
    for (const { file, text } of routeFiles) expect(text, file).not.toMatch(/from '\.\.\/(mutants|reference-runtime)\.ts'/);
  });
});
