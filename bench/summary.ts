/**
 * The common summary every bench result file carries (`"summary"`: one row or a list; bench/README.md), read by
 * bench/report.ts and by the site's benchmarks page, and the helpers the benches share.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';

/** One row of the performance table. */
export interface BenchRow {
  /** What is measured, as the table names it (e.g. "consolidation near-duplicate pass, 100k entries"). */
  readonly row: string;
  /** Our speed relative to the peer, measured in the same run (above 1: faster). Against a limit: limit ÷ ours. */
  readonly ratio: number;
  /** What we are measured against (e.g. "bare Fastify serving the same JSON"). */
  readonly peer: string;
  /** The goal: a comparison first (`≥ 6×`, `≥ 0.8×`), then any words (`≥ 1× (≤ 3 s on a quiet machine)`). */
  readonly goal: string;
  /** Our measured figure, with its unit (e.g. "1.42 s", "10 721 req/s"). */
  readonly figure?: string;
  /** What the measurement says is left when the row misses its goal (the README lists it under the table). */
  readonly note?: string;
}

/** A bench result file: the summary, plus the file's own details. */
export type BenchResult = { readonly summary: BenchRow | readonly BenchRow[] } & Record<string, unknown>;

/**
 * What a result file says about the run that wrote it (`"recorded"`, added by writeResult): the commit measured (with
 * `-dirty` when the working tree had changes), the input (what was fed to the code: a corpus, generated instances with
 * their seed, a fixture size), and the machine. The README's figures show the commit and input of every row.
 */
export interface RunRecord {
  readonly commit: string;
  readonly input: string;
  readonly node: string;
  readonly cpus: number;
  readonly loadAverage1m: number;
}

/**
 * The commit the working tree is at, with `-dirty` when tracked files differ from it — other than the benchmarks' own
 * outputs (bench/results/, and the README the figures are written into), which a run of several benchmarks changes as
 * it goes. `unknown` outside a git checkout.
 */
export function currentCommit(cwd: string = resolve(import.meta.dirname, '..')): string {
  const git = (args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const sha = git(['rev-parse', '--short=12', 'HEAD']);
    const changed = git(['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)bench/results', ':(exclude)README.md']);
    return changed === '' ? sha : `${sha}-dirty`;
  } catch {
    return 'unknown';
  }
}

/** The record of this run. */
export const runRecord = (input: string): RunRecord => ({ commit: currentCommit(), input, node: process.version, cpus: cpus().length, loadAverage1m: Number(loadavg()[0]!.toFixed(2)) });

/** An input a benchmark does not describe (the report shows it, so the gap is visible). */
export const UNDESCRIBED_INPUT = 'not described by the benchmark';

const GOAL = /^\s*(≥|>=|>|≤|<=|<)?\s*([0-9]+(?:\.[0-9]+)?)/;

/** Whether `ratio` meets `goal` (`≥ n…` / `> n…` / a bare number: at least; `≤ n…` / `< n…`: at most); null when the goal is no comparison. */
export function meets(ratio: number, goal: string | number): boolean | null {
  if (typeof goal === 'number') return ratio >= goal;
  const m = GOAL.exec(goal);
  if (m === null) return null;
  const value = Number(m[2]);
  return m[1] !== undefined && '≤<'.includes(m[1][0]!) ? ratio <= value : ratio >= value;
}

export const RESULTS_DIR = resolve(import.meta.dirname, 'results');

/** Where a run writes its results instead of bench/results (the benchmarks' smoke test: test/bench/smoke.test.ts). */
export const RESULTS_DIR_ENV = 'BENCH_RESULTS_DIR';

/**
 * Write `bench/results/<name>.json` (or into `$BENCH_RESULTS_DIR`), with the record of this run (the commit, `input`,
 * the machine) first.
 */
export function writeResult(name: string, result: BenchResult, input: string = UNDESCRIBED_INPUT): string {
  const dir = process.env[RESULTS_DIR_ENV] || RESULTS_DIR;
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.json`);
  writeFileSync(path, `${JSON.stringify({ recorded: runRecord(input), ...result }, null, 2)}\n`);
  return path;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Round to `digits` decimals (as a number). */
export const round = (x: number, digits = 2): number => Number(x.toFixed(digits));
