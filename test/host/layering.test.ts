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

describe('host layering: routes → HostRuntime → runtimes', () => {
  it('finds the route modules', () => {
    expect(routeFiles.map((r) => r.file)).toContain(`${ROUTES}/memory-seams.ts`);
    expect(routeFiles.length).toBeGreaterThanOrEqual(6);
  });
  it('no route names a mutation switch, the raw store or a runtime part', () => {
    const hits = routeFiles.flatMap(({ file, text }) => FORBIDDEN.filter(([re]) => re.test(text)).map(([, what]) => `${file}: ${what}`));
    expect(hits).toEqual([]);
  });
  it('routes import runtime modules as types only, and never the implementations or the mutants', () => {
    const bad = routeFiles.flatMap(({ file, text }) => importsOf(text)
      .filter((i) => !i.typeOnly && !VALUE_IMPORTS.some((re) => re.test(i.from)))
      .map((i) => `${file}: imports ${i.from}`));
    expect(bad).toEqual([]);
    for (const { file, text } of routeFiles) expect(text, file).not.toMatch(/from '\.\.\/(mutants|reference-runtime)\.ts'/);
  });
});
