/**
 * Upstream OpenWOP's own scenario files run against the reference host (issue 24's acceptance), as the interop
 * matrix page shows them: one row per upstream file, one column per host configuration, each cell that file's counts
 * in the default and strict modes (one figure when both agree), and every test that did not pass with an assertion
 * with what excuses it. Pure: the page feeds it conformance/results/upstream/acceptance.json, the tests feed it
 * fixtures. The record's format is the one scripts/upstream-acceptance.ts writes.
 */

export type UpstreamOutcome = 'failed' | 'zeroAssertion' | 'skipped';

export interface UpstreamCounts {
  passed: number;
  failed: number;
  zeroAssertion: number;
  skipped: number;
}

export interface UpstreamRun {
  config: string;
  label: string;
  strict: boolean;
  hosts: string;
  totals: UpstreamCounts;
  files: (UpstreamCounts & { file: string; commit?: string })[];
}

export interface UpstreamExcusal {
  file: string;
  outcome: UpstreamOutcome;
  count: number;
  test?: string;
  class?: string;
  coveredBy?: string;
  why: string;
}

/** conformance/results/upstream/acceptance.json: what scripts/upstream-acceptance.ts records. */
export interface UpstreamRecord {
  upstream: { repository: string; files: { path: string; commit: string; repository?: string }[] };
  excusals: UpstreamExcusal[];
  runs: UpstreamRun[];
  /** Each mutant host, the files it must fail, and its counts on them. */
  mutants: { mutation: string; expectedToFail: string[]; files: (UpstreamCounts & { file: string })[]; verdict: string }[];
  verdict: { unexcused: string[]; survivingMutants: string[]; accepted: boolean };
}

/** One host configuration: its default and strict runs. */
export interface UpstreamColumn {
  config: string;
  hosts: string;
  modes: { strict: boolean; totals: UpstreamCounts }[];
}

/** One upstream file across the configurations; `null` where a configuration did not run it. */
export interface UpstreamRow {
  file: string;
  commit: string;
  cells: ({ default?: UpstreamCounts; strict?: UpstreamCounts } | null)[];
  excusals: UpstreamExcusal[];
}

export interface UpstreamView {
  repository: string;
  columns: UpstreamColumn[];
  rows: UpstreamRow[];
  excusals: UpstreamExcusal[];
  mutants: UpstreamRecord['mutants'];
  accepted: boolean;
}

const COUNT_WORDS: readonly [keyof UpstreamCounts, string][] = [['passed', 'passed'], ['failed', 'failed'], ['zeroAssertion', 'without an assertion'], ['skipped', 'skipped']];

/** "6 passed · 1 failed": the non-zero counts in words (a file that ran no test says so). */
export function countsText(c: UpstreamCounts): string {
  const parts = COUNT_WORDS.filter(([k]) => c[k] > 0).map(([k, w]) => `${c[k]} ${w}`);
  return parts.length > 0 ? parts.join(' · ') : 'no test';
}

const sameCounts = (a: UpstreamCounts, b: UpstreamCounts): boolean => COUNT_WORDS.every(([k]) => a[k] === b[k]);

/** A cell's text: one figure when default and strict agree, else each mode's. */
export function cellText(cell: UpstreamRow['cells'][number]): string {
  if (cell === null) return 'not run';
  const { default: d, strict: s } = cell;
  if (d !== undefined && s !== undefined && sameCounts(d, s)) return countsText(d);
  return [d && `default: ${countsText(d)}`, s && `strict: ${countsText(s)}`].filter(Boolean).join('; ');
}

/** A configuration's totals: one figure for both modes when they agree, else each mode's. */
export function columnText(c: UpstreamColumn): string {
  const [first, ...others] = c.modes;
  if (first !== undefined && others.every((m) => sameCounts(m.totals, first.totals))) return `${c.modes.length > 1 ? 'default and strict' : first.strict ? 'strict' : 'default'}: ${countsText(first.totals)}`;
  return c.modes.map((m) => `${m.strict ? 'strict' : 'default'}: ${countsText(m.totals)}`).join('; ');
}

/** Whether a cell holds a test that did not pass with an assertion (its excusal is listed under the table). */
export const cellExcused = (cell: UpstreamRow['cells'][number]): boolean =>
  cell !== null && [cell.default, cell.strict].some((c) => c !== undefined && c.failed + c.zeroAssertion + c.skipped > 0);

export function upstreamView(record: UpstreamRecord): UpstreamView {
  const columns: UpstreamColumn[] = [];
  for (const run of record.runs) {
    let column = columns.find((c) => c.config === run.config);
    if (column === undefined) columns.push((column = { config: run.config, hosts: run.hosts, modes: [] }));
    column.modes.push({ strict: run.strict, totals: run.totals });
  }
  // The configurations that ran the most files first (a host built for one file's leg goes last).
  const filesOf = (config: string) => new Set(record.runs.filter((r) => r.config === config).flatMap((r) => r.files.map((f) => f.file))).size;
  columns.sort((a, b) => filesOf(b.config) - filesOf(a.config));
  const files = [...new Set(record.runs.flatMap((r) => r.files.map((f) => f.file)))].sort();
  const commitOf = (file: string) => record.upstream.files.find((f) => f.repository === undefined && f.path.endsWith(`/${file}`))?.commit ?? '';
  const rows = files.map((file) => ({
    file,
    commit: commitOf(file),
    cells: columns.map((column) => {
      const cell: { default?: UpstreamCounts; strict?: UpstreamCounts } = {};
      for (const run of record.runs.filter((r) => r.config === column.config)) {
        const counts = run.files.find((f) => f.file === file);
        if (counts !== undefined) cell[run.strict ? 'strict' : 'default'] = { passed: counts.passed, failed: counts.failed, zeroAssertion: counts.zeroAssertion, skipped: counts.skipped };
      }
      return cell.default === undefined && cell.strict === undefined ? null : cell;
    }),
    excusals: record.excusals.filter((e) => e.file === file),
  }));
  return { repository: record.upstream.repository, columns, rows, excusals: record.excusals, mutants: record.mutants, accepted: record.verdict.accepted };
}
