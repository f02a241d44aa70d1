/**
 * The interop matrix, computed from conformance result files (format: conformance/result.schema.json). Pure: the
 * site's pages feed it the files under conformance/results/, the tests feed it fixtures.
 *
 * - One column per host (`host.name`). A host's `*.latest.json` files fill its column; a host with results from
 *   both suites has one file per suite.
 * - Rows are grouped by suite (`suite.kind`: `wopkit`, the default when the field is absent, or
 *   `openwop-upstream`): the upstream suite's scenarios are rows of their own, never merged with ours.
 * - Each cell carries the scenario's history on that host: the outcomes of every timestamped result file of the same
 *   host and suite, oldest first.
 */

export const SUITE_KINDS = ['wopkit', 'openwop-upstream'] as const;
export type SuiteKind = (typeof SUITE_KINDS)[number];
export const SUITE_TITLES: Record<SuiteKind, string> = {
  wopkit: 'wopkit conformance suite',
  'openwop-upstream': 'OpenWOP upstream suite',
};

export type Outcome = 'pass' | 'fail' | 'skip';

export interface ScenarioResult {
  id: string;
  title: string;
  rfc: string;
  profile: string;
  outcome: Outcome;
  skipClass?: 'inapplicable' | 'skipped' | 'blocked';
  reason?: string;
  assertions: number;
  failures?: string[];
  durationMs?: number;
}

/** One results document, as conformance/result.schema.json describes it. */
export interface ResultsDocument {
  suite: { name: string; version: string; kind?: SuiteKind };
  host: { name: string; version: string; baseUrl: string };
  startedAt: string;
  finishedAt: string;
  strict: boolean;
  optedOutProfiles?: string[];
  summary: { pass: number; fail: number; skip: number };
  scenarios: ScenarioResult[];
}

/** A results document and the file it came from. */
export interface ResultsFile extends ResultsDocument {
  file: string;
}

export const suiteKind = (r: Pick<ResultsDocument, 'suite'>): SuiteKind => r.suite.kind ?? 'wopkit';

/** `wopkit-reference-host` → `wopkit-reference-host`; anything else is reduced to `[a-z0-9._-]`. */
export const hostSlug = (name: string): string => name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');

export interface HistoryPoint {
  finishedAt: string;
  file: string;
  outcome: Outcome | 'missing';
  skipClass?: string;
}

export interface HostColumn {
  name: string;
  slug: string;
  /** The newest latest-file per suite this host has results for. */
  latest: Partial<Record<SuiteKind, ResultsFile>>;
  /** Timestamped runs per suite, oldest first (the latest file included once). */
  runs: Partial<Record<SuiteKind, ResultsFile[]>>;
  /** Sum over the host's latest files. */
  summary: { pass: number; fail: number; skip: number };
}

export interface ScenarioRow {
  id: string;
  title: string;
  rfc: string;
}

export interface Section {
  kind: SuiteKind;
  title: string;
  rows: ScenarioRow[];
}

export interface Matrix {
  hosts: HostColumn[];
  /** Only suites some host has results for, in SUITE_KINDS order. */
  sections: Section[];
}

const byFinished = (a: ResultsFile, b: ResultsFile): number => a.finishedAt.localeCompare(b.finishedAt) || a.file.localeCompare(b.file);

export function buildMatrix(latestFiles: readonly ResultsFile[], historyFiles: readonly ResultsFile[]): Matrix {
  const hosts = new Map<string, HostColumn>();
  const hostOf = (name: string): HostColumn => {
    let h = hosts.get(name);
    if (h === undefined) hosts.set(name, (h = { name, slug: hostSlug(name), latest: {}, runs: {}, summary: { pass: 0, fail: 0, skip: 0 } }));
    return h;
  };
  for (const r of [...latestFiles].sort(byFinished)) hostOf(r.host.name).latest[suiteKind(r)] = r;
  for (const h of hosts.values()) {
    for (const r of Object.values(h.latest)) for (const k of ['pass', 'fail', 'skip'] as const) h.summary[k] += r.summary[k];
  }
  for (const r of [...historyFiles, ...latestFiles].sort(byFinished)) {
    const h = hosts.get(r.host.name);
    if (h === undefined) continue; // history of a host with no latest file is not shown
    const runs = (h.runs[suiteKind(r)] ??= []);
    if (!runs.some((x) => x.finishedAt === r.finishedAt)) runs.push(r); // the latest file repeats its timestamped run
  }
  const sections: Section[] = [];
  for (const kind of SUITE_KINDS) {
    const rows: ScenarioRow[] = [];
    for (const h of hosts.values()) {
      for (const s of h.latest[kind]?.scenarios ?? []) if (!rows.some((r) => r.id === s.id)) rows.push({ id: s.id, title: s.title, rfc: s.rfc });
    }
    if (rows.length > 0) sections.push({ kind, title: SUITE_TITLES[kind], rows });
  }
  return { hosts: [...hosts.values()].sort((a, b) => a.name.localeCompare(b.name)), sections };
}

/**
 * The matrix of a results directory, from its files by path (as `import.meta.glob` returns them): `*.latest.json`
 * are the latest results, every other `*.json` is history.
 */
export function matrixOfDirectory(byPath: Record<string, ResultsDocument>): { latest: ResultsFile[]; matrix: Matrix } {
  const files = Object.entries(byPath).map(([path, r]) => ({ ...r, file: path.split('/').pop()! }));
  const latest = files.filter((f) => f.file.endsWith('.latest.json'));
  return { latest, matrix: buildMatrix(latest, files.filter((f) => !f.file.endsWith('.latest.json'))) };
}

/** A host's latest result for one scenario of one suite (undefined: the host did not run it). */
export const cellOf = (h: HostColumn, kind: SuiteKind, id: string): ScenarioResult | undefined => h.latest[kind]?.scenarios.find((s) => s.id === id);

/** The scenario's outcome in each of the host's runs of that suite, oldest first. */
export const historyOf = (h: HostColumn, kind: SuiteKind, id: string): HistoryPoint[] =>
  (h.runs[kind] ?? []).map((r) => {
    const s = r.scenarios.find((x) => x.id === id);
    return { finishedAt: r.finishedAt, file: r.file, outcome: s?.outcome ?? 'missing', ...(s?.skipClass ? { skipClass: s.skipClass } : {}) };
  });

/** The badge a host's column links to: every scenario it ran in its latest files. */
export function badgeMessage(h: HostColumn): { message: string; color: 'green' | 'red' | 'yellow' | 'grey' } {
  const { pass, fail, skip } = h.summary;
  const total = pass + fail + skip;
  if (total === 0) return { message: 'no results', color: 'grey' };
  if (fail > 0) return { message: `${fail} failing, ${pass}/${total} pass`, color: 'red' };
  return { message: skip > 0 ? `${pass}/${total} pass, ${skip} skip` : `${pass}/${total} pass`, color: skip > 0 ? 'yellow' : 'green' };
}
