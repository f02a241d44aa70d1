/**
 * The benchmarks page's model: the common summary (`{ row, goal, ratio, peer }`, one object or a list) when a file
 * has it, the generic tables otherwise, the plot chosen for each file, and the inline SVG chart. Synthetic files
 * with the summary: test/site/fixtures/bench/results/; the real files: bench/results/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barChartSvg, chartCaption } from '../../site/src/lib/bar-chart.ts';
import { benchViews, chartOf, parseGoal, seriesOf, summaryOf } from '../../site/src/lib/bench-model.ts';

type Files = Parameters<typeof benchViews>[0];
const readDir = (dir: string): Files =>
  Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => [`${dir}/${f}`, JSON.parse(readFileSync(join(dir, f), 'utf8'))])) as Files;

describe('benchmark summary', () => {
  it('reads goals as a threshold and a direction', () => {
    expect(parseGoal('≥ 1.5×')).toEqual({ value: 1.5, better: 'higher' });
    expect(parseGoal('<= 2 s')).toEqual({ value: 2, better: 'lower' });
    expect(parseGoal('≤3×')).toEqual({ value: 3, better: 'lower' });
    expect(parseGoal(5)).toEqual({ value: 5, better: 'higher' });
    expect(parseGoal('identical clusters')).toBeNull();
  });
  it('takes a list or a single object, says whether each goal is met, and ignores a summary of another shape', () => {
    const views = benchViews(readDir('test/site/fixtures/bench/results'));
    const byName = Object.fromEntries(views.map((v) => [v.name, v]));
    expect(byName.validators!.summary!.map((s) => [s.row, s.met])).toEqual([['valid examples', true], ['invalid examples', false], ['one type, hand-written check', true]]);
    expect(byName.scheduler!.summary!.map((s) => [s.ratio, s.met])).toEqual([[9.2, false]]);
    expect(byName.host!.summary).toBeNull();
    expect(summaryOf({ summary: { pass: 3 } })).toBeNull();
    expect(summaryOf({ summary: [{ row: 'a', ratio: 2, peer: 'p', goal: '≥ 1×' }, { row: 'b' }] })).toBeNull();
  });
});

describe('every real results file', () => {
  const views = benchViews(readDir('bench/results'));
  it('is shown: every figure in a table, and a plot', () => {
    expect(views.length).toBe(readdirSync('bench/results').filter((f) => f.endsWith('.json') && !f.endsWith('.tmp.json')).length);
    for (const v of views) {
      expect(v.scalars.length + v.tables.length, v.name).toBeGreaterThan(0);
      const chart = chartOf(v);
      expect(chart, `${v.name} has a plot`).not.toBeNull();
      expect(chart!.bars.length, v.name).toBeGreaterThan(0);
      for (const b of chart!.bars) expect(Number.isFinite(b.value), `${v.name}: ${b.label}`).toBe(true);
    }
  });
  it('flattens nested figures to dotted names', () => {
    const generator = views.find((v) => v.name === 'generator')!;
    expect(generator.scalars.map(([k]) => k)).toContain('coldGen.peerReports.quicktype.ms');
  });
});

describe('fallback plot', () => {
  it('plots the timing or throughput column, naming each record by its text, flags and size', () => {
    const s = seriesOf({
      key: 'results',
      columns: ['layer', 'durable', 'recordsBefore', 'usPerAppend', 'openMs'],
      rows: [['log', false, 1000, 19.3, 10], ['log', true, 1000, 339.8, 7]],
    });
    expect(s).toEqual({ label: 'durable, recordsBefore', metric: 'usPerAppend', bars: [{ label: 'not durable · recordsBefore 1000', value: 19.3 }, { label: 'durable · recordsBefore 1000', value: 339.8 }] });
  });

  it('plots the ratios of a file without records, against their targets', () => {
    const view = benchViews({ 'x/generator.json': { dispatchVsOneOf: { ratio: 5.29, target: 5 }, coldStart: { ratio: 15.2 }, growth: { pagesRatio: 8.2 }, node: 'v24' } });
    expect(chartOf(view[0]!)!.bars).toEqual([
      { label: 'dispatchVsOneOf', value: 5.29, goal: 5, met: true },
      { label: 'coldStart', value: 15.2 },
      { label: 'growth.pagesRatio', value: 8.2 },
    ]);
  });
});

describe('bar chart', () => {
  it('draws one bar per row, a goal line where there is a goal, and escapes text', () => {
    const svg = barChartSvg({ title: 'T', unit: '×', bars: [{ label: 'a <b>', value: 2, goal: 1.5, met: true }, { label: 'c', value: 1, goal: 2, met: false }] });
    expect(svg.match(/<rect /g)?.length).toBe(2);
    expect(svg.match(/<line class="goal"/g)?.length).toBe(2);
    expect(svg).toContain('class="bar met"');
    expect(svg).toContain('class="bar missed"');
    expect(svg).toContain('a &lt;b&gt;');
    expect(svg).not.toContain('<script');
  });
  it('switches to a log scale when values span more than a factor of 50', () => {
    expect(chartCaption({ title: 'T', bars: [{ label: 'a', value: 1 }, { label: 'b', value: 100 }] })).toBe('T (log scale)');
    expect(chartCaption({ title: 'T', bars: [{ label: 'a', value: 1 }, { label: 'b', value: 10 }] })).toBe('T');
  });
});
