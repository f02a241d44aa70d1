/**
 * The requirement tables (conformance/requirements/) against the restatements under RFCs/, upstream's ids and the
 * suite: every normative rule of the memory slice and P066 has exactly one row, no id reuses or shadows one upstream
 * mints, every witnessing scenario exists, and results keyed by id never pass a requirement without an assertion.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readdirSync, readFileSync } from 'node:fs';
import { REQUIREMENT_TABLES, REQUIREMENTS, WITNESS_CLASSES, isUnwitnessedMust, type TableRequirement } from '../../conformance/requirements.ts';
import { rulesOf, ruleDigest } from '../../conformance/requirements/rfc-rules.ts';
import { requirementResults, summariseRequirements } from '../../conformance/requirement-results.ts';
import { runScenario, SUITE_BUG, type ScenarioResult, type SkipClass } from '../../conformance/scenario.ts';
import { SCENARIOS } from '../../conformance/scenarios/index.ts';
import { HttpClient } from '../../conformance/client.ts';
import { configFrom } from '../../conformance/config.ts';
import upstream from '../../conformance/requirements/upstream-ids.json' with { type: 'json' };
import { ROUTES } from '../../runtime/host/seam-catalogue.ts';
import yaml from 'js-yaml';

const ROWS = [...REQUIREMENTS.values()];
const rfcFiles = readdirSync('RFCs').filter((f) => f.endsWith('.md')).map((f) => `RFCs/${f}`);
const rulesByFile = new Map(rfcFiles.map((f) => [f, rulesOf(readFileSync(f, 'utf8'))]));

describe('requirement tables', () => {
  it('validate against conformance/requirements/requirements.schema.json', () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync('conformance/requirements/requirements.schema.json', 'utf8')));
    for (const f of readdirSync('conformance/requirements').filter((n) => n.endsWith('.json') && !n.endsWith('.schema.json') && n !== 'upstream-ids.json')) {
      expect(validate(JSON.parse(readFileSync(`conformance/requirements/${f}`, 'utf8'))), `${f}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('the schema refuses an unwitnessable row without a rationale, a witnessable row without scenario or gap, and an id outside the namespace', () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync('conformance/requirements/requirements.schema.json', 'utf8')));
    const table = JSON.parse(readFileSync('conformance/requirements/openwop-memory.json', 'utf8')) as { requirements: Record<string, unknown>[] };
    const withRow = (row: Record<string, unknown>) => ({ ...table, requirements: [row] });
    const base = { id: 'openwop.requirement.proposed.core.x', section: { document: 'upstream:openwop/openwop/spec/v1/x.md', anchor: '', heading: 'x' }, force: 'MUST' };
    expect(validate(withRow({ ...base, witness: 'unwitnessable', scenarios: [] }))).toBe(false);
    expect(validate(withRow({ ...base, witness: 'seam-gated', scenarios: [] }))).toBe(false);
    expect(validate(withRow({ ...base, witness: 'seam-gated', scenarios: [], gap: 'no seam yet' }))).toBe(true);
    expect(validate(withRow({ ...base, id: 'openwop.requirement.0012.x', witness: 'seam-gated', scenarios: ['s'] }))).toBe(false);
    expect(validate(withRow({ ...base, id: 'orbiplex.inquirium.p066.x', witness: 'seam-gated', scenarios: ['s'] }))).toBe(false);
    expect(validate(withRow({ ...base, witness: 'blocked', scenarios: ['s'] }))).toBe(false);
  });

  it('every normative rule of every restatement under RFCs/ has exactly one row, and every RFC row names a rule that exists', () => {
    expect(rfcFiles.filter((f) => rulesByFile.get(f)!.length > 0).length).toBeGreaterThanOrEqual(5);
    const problems: string[] = [];
    for (const [file, rules] of rulesByFile) {
      for (const r of rules) {
        const rows = ROWS.filter((x) => x.section.document === file && x.rule === r.rule);
        if (rows.length !== 1) problems.push(`${file} ${r.rule}: ${rows.length} rows (${rows.map((x) => x.id).join(', ')})`);
      }
    }
    for (const row of ROWS.filter((x) => x.rule !== undefined)) {
      const rule = rulesByFile.get(row.section.document)?.find((r) => r.rule === row.rule);
      if (rule === undefined) problems.push(`${row.id}: ${row.section.document} has no rule ${row.rule}`);
      else if (row.section.anchor !== rule.anchor || row.section.heading !== rule.name) problems.push(`${row.id}: section should be #${rule.anchor} "${rule.name}"`);
    }
    expect(problems).toEqual([]);
  });

  it('binding words live only in rules: every heading of a Normative rules section is a rule id, and no capitalised MUST, SHALL or REQUIRED stands outside one', () => {
    const problems: string[] = [];
    for (const file of rfcFiles) {
      const text = readFileSync(file, 'utf8').split(/^---$/m).slice(2).join('---');
      const section = /^## Normative rules[ \t]*$([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1] ?? '';
      for (const [, head] of section.matchAll(/^#{3,6} (.+)$/gm)) if (!/^[A-Z0-9][A-Za-z0-9.-]*$/.test(head!.trim())) problems.push(`${file}: heading "${head}" in Normative rules is not a rule id`);
      const outside = text.replace(section, '');
      for (const [w] of outside.matchAll(/\b(MUST|SHALL|REQUIRED)\b/g)) problems.push(`${file}: ${w} outside the Normative rules section`);
    }
    expect(problems).toEqual([]);
  });

  it('a rule whose text changed since its row was reviewed fails until the row is reviewed (a new MUST cannot hide in an old rule)', () => {
    const stale = ROWS.filter((x) => x.rule !== undefined).flatMap((row) => {
      const rule = rulesByFile.get(row.section.document)?.find((r) => r.rule === row.rule);
      return rule !== undefined && rule.textSha256 !== row.textSha256 ? [`${row.id}: rule ${row.rule} changed; review force, witness and scenarios, then set textSha256 to ${rule.textSha256}`] : [];
    });
    expect(stale).toEqual([]);
  });

  it('the walk finds a MUST added to the restatements: a new rule heading has no row, an edited rule has a new digest', () => {
    const file = 'RFCs/0012-memory-compaction.md';
    const text = readFileSync(file, 'utf8');
    const added = text.replace('\n### R0012-E1\n', '\n### R0012-E2\n\n**Added.** A host must log every compaction.\n\n### R0012-E1\n');
    const newRules = rulesOf(added).filter((r) => !ROWS.some((x) => x.section.document === file && x.rule === r.rule));
    expect(newRules.map((r) => r.rule)).toEqual(['R0012-E2']);
    const edited = rulesOf(text.replace('Compaction never crosses a tenant boundary', 'Compaction never crosses a tenant boundary and must be logged'));
    const e1 = ROWS.find((x) => x.rule === 'R0012-E1')!;
    expect(edited.find((r) => r.rule === 'R0012-E1')!.textSha256).not.toBe(e1.textSha256);
    expect(ruleDigest('a  b\n c')).toBe(ruleDigest('a b c'));
  });

  it("a rule's force is at least what its words say: must, never or refuse make it MUST or MUST NOT", () => {
    const wrong = ROWS.filter((x) => x.rule !== undefined).flatMap((row) => {
      const rule = rulesByFile.get(row.section.document)!.find((r) => r.rule === row.rule)!;
      const binding = /\b(must|never|refuse[sd]?|shall)\b/i.test(rule.text);
      return binding && row.force !== 'MUST' && row.force !== 'MUST NOT' ? [`${row.id} is ${row.force}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  it('ids are unique, in the form upstream accepts, marked as proposals, and never reuse or shadow an upstream id', () => {
    const ids = ROWS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const theirs = [...upstream.registry, ...upstream.explicit];
    const openwop = ROWS.filter((r) => r.namespace === 'openwop');
    for (const r of openwop) {
      expect(r.id, 'bundle row grammar (certification-bundle.schema.json)').toMatch(/^openwop\.requirement\./);
      expect(r.id, 'exact-id grammar of upstream RFC tables').toMatch(/^openwop\.(requirement|scenario)\.[a-z0-9.-]+$/);
      expect(r.id, 'proposal segment').toMatch(/^openwop\.requirement\.proposed\./);
      expect(upstream.segments).toContain(r.id.split('.')[1]);
    }
    for (const id of ids) {
      expect(theirs).not.toContain(id);
      expect(theirs.filter((u) => u.startsWith(`${id}.`) || id.startsWith(`${u}.`))).toEqual([]);
    }
    // No upstream id lives under the proposal segment, so none of ours can collide with one minted later in RFC areas.
    expect(theirs.filter((u) => u.startsWith('openwop.requirement.proposed.'))).toEqual([]);
    for (const r of ROWS.filter((x) => x.namespace === 'inquirium')) expect(r.id).toMatch(/^orbiplex\.inquirium\./);
    for (const t of REQUIREMENT_TABLES) expect(t.upstreamChecked.commit).toBe(upstream.commit);
  });

  it('every scenario a row names exists, and every scenario witnesses at least one row', () => {
    const scenarioIds = new Set(SCENARIOS.map((s) => s.id));
    expect(ROWS.flatMap((r) => r.scenarios.filter((s) => !scenarioIds.has(s)).map((s) => `${r.id} → ${s}`))).toEqual([]);
    expect(SCENARIOS.filter((s) => !ROWS.some((r) => r.scenarios.includes(s.id))).map((s) => s.id)).toEqual([]);
  });

  it('every id a scenario file names exists and lists the scenario it is named in (also branches a run does not reach)', () => {
    const problems: string[] = [];
    const named = new Set<string>();
    for (const f of readdirSync('conformance/scenarios').filter((n) => n.endsWith('.ts'))) {
      const text = readFileSync(`conformance/scenarios/${f}`, 'utf8');
      // Each scenario object starts at its `id: '…'`; the ids named until the next one belong to it.
      const starts = [...text.matchAll(/^\s{4}id: '([a-z0-9-]+)',$/gm)];
      for (const [i, m] of starts.entries()) {
        const block = text.slice(m.index, i + 1 < starts.length ? starts[i + 1]!.index : text.length);
        for (const [, id] of block.matchAll(/'((?:openwop\.requirement|orbiplex\.inquirium)\.[a-z0-9.-]+)'/g)) {
          named.add(id!);
          const row = REQUIREMENTS.get(id!);
          if (row === undefined) problems.push(`${f} ${m[1]}: ${id} is not a row`);
          else if (!row.scenarios.includes(m[1]!)) problems.push(`${f} ${m[1]}: the row ${id} does not list it`);
        }
      }
      if (starts.length === 0 && /t\.req\(/.test(text)) problems.push(`${f}: names requirements outside a scenario`);
    }
    expect(problems).toEqual([]);
    // Every row that claims a witness is named by a scenario file.
    expect(ROWS.filter((r) => r.scenarios.length > 0 && !named.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it('witness classes match what the witnessing scenarios call: a witnessable row has a scenario that needs no seam, a seam-gated row has none', () => {
    // The routes each scenario object calls, plus those its file's helpers (before the first object) call.
    const routesOf = new Map<string, Set<string>>();
    for (const f of readdirSync('conformance/scenarios').filter((n) => n.endsWith('.ts'))) {
      const text = readFileSync(`conformance/scenarios/${f}`, 'utf8');
      const starts = [...text.matchAll(/^\s{4}id: '([a-z0-9-]+)',$/gm)];
      const helpers = [...text.slice(0, starts[0]?.index ?? text.length).matchAll(/ROUTES\.(\w+)/g)].map((x) => x[1]!);
      for (const [i, m] of starts.entries()) {
        const block = text.slice(m.index, i + 1 < starts.length ? starts[i + 1]!.index : text.length);
        routesOf.set(m[1]!, new Set([...helpers, ...[...block.matchAll(/ROUTES\.(\w+)/g)].map((x) => x[1]!)]));
      }
    }
    const kind = (r: string) => (ROUTES as Record<string, { kind: string }>)[r]?.kind;
    expect([...routesOf.values()].flatMap((rs) => [...rs].filter((r) => kind(r) === undefined))).toEqual([]);
    const usesSeam = (sid: string) => [...(routesOf.get(sid) ?? [])].some((r) => kind(r) !== 'protocol');
    const problems: string[] = [];
    for (const r of ROWS.filter((x) => x.scenarios.length > 0)) {
      if ((r.witness === 'witnessable-gated' || r.witness === 'witnessable-unaided') && r.scenarios.every(usesSeam)) problems.push(`${r.id} is ${r.witness} but every witness uses a seam`);
      if (r.witness === 'seam-gated' && !r.scenarios.every(usesSeam)) problems.push(`${r.id} is seam-gated but ${r.scenarios.filter((x) => !usesSeam(x)).join(', ')} needs no seam`);
    }
    expect(problems).toEqual([]);
  });

  it('counts the MUSTs without a witness (the number the site shows)', () => {
    const musts = ROWS.filter((r) => r.force === 'MUST' || r.force === 'MUST NOT');
    const unwitnessed = musts.filter(isUnwitnessedMust);
    expect(musts.length).toBeGreaterThan(unwitnessed.length);
    for (const r of unwitnessed) expect(r.rationale ?? r.gap, r.id).toBeTruthy();
    expect(WITNESS_CLASSES).toHaveLength(6);
  });
});

describe('the proposed openwop-memory floor (RFCs/WK-0001-openwop-memory-floor.md)', () => {
  const front = yaml.load(readFileSync('RFCs/WK-0001-openwop-memory-floor.md', 'utf8').split(/^---$/m)[1]!) as { status: string; floor: { profile: string; scenarios: string[]; requirementIds: string[] } };
  it('is a Draft whose floor names exactly the rows the table marks as floor rows', () => {
    expect(front.status).toBe('Draft');
    expect(front.floor.profile).toBe('openwop-memory');
    expect([...front.floor.requirementIds].sort()).toEqual(ROWS.filter((r) => r.floor?.includes('openwop-memory')).map((r) => r.id).sort());
  });
  it('every floor requirement is a MUST witnessed by every floor scenario, through a class that needs no seam', () => {
    const scenarioIds = new Set(SCENARIOS.map((s) => s.id));
    for (const sid of front.floor.scenarios) expect(scenarioIds.has(sid), sid).toBe(true);
    for (const id of front.floor.requirementIds) {
      const row = REQUIREMENTS.get(id);
      expect(row, id).toBeDefined();
      expect(['MUST', 'MUST NOT']).toContain(row!.force);
      expect(['witnessable-unaided', 'witnessable-gated', 'claims-check', 'negative-existence']).toContain(row!.witness);
      for (const sid of front.floor.scenarios) expect(row!.scenarios, id).toContain(sid);
    }
  });
  it('its body table lists the same ids as its front matter', () => {
    const body = readFileSync('RFCs/WK-0001-openwop-memory-floor.md', 'utf8').split('## The floor, per requirement')[1]!.split('\n## ')[0]!;
    expect([...body.matchAll(/^\| `(openwop\.requirement\.[^`]+)`/gm)].map((m) => m[1]).sort()).toEqual([...front.floor.requirementIds].sort());
  });
});

describe('assertions name their requirement', () => {
  const config = configFrom({}, { 'base-url': 'http://127.0.0.1:9' });
  const client = new HttpClient(config);
  const row = ROWS.find((r) => r.scenarios.length > 0)!;
  const run = (id: string, body: (t: Parameters<(typeof SCENARIOS)[number]['run']>[0]) => void) =>
    runScenario({ id, title: 't', rfc: '-', profile: 'x', run: async (t) => body(t) }, client, {}, config);

  it('an assertion before any t.req fails the scenario as a suite bug', async () => {
    const r = await run(row.scenarios[0]!, (t) => void t.check(true, 'unnamed'));
    expect(r.outcome).toBe('fail');
    expect(r.failures[0]).toContain(`${SUITE_BUG} assertion without a requirement id`);
  });
  it('an id the table does not have, or whose row does not list the scenario, fails the scenario', async () => {
    expect((await run(row.scenarios[0]!, (t) => void t.req('openwop.requirement.proposed.core.nope').check(true, 'x'))).failures[0]).toContain('is not in conformance/requirements/');
    expect((await run('not-a-witness', (t) => void t.req(row.id).check(true, 'x'))).failures[0]).toContain('does not list scenario not-a-witness');
  });
  it('checks count under the open requirement; an error marks the open section stopped and failed', async () => {
    const other = ROWS.find((r) => r.id !== row.id && r.scenarios.includes(row.scenarios[0]!));
    const r = await run(row.scenarios[0]!, (t) => {
      t.req(row.id).check(true, 'a');
      t.check(false, 'b');
      if (other !== undefined) t.req(other.id).check(true, 'c');
      throw new Error('boom');
    });
    expect(r.requirements[0]).toMatchObject({ id: row.id, assertions: 2, failures: ['b'] });
    const last = r.requirements.at(-1)!;
    expect(last.stoppedHere).toBe(true);
    expect(last.failures.at(-1)).toContain('scenario error: boom');
  });
});

/** Random scenario results for the rows of the tables: outcomes, skip classes and per-id tallies. */
const scenarioResults = fc.array(
  fc.record({
    id: fc.constantFrom(...SCENARIOS.map((s) => s.id)),
    outcome: fc.constantFrom('pass', 'fail', 'skip'),
    skipClass: fc.constantFrom<SkipClass>('inapplicable', 'skipped', 'blocked'),
    tallies: fc.array(fc.record({ id: fc.constantFrom(...ROWS.map((r) => r.id)), assertions: fc.nat(3), failed: fc.boolean(), stopped: fc.boolean() }), { maxLength: 6 }),
  }).map(({ id, outcome, skipClass, tallies }): ScenarioResult => {
    const requirements = tallies.map((t) => ({ id: t.id, assertions: t.assertions, failures: t.failed && t.assertions > 0 ? ['x'] : [], ...(t.stopped ? { stoppedHere: true as const } : {}) }));
    const assertions = requirements.reduce((n, t) => n + t.assertions, 0);
    return { id, title: id, rfc: '-', profile: 'p', outcome, ...(outcome === 'skip' ? { skipClass, reason: 'r' } : {}), assertions, failures: requirements.flatMap((t) => t.failures), durationMs: 0, requirements };
  }),
  { maxLength: 12 },
).map((rs) => [...new Map(rs.map((r) => [r.id, r])).values()]);

