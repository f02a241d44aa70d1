/**
 * The host's import rule (docs/host.md, "How the host is layered"): routes talk to the HostRuntime interface only —
 * never to a store, a registry or a runtime part, and never to a mutation switch. The broken hosts live behind
 * mutants.ts, which wraps the HostRuntime; a switch or a raw-store call that creeps back into a route fails here.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { MUTATION_NAMES } from '../../runtime/host/mutants.ts';

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
];

/** Value imports a route may make; anything else from the runtime it may import as a type only. */
const VALUE_IMPORTS = [/^fastify$/, /^node:/, /^\.\.\/\.\.\/\.\.\/generated\//, /^\.\.\/(context|errors|seam-catalogue)\.ts$/];
const importsOf = (text: string) => [...text.matchAll(/^import\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gms)].map((m) => ({ typeOnly: m[1] !== undefined, from: m[2]! }));

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
