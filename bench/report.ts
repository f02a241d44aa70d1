/**
 * One table of every benchmark row: reads each bench/results/*.json, takes its common summary (`"summary"`: one row
 * `{ row, ratio, peer, goal, figure?, note? }` or a list; bench/README.md) and its run record (`"recorded"`: the commit
 * and the input it measured), and renders the table, the inputs, and the rows that miss their goal. Whether a goal is
 * met is read from the goal's leading comparison, as the site's benchmarks page reads it. Result files without a
 * summary are listed under the table; a malformed summary is a problem (the figures script fails on it).
 * scripts/figures.ts writes the output into bench/results/README.md and the top-level README (npm run bench:report).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, meets, type BenchRow, type RunRecord } from './summary.ts';

/** Required fields and their types (`figure` is optional text). */
const FIELDS: Readonly<Record<'row' | 'ratio' | 'peer' | 'goal', 'string' | 'number'>> = { row: 'string', ratio: 'number', peer: 'string', goal: 'string' };

/** The problems of one candidate row (empty: a well-formed row). */
function problemsOf(candidate: unknown): string[] {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) return ['must be an object'];
  const c = candidate as Record<string, unknown>;
  const problems = Object.entries(FIELDS).filter(([field, type]) => typeof c[field] !== type).map(([field, type]) => `${field} must be a ${type}`);
  if (c['figure'] !== undefined && typeof c['figure'] !== 'string') problems.push('figure must be a string');
  if (c['note'] !== undefined && typeof c['note'] !== 'string') problems.push('note must be a string');
  return problems;
}

export interface ReportRow extends BenchRow {
  readonly source: string;
  /** null: the goal states no comparison. */
  readonly met: boolean | null;
}

export interface Collected {
  readonly rows: ReportRow[];
  readonly withoutSummary: string[];
  readonly problems: string[];
  /** Each result file's run record, when it has one (older files do not). */
  readonly records: Record<string, RunRecord | undefined>;
}

export function collect(dir: string = RESULTS_DIR): Collected {
  const out: Collected = { rows: [], withoutSummary: [], problems: [], records: {} };
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.tmp.json')).sort() : [];
  for (const file of files) {
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    } catch (e) {
      out.problems.push(`${file}: not JSON (${(e as Error).message})`);
      continue;
    }
    const recorded = data['recorded'] as Partial<RunRecord> | undefined;
    out.records[file] = recorded !== undefined && typeof recorded.commit === 'string' && typeof recorded.input === 'string' ? (recorded as RunRecord) : undefined;
    const summary = data['summary'];
    if (summary === undefined) {
      out.withoutSummary.push(file);
      continue;
    }
    const list: unknown[] = Array.isArray(summary) ? summary : [summary];
    for (const [i, candidate] of list.entries()) {
      const problems = problemsOf(candidate);
      if (problems.length > 0) {
        out.problems.push(`${file} summary${Array.isArray(summary) ? `[${i}]` : ''}: ${problems.join(', ')}`);
        continue;
      }
      const r = candidate as BenchRow;
      out.rows.push({ row: r.row, ratio: r.ratio, peer: r.peer, goal: r.goal, ...(r.figure === undefined ? {} : { figure: r.figure }), ...(r.note === undefined ? {} : { note: r.note }), source: file, met: meets(r.ratio, r.goal) });
    }
  }
  return out;
}

const cell = (s: string): string => s.replaceAll('|', '\\|').replaceAll('\n', ' ');
const MET = (met: boolean | null): string => (met === null ? '—' : met ? 'yes' : '**no**');

/** What a result file's record says, for the table: its commit, or that it has none. */
const commitOf = (c: Collected, source: string): string => (c.records[source] ? `\`${c.records[source]!.commit}\`` : 'not recorded');

/** The Markdown table (and the list of result files without a summary). */
export function table(c: Collected): string {
  const { rows, withoutSummary } = c;
  const lines = [
    '| Row | Our figure | Peer | Ratio | Goal | Met? | Source | Commit |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${cell(r.row)} | ${cell(r.figure ?? '—')} | ${cell(r.peer)} | ${r.ratio}× | ${cell(r.goal)} | ${MET(r.met)} | \`bench/results/${r.source}\` | ${commitOf(c, r.source)} |`),
  ];
  if (withoutSummary.length > 0) lines.push('', `Result files without a summary yet: ${withoutSummary.map((f) => `\`bench/results/${f}\``).join(', ')}.`);
  return lines.join('\n');
}

/** What each result file measured (its input), as a list under the table. */
export function inputs(c: Collected): string {
  const files = [...new Set(c.rows.map((r) => r.source))];
  return files.map((f) => `- \`${f}\`: ${c.records[f] ? `${c.records[f]!.input} (load average ${c.records[f]!.loadAverage1m} on ${c.records[f]!.cpus} cores)` : 'no run record (commit and input not recorded: the benchmark predates them; run it again)'}`).join('\n');
}

/** The rows that miss their goal: the numbers, and the benchmark's note on what is left when it gives one. */
export function misses(c: Collected): string {
  const missed = c.rows.filter((r) => r.met === false);
  if (missed.length === 0) return 'Every row meets its goal.';
  return missed.map((r) => `- **${r.row}: ${r.ratio}× against ${r.goal}** (${r.figure ?? 'no figure'}; peer: ${r.peer}).${r.note ? ` ${r.note}` : ''}`).join('\n');
}
