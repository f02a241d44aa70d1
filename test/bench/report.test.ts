/** bench/report.ts: rows from the summary fields of each result file, malformed rows refused, files without fields listed. */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collect, table } from '../../bench/report.ts';

const row = { row: 'discovery', figure: '9000 req/s', peer: 'bare Fastify', ratio: 0.9, goal: '≥ 0.8×', met: true };

describe('bench report', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const results = (files: Record<string, unknown>) => {
    dir = mkdtempSync(join(tmpdir(), 'wopkit-bench-report-'));
    for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), typeof data === 'string' ? data : JSON.stringify(data));
    return collect(dir);
  };

  it('takes a top-level row and a rows array, in file order, and lists files without summary fields', () => {
    const c = results({
      'b.json': { rows: [{ ...row, row: 'gen', met: false }, { ...row, row: 'gen --check' }] },
      'a.json': { ...row, details: [1, 2] },
      'legacy.json': { results: [] },
    });
    expect(c.problems).toEqual([]);
    expect(c.rows.map((r) => [r.row, r.source])).toEqual([['discovery', 'a.json'], ['gen', 'b.json'], ['gen --check', 'b.json']]);
    expect(c.withoutSummary).toEqual(['legacy.json']);
    const md = table(c);
    expect(md).toContain('| discovery | 9000 req/s | bare Fastify | 0.9× | ≥ 0.8× | yes | `bench/results/a.json` |');
    expect(md).toContain('| gen | 9000 req/s | bare Fastify | 0.9× | ≥ 0.8× | **no** |');
    expect(md).toContain('without summary fields yet: `bench/results/legacy.json`');
  });

  it('refuses a malformed row or file, naming it and the field', () => {
    const c = results({ 'x.json': { ...row, ratio: 'fast' }, 'y.json': { rows: [row, { row: 'r' }] }, 'z.json': '{ nope' });
    expect(c.problems).toEqual([
      'x.json: ratio must be a number',
      'y.json rows[1]: figure must be a string, peer must be a string, ratio must be a number, goal must be a string, met must be a boolean',
      expect.stringMatching(/^z\.json: not JSON/),
    ]);
    expect(c.rows.map((r) => r.source)).toEqual(['y.json']);
  });
});
