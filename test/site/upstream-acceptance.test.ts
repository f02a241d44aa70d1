/**
 * The interop page's table of upstream OpenWOP's scenario files: the model (lib/upstream-acceptance.ts) on the
 * committed record and on a small fixture, and the built page, which must show every file of the record with each
 * configuration's counts, every excusal and every mutant host.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cellText, columnText, countsText, upstreamView, type UpstreamRecord } from '../../site/src/lib/upstream-acceptance.ts';
import { DIST } from './serve.ts';

const record = JSON.parse(readFileSync('conformance/results/upstream/acceptance.json', 'utf8')) as UpstreamRecord;
const KEYS = ['passed', 'failed', 'zeroAssertion', 'skipped'] as const;
const counts = (passed: number, failed = 0, zeroAssertion = 0, skipped = 0) => ({ passed, failed, zeroAssertion, skipped });
const unescape = (s: string) => s.replace(/<wbr>/g, '').replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');

describe('the upstream table model', () => {
  const view = upstreamView(record);

  it('has one row per file any run ran and one column per configuration, the widest first', () => {
    expect(view.rows.map((r) => r.file)).toEqual([...new Set(record.runs.flatMap((r) => r.files.map((f) => f.file)))].sort());
    expect(view.columns.map((c) => c.config).sort()).toEqual([...new Set(record.runs.map((r) => r.config))].sort());
    expect(view.columns.at(-1)?.config).toBe('no-attribution');
    for (const r of view.rows) if (!r.file.includes('memory-attribution-emits')) expect(r.cells.at(-1), r.file).toBeNull();
  });

  it('puts each run\'s file counts in its column and mode: they sum to the run\'s totals', () => {
    for (const run of record.runs) {
      const i = view.columns.findIndex((c) => c.config === run.config);
      const mode = run.strict ? 'strict' : 'default';
      for (const k of KEYS) expect(view.rows.reduce((n, r) => n + (r.cells[i]?.[mode]?.[k] ?? 0), 0), `${run.label} ${k}`).toBe(run.totals[k]);
    }
  });

  it('says a cell in words, once when both modes agree, per mode when they differ, and "not run" for none', () => {
    expect(countsText(counts(6, 1))).toBe('6 passed · 1 failed');
    expect(countsText(counts(0, 0, 1, 1))).toBe('1 without an assertion · 1 skipped');
    expect(countsText(counts(0))).toBe('no test');
    expect(cellText({ default: counts(3), strict: counts(3) })).toBe('3 passed');
    expect(cellText({ default: counts(3), strict: counts(2, 1) })).toBe('default: 3 passed; strict: 2 passed · 1 failed');
    expect(cellText(null)).toBe('not run');
    expect(columnText({ config: 'x', hosts: 'h', modes: [{ strict: false, totals: counts(2) }, { strict: true, totals: counts(2) }] })).toBe('default and strict: 2 passed');
    expect(columnText({ config: 'x', hosts: 'h', modes: [{ strict: true, totals: counts(2) }] })).toBe('strict: 2 passed');
  });

  it('names each file\'s commit from the record\'s upstream list (not a schema of another repository)', () => {
    for (const r of view.rows) expect(r.commit, r.file).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('the built interop page', () => {
  const page = unescape(readFileSync(join(DIST, 'interop', 'index.html'), 'utf8'));
  const view = upstreamView(record);

  it('shows every upstream file with each configuration\'s cell, every excusal and every mutant host', () => {
    for (const r of view.rows) {
      const row = new RegExp(`<tr data-file="${r.file.replace(/\./g, '\\.')}"[^>]*>([^]*?)</tr>`).exec(page)?.[1] ?? '';
      expect(row, r.file).toContain(r.file);
      view.columns.forEach((c, i) => expect(row, `${r.file} ${c.config}`).toMatch(new RegExp(`data-config="${c.config}"[^>]*>${cellText(r.cells[i]!).replace(/[.*+?()[\]|\\]/g, '\\$&')}`)));
    }
    for (const e of record.excusals) expect(page).toContain(e.why);
    for (const m of record.mutants) expect(page).toContain(`data-mutation="${m.mutation}"`);
    expect(page).toContain('id="upstream-scenario-files"');
  });
});
