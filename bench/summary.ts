/**
 * The summary fields every bench result file carries, so that bench/report.ts can put all rows in one table
 * (format documented in bench/README.md), and the interleaved-rounds helpers the benches share.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** One row of the performance table. */
export interface BenchRow {
  /** What is measured, as the table names it (e.g. "consolidation near-duplicate pass, 100k entries"). */
  readonly row: string;
  /** Our measured figure, with its unit (e.g. "1.42 s", "10 721 req/s"). */
  readonly figure: string;
  /** What we are measured against (e.g. "bare Fastify serving the same JSON"). */
  readonly peer: string;
  /** Our speed relative to the peer, measured in the same run (> 1: we are faster). */
  readonly ratio: number;
  /** The goal, in words (e.g. "≥ 0.8×", "≤ 0.5 s unchanged"). */
  readonly goal: string;
  /** Whether this run meets the goal. */
  readonly met: boolean;
}

/** A bench result file: its own details, plus the row (or rows) it contributes to the table. */
export type BenchResult = Partial<BenchRow> & { readonly rows?: readonly BenchRow[] } & Record<string, unknown>;

export const RESULTS_DIR = resolve(import.meta.dirname, 'results');

/** Write `bench/results/<name>.json`. */
export function writeResult(name: string, result: BenchResult): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.json`);
  writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`);
  return path;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Round to `digits` decimals (as a number). */
export const round = (x: number, digits = 2): number => Number(x.toFixed(digits));
