/**
 * The benchmarks page's view of `bench/results/*.json`. Pure. A file that carries the common summary of
 * bench/README.md (`row`, `ratio`, `peer`, `goal`, `met` at the top level, or a list of such rows in `rows`; the
 * older `summary` key is read too) is shown by those fields; every file is also
 * shown generically: its scalars as a key/value table and each list of records as a table, nested objects
 * flattened to dotted column names.
 */

import type { Bar, BarChart } from './bar-chart.ts';

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

/** One row of the common summary: a measured ratio against a peer, and the goal it is held to. */
export interface SummaryRow {
  row: string;
  ratio: number;
  peer: string;
  /** As the file states it: a number, or text such as `≥ 1.5×` / `≤ 3×`. */
  goal: string | number | null;
  /** Parsed from `goal`: the threshold and its direction; null when the goal is not a comparison. */
  target: { value: number; better: 'higher' | 'lower' } | null;
  met: boolean | null;
}

export type Cell = string | number | boolean | null;
export interface RecordTable {
  /** The dotted path of the list in the file (`results`, `genWall.samples`). */
  key: string;
  columns: string[];
  rows: Cell[][];
}

export interface BenchView {
  /** File name without `.json`. */
  name: string;
  title: string;
  file: string;
  summary: SummaryRow[] | null;
  scalars: [string, Cell][];
  tables: RecordTable[];
}

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const GOAL = /^\s*(≥|>=|>|≤|<=|<)?\s*([0-9]+(?:\.[0-9]+)?)/;

/** `≥ 1.5×` → 1.5, higher is better; `≤ 2 s` → 2, lower; a bare number means "at least". */
export function parseGoal(goal: Json | undefined): SummaryRow['target'] {
  if (typeof goal === 'number') return { value: goal, better: 'higher' };
  if (typeof goal !== 'string') return null;
  const m = GOAL.exec(goal);
  if (m === null) return null;
  return { value: Number(m[2]), better: m[1] !== undefined && '≤<'.includes(m[1][0]!) ? 'lower' : 'higher' };
}

function summaryRow(v: Json): SummaryRow | null {
  if (!isObject(v) || typeof v.row !== 'string' || typeof v.ratio !== 'number') return null;
  const goal = typeof v.goal === 'string' || typeof v.goal === 'number' ? v.goal : null;
  const target = parseGoal(goal ?? undefined);
  const met = typeof v.met === 'boolean' ? v.met : target === null ? null : target.better === 'higher' ? v.ratio >= target.value : v.ratio <= target.value;
  return { row: v.row, ratio: v.ratio, peer: typeof v.peer === 'string' ? v.peer : '', goal, target, met };
}

/** The common summary when the file has one (every entry must have at least `row` and a numeric `ratio`). */
export function summaryOf(data: JsonObject): SummaryRow[] | null {
  const s = Array.isArray(data.rows) ? data.rows : typeof data.row === 'string' ? data : data.summary;
  const list = Array.isArray(s) ? s : s === undefined ? [] : [s];
  const rows = list.map(summaryRow);
  return rows.length > 0 && rows.every((r) => r !== null) ? (rows as SummaryRow[]) : null;
}

const cell = (v: Json): Cell => (v === null || typeof v !== 'object' ? v : JSON.stringify(v));

/** `{ a: { b: 1 }, c: 2 }` → `[['a.b', 1], ['c', 2]]`. */
function flatten(o: JsonObject, prefix = ''): [string, Json][] {
  return Object.entries(o).flatMap(([k, v]): [string, Json][] => (isObject(v) ? flatten(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v]]));
}

