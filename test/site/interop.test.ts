/**
 * The interop matrix over several hosts: the model (columns per host, rows per suite, history, badges) on the
 * synthetic results in test/site/fixtures/interop/results/ (never committed as evidence), and the results files it
 * reads against conformance/result.schema.json. The component itself is checked in Chromium by
 * fixture-site.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { badgeSvg } from '../../site/src/lib/badge.ts';
import { badgeMessage, buildMatrix, cellOf, historyOf, matrixOfDirectory, type ResultsDocument } from '../../site/src/lib/interop-model.ts';

const FIXTURES = 'test/site/fixtures/interop/results';
const readDir = (dir: string): Record<string, ResultsDocument> =>
  Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => [`${dir}/${f}`, JSON.parse(readFileSync(join(dir, f), 'utf8')) as ResultsDocument]));
const fixtures = () => matrixOfDirectory(readDir(FIXTURES));

describe('results files', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true }); // as the reference-host test reads the schema
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync('conformance/result.schema.json', 'utf8')));
  it.each([FIXTURES, 'conformance/results'])('%s: every file matches conformance/result.schema.json', (dir) => {
    for (const [path, doc] of Object.entries(readDir(dir))) expect(validate(doc), `${path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  });
  it('the schema knows which suite produced a file (suite.kind), and only the two suites', () => {
    const doc = Object.values(readDir(FIXTURES)).find((d) => d.suite.kind === 'openwop-upstream')!;
    expect(validate({ ...doc, suite: { ...doc.suite, kind: 'elsewhere' } })).toBe(false);
  });
});

describe('interop model', () => {
  it('has one column per host, sorted by name, each summing its latest files', () => {
    const { matrix } = fixtures();
    expect(matrix.hosts.map((h) => h.name)).toEqual(['fixture-host-a', 'fixture-host-b']);
    expect(matrix.hosts[0]!.summary).toEqual({ pass: 3, fail: 1, skip: 1 });
  });
  it('keeps the upstream suite’s scenarios in rows of their own, after ours', () => {
    const { matrix } = fixtures();
    expect(matrix.sections.map((s) => [s.kind, s.rows.map((r) => r.id)])).toEqual([
      ['wopkit', ['alpha', 'beta', 'gamma', 'delta']],
      ['openwop-upstream', ['upstream-one', 'upstream-two']],
    ]);
    const [a, b] = matrix.hosts;
    expect(cellOf(a!, 'openwop-upstream', 'upstream-two')?.outcome).toBe('fail');
    expect(cellOf(b!, 'openwop-upstream', 'upstream-one')).toBeUndefined();
    expect(cellOf(a!, 'wopkit', 'upstream-one')).toBeUndefined();
  });
  it('gives each cell the scenario’s history on that host, oldest first, counting the latest run once', () => {
    const [a, b] = fixtures().matrix.hosts;
    expect(historyOf(a!, 'wopkit', 'alpha').map((p) => p.outcome)).toEqual(['fail', 'pass']);
    expect(historyOf(a!, 'wopkit', 'gamma').map((p) => p.outcome)).toEqual(['missing', 'skip']);
    expect(historyOf(b!, 'wopkit', 'alpha').map((p) => p.outcome)).toEqual(['pass']);
  });
  it('reads a file without suite.kind as the wopkit suite (every results file written before the field existed)', () => {
    const doc = readDir('conformance/results');
    const { matrix } = matrixOfDirectory(doc);
    expect(matrix.sections.map((s) => s.kind)).toEqual(['wopkit']);
    expect(buildMatrix([], []).hosts).toEqual([]);
  });
  it('badges say pass, fail and skip counts in the colour of the worst', () => {
    const [a, b] = fixtures().matrix.hosts;
    expect(badgeMessage(a!)).toEqual({ message: '1 failing, 3/5 pass', color: 'red' });
    expect(badgeMessage(b!)).toEqual({ message: '2/2 pass', color: 'green' });
    const svg = badgeSvg('conformance', '2/2 pass & <ok>', 'green');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="20"/);
    expect(svg).toContain('2/2 pass &amp; &lt;ok&gt;');
    expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org)/); // nothing fetched from elsewhere
  });
});
