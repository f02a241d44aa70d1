/**
 * The committed record of issue 24's acceptance (conformance/results/upstream/acceptance.json, written by
 * scripts/upstream-acceptance.ts against upstream's own scenario files) agrees with itself and with what
 * docs/conformance.md tells readers: every run's totals are the sum of its files, every test that did not pass with an
 * assertion is covered by an excusal of the same file and outcome (a (b) excusal cites the seed it keeps), every
 * mutant host failed the files it must fail, and the phase-2 table states the recorded counts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { UpstreamRecord } from '../../site/src/lib/upstream-acceptance.ts';

const record = JSON.parse(readFileSync('conformance/results/upstream/acceptance.json', 'utf8')) as UpstreamRecord;
const doc = readFileSync('docs/conformance.md', 'utf8');
const KEYS = ['passed', 'failed', 'zeroAssertion', 'skipped'] as const;

describe('the committed upstream acceptance record', () => {
  it('is accepted: nothing unexcused, no surviving mutant; every run and mode was recorded', () => {
    expect(record.verdict).toEqual({ unexcused: [], survivingMutants: [], accepted: true });
    for (const config of ['sqlite', 'postgres', 'no-attribution']) {
      expect(record.runs.filter((r) => r.config === config).map((r) => r.strict).sort(), config).toEqual([false, true]);
    }
  });

  it('has totals that are the sum of each run\'s files', () => {
    for (const run of record.runs) {
      for (const k of KEYS) expect(run.files.reduce((n, f) => n + f[k], 0), `${run.label} ${k}`).toBe(run.totals[k]);
    }
  });

  it('covers every non-pass with an excusal of its file and outcome, no more often than the excusal allows', () => {
    const cls = new Set(['a', 'b', 'c']);
    for (const run of record.runs) {
      for (const f of run.files) {
        for (const outcome of ['failed', 'zeroAssertion', 'skipped'] as const) {
          if (f[outcome] === 0) continue;
          const covering = record.excusals.filter((e) => e.file === f.file && e.outcome === outcome);
          expect(covering.length, `${run.label}: ${f.file} ${outcome}`).toBeGreaterThan(0);
          expect(f[outcome], `${run.label}: ${f.file} ${outcome}`).toBeLessThanOrEqual(covering.reduce((n, e) => n + e.count, 0));
        }
      }
    }
    for (const e of record.excusals) {
      expect(e.class !== undefined ? cls.has(e.class) : e.coveredBy !== undefined, `${e.file}: a class or a covering run`).toBe(true);
      if (e.class === 'b') expect(e.why, `${e.file}: a (b) excusal names the seed MUST it keeps`).toMatch(/seed .*line \d+/);
    }
  });

  it('records every mutant host failing each file it must fail', () => {
    expect(record.mutants.length).toBeGreaterThan(0);
    for (const m of record.mutants) {
      expect(m.verdict, m.mutation).toBe('fails as expected');
      for (const file of m.expectedToFail) {
        const f = m.files.find((x) => x.file === file);
        expect((f?.failed ?? 0) + (f?.zeroAssertion ?? 0), `${m.mutation}: ${file}`).toBeGreaterThan(0);
      }
    }
  });

  it('is what docs/conformance.md\'s phase-2 table states, mode by mode', () => {
    const table = doc.slice(doc.indexOf('**Phase 2'), doc.indexOf('What is not a pass'));
    const rows = [...table.matchAll(/^\| (.+?) \| (default|strict|default and strict) \| (\d+) \| (\d+)(?: \([abc]\))? \| (\d+) \| (\d+) \|$/gm)];
    const stated = rows.map((r) => ({ mode: r[2], counts: [r[3], r[4], r[5], r[6]].map(Number) }));
    const recorded = (config: string) => record.runs.filter((r) => r.config === config).map((r) => KEYS.map((k) => r.totals[k]));
    expect(stated.filter((s) => s.mode !== 'default and strict').map((s) => s.counts)).toEqual([...recorded('sqlite'), ...recorded('postgres')]);
    const noAttribution = recorded('no-attribution');
    expect(noAttribution[0]).toEqual(noAttribution[1]);
    expect(stated.find((s) => s.mode === 'default and strict')?.counts).toEqual(noAttribution[0]);
  });
});
