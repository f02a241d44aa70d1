/** What every subcommand shares: its invocation, its output channels, usage errors, and the findings printer. */
import type { Finding } from '../lint.ts';

/** Output formats: every command has text and json; lint also writes SARIF, compat also Markdown. */
export type Format = 'text' | 'json' | 'sarif' | 'markdown';

/** Where a command writes (and, for `validate -`, reads). */
export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** The whole of standard input (default: read file descriptor 0). */
  stdin?: () => string;
  /** Whether `err` goes to a terminal (progress lines are printed by default only then). */
  errIsTerminal?: boolean;
}

/** A parsed command line for one subcommand. */
export interface Invocation {
  readonly command: string;
  /** Positional arguments after the command. */
  readonly args: readonly string[];
  readonly format: Format;
  /** Absolute repository root. */
  readonly root: string;
  /** Command-specific flags given (e.g. `--check`), and `--progress`. */
  readonly flags: ReadonlySet<string>;
  /** Values of the command-specific options that take one (e.g. `--base` → `v0.2.0`). */
  readonly values?: ReadonlyMap<string, string>;
}

/** Thrown for bad invocations (exit 2). */
export class UsageError extends Error {}

export const where = (file: string, pointer: string): string => (pointer ? `${file}#${pointer}` : file);
/** A finding's place for a terminal: `file:line:column: #pointer` when the line is known (editors open it), else `file#pointer`. */
export const placeOf = (f: Pick<Finding, 'file' | 'pointer' | 'line' | 'column'>): string =>
  f.line === undefined ? where(f.file, f.pointer) : `${f.file}:${f.line}:${f.column ?? 1}${f.pointer ? `: #${f.pointer}` : ''}`;

/** Print findings (text: one line each and a summary; json: one object); exit 1 when there are any. */
export function printFindings(io: Io, format: Format, command: string, findings: readonly Finding[], extra: Record<string, unknown> = {}): number {
  if (format === 'json') io.out(JSON.stringify({ command, ok: findings.length === 0, ...extra, findings }, null, 2));
  else {
    for (const f of findings) io.out(`${placeOf(f)}: ${f.message} [${f.rule}]`);
    io.out(`${command}: ${findings.length === 0 ? 'clean' : `${findings.length} finding${findings.length === 1 ? '' : 's'}`}${Object.keys(extra).length ? ` (${Object.entries(extra).map(([k, v]) => `${k} ${String(v)}`).join(', ')})` : ''}`);
  }
  return findings.length ? 1 : 0;
}
