/** bench/report.ts: rows from each result file's summary, goals read as comparisons, malformed summaries refused, files without one listed. */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collect, table } from '../../bench/report.ts';
import { meets } from '../../bench/summary.ts';

const row = { row: 'discovery', ratio: 0.9, peer: 'bare Fastify', goal: '≥ 0.8×', figure: '9000 req/s' };

describe('bench report', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const results = (files: Record<string, unknown>) => {
    dir = mkdtempSync(join(tmpdir(), 'wopkit-bench-report-'));
    for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), typeof data === 'string' ? data : JSON.stringify(data));
    return collect(dir);
  };

  it('reads goals as comparisons: at least, at most, none', () => {
    expect([meets(0.9, '≥ 0.8×'), meets(0.7, '>= 0.8'), meets(1.2, '≥ 1× (≤ 3 s on a quiet machine)'), meets(0.9, 1)]).toEqual([true, false, true, false]);
    expect([meets(2, '≤ 3×'), meets(4, '<= 3 s'), meets(5, 'identical clusters')]).toEqual([true, false, null]);
  });

  it('takes one summary object or a list, in file order, and lists files without a summary', () => {
    const c = results({
      'b.json': { summary: [{ ...row, row: 'gen', ratio: 0.35, goal: '≥ 1× (≤ 3 s)' }, { ...row, row: 'gen --check', goal: 'identical output' }] },
      'a.json': { summary: row, details: [1, 2] },
      'legacy.json': { results: [] },
    });
    expect(c.problems).toEqual([]);
    expect(c.rows.map((r) => [r.row, r.source, r.met])).toEqual([['discovery', 'a.json', true], ['gen', 'b.json', false], ['gen --check', 'b.json', null]]);
    expect(c.withoutSummary).toEqual(['legacy.json']);
    const md = table(c);
    expect(md).toContain('| discovery | 9000 req/s | bare Fastify | 0.9× | ≥ 0.8× | yes | `bench/results/a.json` |');
    expect(md).toContain('| gen | 9000 req/s | bare Fastify | 0.35× | ≥ 1× (≤ 3 s) | **no** |');
    expect(md).toContain('| gen --check | 9000 req/s | bare Fastify | 0.9× | identical output | — |');
    expect(md).toContain('without a summary yet: `bench/results/legacy.json`');
  });

  it('refuses a malformed summary or file, naming it and the field', () => {
    const c = results({ 'x.json': { summary: { ...row, ratio: 'fast' } }, 'y.json': { summary: [row, { row: 'r' }, 3] }, 'z.json': '{ nope' });
    expect(c.problems).toEqual([
      'x.json summary: ratio must be a number',
      'y.json summary[1]: ratio must be a number, peer must be a string, goal must be a string',
      'y.json summary[2]: must be an object',
      expect.stringMatching(/^z\.json: not JSON/),
    ]);
    expect(c.rows.map((r) => r.source)).toEqual(['y.json']);
  });
});
