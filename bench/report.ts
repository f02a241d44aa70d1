/**
 * One table of every benchmark row: reads each bench/results/*.json, takes its common summary (`"summary"`: one row
 * `{ row, ratio, peer, goal, figure? }` or a list; bench/README.md), prints the table, writes it to
 * bench/results/README.md and puts it in the top-level README between the `bench-report` markers. Whether a goal is
 * met is read from the goal's leading comparison, as the site's benchmarks page reads it. Result files without a
 * summary are listed under the table; a malformed summary fails the report (exit 1).
 * Run: npm run bench:report (the last step of npm run bench)
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RESULTS_DIR, meets, type BenchRow } from './summary.ts';

const README = resolve(import.meta.dirname, '../README.md');
const START = '<!-- bench-report:start -->';
const END = '<!-- bench-report:end -->';

/** Required fields and their types (`figure` is optional text). */
const FIELDS: Readonly<Record<'row' | 'ratio' | 'peer' | 'goal', 'string' | 'number'>> = { row: 'string', ratio: 'number', peer: 'string', goal: 'string' };

/** The problems of one candidate row (empty: a well-formed row). */
function problemsOf(candidate: unknown): string[] {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) return ['must be an object'];
  const c = candidate as Record<string, unknown>;
  const problems = Object.entries(FIELDS).filter(([field, type]) => typeof c[field] !== type).map(([field, type]) => `${field} must be a ${type}`);
  if (c['figure'] !== undefined && typeof c['figure'] !== 'string') problems.push('figure must be a string');
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
}

export function collect(dir: string = RESULTS_DIR): Collected {
  const out: Collected = { rows: [], withoutSummary: [], problems: [] };
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.tmp.json')).sort() : [];
  for (const file of files) {
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
    } catch (e) {
      out.problems.push(`${file}: not JSON (${(e as Error).message})`);
      continue;
    }
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
      out.rows.push({ row: r.row, ratio: r.ratio, peer: r.peer, goal: r.goal, ...(r.figure === undefined ? {} : { figure: r.figure }), source: file, met: meets(r.ratio, r.goal) });
    }
  }
  return out;
}

const cell = (s: string): string => s.replaceAll('|', '\\|').replaceAll('\n', ' ');
const MET = (met: boolean | null): string => (met === null ? '—' : met ? 'yes' : '**no**');

/** The Markdown table (and the list of result files without a summary). */
export function table({ rows, withoutSummary }: Collected): string {
  const lines = [
    '| Row | Our figure | Peer | Ratio | Goal | Met? | Source |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${cell(r.row)} | ${cell(r.figure ?? '—')} | ${cell(r.peer)} | ${r.ratio}× | ${cell(r.goal)} | ${MET(r.met)} | \`bench/results/${r.source}\` |`),
  ];
  if (withoutSummary.length > 0) lines.push('', `Result files without a summary yet: ${withoutSummary.map((f) => `\`bench/results/${f}\``).join(', ')}.`);
  return lines.join('\n');
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isMain) {
  const collected = collect();
  const markdown = table(collected);
  console.log(markdown);
  writeFileSync(join(RESULTS_DIR, 'README.md'), `# Benchmark results\n\nWritten by \`npm run bench:report\` from the JSON files in this folder (format: bench/README.md).\n\n${markdown}\n`);
  const readme = readFileSync(README, 'utf8');
  const [at, end] = [readme.indexOf(START), readme.indexOf(END)];
  if (at >= 0 && end > at) writeFileSync(README, `${readme.slice(0, at + START.length)}\n${markdown}\n${readme.slice(end)}`);
  else console.error(`README.md has no ${START} … ${END} markers; only bench/results/README.md was written`);
  for (const p of collected.problems) console.error(`bench report: ${p}`);
  process.exitCode = collected.problems.length > 0 ? 1 : 0;
}