export function benchView(file: string, data: JsonObject): BenchView {
  const name = file.replace(/^.*\//, '').replace(/\.json$/, '');
  const summary = summaryOf(data);
  const scalars: [string, Cell][] = [];
  const tables: RecordTable[] = [];
  for (const [key, v] of flatten(data)) {
    if ((key === 'summary' || key === 'rows') && summary !== null) continue;
    if (Array.isArray(v) && v.length > 0 && v.every(isObject)) {
      const records = v.map((r) => flatten(r as JsonObject));
      const columns = [...new Set(records.flatMap((r) => r.map(([k]) => k)))];
      tables.push({ key, columns, rows: records.map((r) => columns.map((c) => cell(r.find(([k]) => k === c)?.[1] ?? null))) });
    } else scalars.push([key, cell(v)]);
  }
  return { name, title: typeof data.benchmark === 'string' ? data.benchmark : name, file, summary, scalars, tables };
}

/** What the fallback plot draws from a record table: one bar per record of its primary metric. */
export interface SeriesChoice {
  label: string;
  metric: string;
  bars: { label: string; value: number }[];
}

/** Timings and throughputs first; otherwise the last numeric column. */
const PRIMARY = /(?:ms|Ms|MsMedian|PerSec|PerOp|PerEntry|PerAppend|seconds|speedup|ratio)$/;

export function seriesOf(t: RecordTable): SeriesChoice | null {
  const all = (pred: (v: Cell) => boolean) => t.columns.filter((_, i) => t.rows.every((r) => pred(r[i]!)));
  const numeric = all((v) => typeof v === 'number');
  // Text and flag columns that tell records apart (a flag that is the same in every record names nothing).
  const tags = all((v) => typeof v === 'string' || typeof v === 'boolean').filter((c) => new Set(t.rows.map((r) => r[t.columns.indexOf(c)])).size > 1 || t.rows.length === 1);
  const metric = numeric.find((c) => PRIMARY.test(c)) ?? numeric.at(-1);
  if (metric === undefined) return null;
  // A record is named by its text and flag columns, plus the first numeric column (the size parameter) unless that is the metric.
  const size = numeric[0] !== metric ? numeric[0] : undefined;
  const at = (r: Cell[], c: string) => r[t.columns.indexOf(c)];
  const name = (r: Cell[]) =>
    [...tags.map((c) => (typeof at(r, c) === 'boolean' ? (at(r, c) ? c : `not ${c}`) : String(at(r, c)))), ...(size ? [`${size} ${at(r, size)}`] : [])].join(' · ') || String(t.rows.indexOf(r) + 1);
  return { label: [...tags, ...(size ? [size] : [])].join(', ') || 'record', metric, bars: t.rows.map((r) => ({ label: name(r), value: at(r, metric) as number })) };
}

/** Every results file of a directory, from its files by path (as `import.meta.glob` returns them), sorted by name. */
export function benchViews(byPath: Record<string, JsonObject>): BenchView[] {
  return Object.entries(byPath)
    .filter(([path]) => !path.endsWith('.tmp.json'))
    .map(([path, data]) => benchView(path.split('/').pop()!, data))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A benchmark's plot: the summary's ratios against their goals, else the primary metric of its first record table. */
export function chartOf(b: BenchView): BarChart | null {
  if (b.summary !== null) {
    return {
      title: 'Ratio against the peer (dashed line: the goal)',
      unit: '×',
      bars: b.summary.map((s) => ({ label: `${s.row} — vs ${s.peer}`, value: s.ratio, ...(s.target ? { goal: s.target.value } : {}), met: s.met })),
    };
  }
  for (const t of b.tables) {
    const s = seriesOf(t);
    if (s !== null) return { title: `${s.metric} by ${s.label} (from ${t.key})`, bars: s.bars };
  }
  const ratios = ratioScalars(b.scalars);
  return ratios.length > 0 ? { title: 'Ratios the file reports (dashed line: its target)', unit: '×', bars: ratios } : null;
}

/** `x.ratio` (with `x.target` as its goal when there is one) and `xRatio` scalars: what a file without records compares. */
function ratioScalars(scalars: [string, Cell][]): Bar[] {
  const value = new Map(scalars);
  return scalars.flatMap(([k, v]): Bar[] => {
    if (typeof v !== 'number' || !/(?:^|\.)ratio$|Ratio$/.test(k)) return [];
    const target = value.get(k.replace(/ratio$/, 'target'));
    return [{ label: k.replace(/\.ratio$/, ''), value: v, ...(typeof target === 'number' && k.endsWith('.ratio') ? { goal: target, met: v >= target } : {}) }];
  });
}
