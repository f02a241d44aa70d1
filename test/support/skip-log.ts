/**
 * Why tests were skipped, collected for one summary at the end of the run (test/support/skip-summary.ts prints it).
 * A test file that skips for a reason (a missing toolchain, no dist/) calls `noteSkip(reason)` once; the reason is
 * appended, with the test file that noted it, to the run's log (`WOPKIT_SKIP_LOG`, set by vitest.config.ts for every
 * worker). Outside such a run (no log), the reason goes to stderr as before.
 */
import { appendFileSync } from 'node:fs';

export const SKIP_LOG_ENV = 'WOPKIT_SKIP_LOG';

/** One line of the log. */
export interface SkipNote {
  readonly file: string;
  readonly reason: string;
}

/** The test file on the call stack (the module that is being collected), relative to the working directory. */
export function callingTestFile(stack: string = new Error().stack ?? ''): string {
  const match = /(?:file:\/\/)?(\/[^\s():]+\.test\.[cm]?[jt]sx?)/.exec(stack);
  if (match === null) return '(unknown test file)';
  const cwd = `${process.cwd()}/`;
  return match[1]!.startsWith(cwd) ? match[1]!.slice(cwd.length) : match[1]!;
}

export function noteSkip(reason: string, env: NodeJS.ProcessEnv = process.env): void {
  const log = env[SKIP_LOG_ENV];
  if (log === undefined || log === '') {
    process.stderr.write(`skipped: ${reason}\n`);
    return;
  }
  appendFileSync(log, `${JSON.stringify({ file: callingTestFile(), reason } satisfies SkipNote)}\n`);
}