describe('results keyed by requirement id (properties)', () => {
  it('one result per row; never pass without an assertion; any failure under an id fails it; no witness is unwitnessed; a skip names its class', () => {
    fc.assert(
      fc.property(scenarioResults, (results) => {
        const out = requirementResults(results);
        expect(out.map((r) => r.id)).toEqual(ROWS.map((r) => r.id));
        for (const [i, r] of out.entries()) {
          const row: TableRequirement = ROWS[i]!;
          const legs = results.filter((s) => row.scenarios.includes(s.id)).map((s) => s.requirements.find((t) => t.id === row.id));
          if (r.outcome === 'pass') {
            expect(r.assertions).toBeGreaterThan(0);
            expect(legs.some((t) => t !== undefined && t.assertions > 0 && t.stoppedHere !== true)).toBe(true);
          }
          if (legs.some((t) => (t?.failures.length ?? 0) > 0)) expect(r.outcome).toBe('fail');
          expect(r.outcome === 'unwitnessed').toBe(row.scenarios.length === 0);
          if (r.outcome === 'skip') expect(r.skipClass).toBeDefined();
          expect(r.witness).toBe(row.witness);
        }
        const sum = summariseRequirements(out);
        expect(sum.pass + sum.fail + sum.skip + sum.unwitnessed).toBe(ROWS.length);
      }),
      { numRuns: 200 },
    );
  });
});
