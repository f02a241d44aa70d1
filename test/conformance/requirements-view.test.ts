/**
 * The site's requirement page model (site/src/lib/requirements-model.ts): rows keyed by requirement id from the
 * tables, per-host cells from results files (not reported for files written before requirement ids), rule links, and the
 * count of MUSTs without a witness.
 */
import { describe, expect, it } from 'vitest';
import { REQUIREMENT_TABLES, REQUIREMENTS, isUnwitnessedMust } from '../../conformance/requirements.ts';
import { requirementResults } from '../../conformance/requirement-results.ts';
import { requirementsView, rfcNumberOf, type RequirementResultsFile } from '../../site/src/lib/requirements-model.ts';

const ROWS = [...REQUIREMENTS.values()];

describe('requirement page model', () => {
  it('has one row per table row, grouped by namespace, and leads with the MUSTs that have no witness', () => {
    const v = requirementsView(REQUIREMENT_TABLES, []);
    expect(v.groups.map((g) => g.namespace)).toEqual(['openwop', 'inquirium']);
    expect(v.groups.flatMap((g) => g.rows.map((r) => r.id))).toEqual(ROWS.map((r) => r.id));
    expect(v.counts.rows).toBe(ROWS.length);
    expect(v.counts.mustsWithoutWitness).toBe(ROWS.filter(isUnwitnessedMust).length);
    expect(v.counts.mustsWithoutWitness).toBeGreaterThan(0);
    expect(Object.values(v.counts.byWitness).reduce((a, b) => a + b, 0)).toBe(ROWS.length);
    expect(v.counts.floor).toBe(4);
  });

  it('links every rule row to its anchor on the RFC page, and upstream rows to nothing', () => {
    expect(rfcNumberOf('RFCs/0068-memory-consolidation-and-commitments.md')).toBe('0068');
    expect(rfcNumberOf('RFCs/AM-1.1-agent-memory.md')).toBe('AM-1.1');
    expect(rfcNumberOf('RFCs/P066-inquirium-assistant-channel.md')).toBe('P066');
    expect(rfcNumberOf('RFCs/WK-0001-openwop-memory-floor.md')).toBe('WK-0001');
    const rows = requirementsView(REQUIREMENT_TABLES, []).groups.flatMap((g) => g.rows);
    expect(rows.find((r) => r.rule === 'R0068-D2')!.href).toBe('/rfcs/0068/#r0068-d2');
    expect(rows.find((r) => r.rule === 'AM-CTI1-1')!.href).toBe('/rfcs/am-1.1/#am-cti1-1');
    for (const r of rows) expect(r.href === undefined, r.id).toBe(r.rule === undefined);
  });

  it('fills a host cell from the results keyed by id, and says not reported for a file written before requirement ids', () => {
    const scenario = ROWS.find((r) => r.scenarios.length > 0)!;
    const results = requirementResults([{ id: scenario.scenarios[0]!, title: 't', rfc: '-', profile: 'p', outcome: 'pass', assertions: 2, failures: [], durationMs: 1, requirements: [{ id: scenario.id, assertions: 2, failures: [] }] }]);
    const files: RequirementResultsFile[] = [
      { file: 'b.latest.json', host: { name: 'b-host' }, suite: { name: 'wopkit-conformance', version: '0.3.0' }, finishedAt: '2026-12-07T00:00:00Z', requirements: results },
      { file: 'a.latest.json', host: { name: 'a-host' }, suite: { name: 'wopkit-conformance', version: '0.2.0' }, finishedAt: '2026-12-01T00:00:00Z' },
      { file: 'u.latest.json', host: { name: 'upstream-run' }, suite: { name: 'openwop', version: '2', kind: 'openwop-upstream' }, finishedAt: '2026-12-01T00:00:00Z' },
    ];
    const v = requirementsView(REQUIREMENT_TABLES, files);
    expect(v.hosts.map((h) => [h.name, h.reports])).toEqual([['a-host', false], ['b-host', true]]);
    const row = v.groups.flatMap((g) => g.rows).find((r) => r.id === scenario.id)!;
    expect(row.cells.map((c) => [c.host, c.outcome])).toEqual([['a-host', 'not-reported'], ['b-host', 'pass']]);
    const unwitnessed = v.groups.flatMap((g) => g.rows).find((r) => r.scenarios.length === 0)!;
    expect(unwitnessed.cells[1]!.outcome).toBe('unwitnessed');
  });
});

describe('rule inserts on the RFC pages', () => {
  it('own-text places a block before the first sub-heading; section after the sub-sections', async () => {
    const { appendToSection } = await import('../../site/src/lib/section-insert.ts');
    const html = '<h3 id="am-cti1">AM-CTI1</h3><p>a</p><h4 id="am-cti1-1">AM-CTI1-1</h4><p>b</p><h3 id="am-sr1">AM-SR1</h3>';
    expect(appendToSection(html, 'am-cti1', '<X/>', 'own-text')).toBe(html.replace('<h4', '<X/><h4'));
    expect(appendToSection(html, 'am-cti1', '<X/>')).toBe(html.replace('<h3 id="am-sr1"', '<X/><h3 id="am-sr1"'));
    expect(appendToSection(html, 'am-sr1', '<X/>', 'own-text')).toBe(`${html}<X/>`);
  });
});
