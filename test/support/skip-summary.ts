/**
 * A vitest reporter that prints one summary of every skipped test and why, after everything else the run prints (a
 * reason printed per file while tests run scrolls away before vitest's own table). Reasons come from the run's skip
 * log (test/support/skip-log.ts: a file calls noteSkip(reason) when it skips for one); a file whose tests were skipped
 * without a noted reason is listed as such, so no skip goes unexplained by accident.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { SKIP_LOG_ENV, type SkipNote } from './skip-log.ts';

export const NO_REASON = 'no reason noted (it.skip, or a skipIf without noteSkip)';

/** Skipped tests by reason: the files (with how many of their tests were skipped), in a stable order. */
export function skipsByReason(skipped: ReadonlyMap<string, number>, notes: readonly SkipNote[]): Map<string, [string, number][]> {
  const reasonsOf = new Map<string, string[]>();
  for (const n of notes) reasonsOf.set(n.file, [...new Set([...(reasonsOf.get(n.file) ?? []), n.reason])]);
  const out = new Map<string, [string, number][]>();
  for (const [file, count] of [...skipped].sort(([a], [b]) => (a < b ? -1 : 1)))
    for (const reason of reasonsOf.get(file) ?? [NO_REASON]) out.set(reason, [...(out.get(reason) ?? []), [file, count]]);
  return new Map([...out].sort(([a], [b]) => (a === NO_REASON ? 1 : b === NO_REASON ? -1 : a < b ? -1 : 1)));
}

/** The summary's lines. */
export function summaryLines(skipped: ReadonlyMap<string, number>, notes: readonly SkipNote[]): string[] {
  const total = [...skipped.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return ['Skipped: none'];
  const lines = [`Skipped: ${total} test${total === 1 ? '' : 's'} in ${skipped.size} file${skipped.size === 1 ? '' : 's'}, by reason:`];
  for (const [reason, files] of skipsByReason(skipped, notes)) {
    lines.push(`  ${reason}`);
    lines.push(`    ${files.map(([f, n]) => `${f} (${n})`).join(', ')}`);
  }
  return lines;
}

const readNotes = (log: string): SkipNote[] =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as SkipNote)
    : [];

export default class SkipSummary implements Reporter {
  private readonly log = process.env[SKIP_LOG_ENV];

  onTestRunStart(): void {
    if (this.log) writeFileSync(this.log, '');
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const skipped = new Map<string, number>();
    for (const m of modules) {
      const n = [...m.children.allTests('skipped')].length;
      if (n > 0) skipped.set(m.relativeModuleId, n);
    }
    const notes = this.log ? readNotes(this.log) : [];
    process.stdout.write(`\n${summaryLines(skipped, notes).join('\n')}\n`);
    if (this.log) rmSync(this.log, { force: true });
  }
}
