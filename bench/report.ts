/**
 * One table of every benchmark row: reads each bench/results/*.json, takes the summary fields it carries (`row`,
 * `figure`, `peer`, `ratio`, `goal`, `met` at the top level, or a `rows` array of them; bench/README.md describes the
 * format), prints the table, writes it to bench/results/README.md and puts it in the top-level README between the
 * `bench-report` markers. Result files without summary fields are listed under the table. A malformed row fails
 * the report (exit 1).
 * Run: npm run bench:report (the last step of npm run bench)
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RESULTS_DIR, type BenchRow } from './summary.ts';

const README = resolve(import.meta.dirname, '../README.md');
const START = '<!-- bench-report:start -->';
const END = '<!-- bench-report:end -->';

const FIELDS: Readonly<Record<keyof BenchRow, 'string' | 'number' | 'boolean'>> = {
  row: 'string',
  figure: 'string',
  peer: 'string',
  ratio: 'number',
  goal: 'string',
  met: 'boolean',
};

/** The problems of one candidate row (empty: a well-formed row). */
function problemsOf(candidate: Record<string, unknown>): string[] {
  return Object.entries(FIELDS)
    .filter(([field, type]) => typeof candidate[field] !== type)
    .map(([field, type]) => `${field} must be a ${type}`);
}

interface Collected {
  readonly rows: (BenchRow & { readonly source: string })[];
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
    const candidates = Array.isArray(data['rows']) ? (data['rows'] as Record<string, unknown>[]) : 'row' in data ? [data] : [];
    if (candidates.length === 0) out.withoutSummary.push(file);
    for (const [i, c] of candidates.entries()) {
      const problems = problemsOf(c);
      if (problems.length > 0) out.problems.push(`${file}${Array.isArray(data['rows']) ? ` rows[${i}]` : ''}: ${problems.join(', ')}`);
      else out.rows.push({ row: c['row'], figure: c['figure'], peer: c['peer'], ratio: c['ratio'], goal: c['goal'], met: c['met'], source: file } as BenchRow & { source: string });
    }
  }
  return out;
}

const cell = (s: string): string => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The Markdown table (and the list of result files without summary fields). */
export function table({ rows, withoutSummary }: Collected): string {
  const lines = [
    '| Row | Our figure | Peer | Ratio | Goal | Met? | Source |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${cell(r.row)} | ${cell(r.figure)} | ${cell(r.peer)} | ${r.ratio}× | ${cell(r.goal)} | ${r.met ? 'yes' : '**no**'} | \`bench/results/${r.source}\` |`),
  ];
  if (withoutSummary.length > 0) lines.push('', `Result files without summary fields yet: ${withoutSummary.map((f) => `\`bench/results/${f}\``).join(', ')}.`);
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
