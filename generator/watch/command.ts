/**
 * `wopkit gen --watch [--all]`: run gen, lint and the example check once, then again on every change under schemas/,
 * printing what changed, what was written and any findings, until Ctrl-C (SIGINT, SIGTERM, SIGHUP, or the end of the
 * process that started it) stops it (exit 0). Text
 * output is a few lines per run; `--format json` prints one JSON object per line (`event`: watching, run, error,
 * stopped).
 */
import { UsageError, placeOf, type Invocation, type Io } from '../commands/common.ts';
import { duration } from '../commands/progress.ts';
import type { RunReport } from './session.ts';
import { Watcher } from './watcher.ts';

const list = (paths: readonly string[], max = 6): string => (paths.length <= max ? paths.join(', ') : `${paths.slice(0, max).join(', ')} and ${paths.length - max} more`);

/** The lines of one run's report, as text. */
export function reportLines(r: RunReport, first: boolean): string[] {
  const out: string[] = [];
  if (!first) {
    if (!r.changed.length) return [];
    out.push(`watch: changed ${list(r.changed)}`);
  }
  if (r.problems.length) {
    for (const f of r.problems) out.push(`${placeOf(f)}: ${f.message} [${f.rule}]`);
    out.push('watch: generated/ left as it was; fix the file and save it again');
    return out;
  }
  if (r.generatedMs !== undefined) {
    const what = r.written.length || r.removed.length ? `wrote ${list(r.written)}${r.removed.length ? `; removed ${list(r.removed)}` : ''}` : 'nothing to write';
    const quick = r.firstWrittenMs !== undefined && r.firstWrittenMs < r.generatedMs ? ` (types and site data in ${duration(r.firstWrittenMs)})` : '';
    out.push(`watch: generated/ up to date in ${duration(r.generatedMs)}${quick}: ${what}`);
  }
  for (const f of r.findings) out.push(`${placeOf(f)}: ${f.message} [${f.rule}]`);
  out.push(`watch: lint and ${r.examplesChecked} example${r.examplesChecked === 1 ? '' : 's'}: ${r.findings.length ? `${r.findings.length} finding${r.findings.length === 1 ? '' : 's'}` : 'clean'} (run ${duration(r.totalMs)})`);
  return out;
}

/** Watch until `signal` aborts; returns the exit code (0). */
export async function runWatch(p: Invocation, io: Io, signal: AbortSignal): Promise<number> {
  if (p.flags.has('--check')) throw new UsageError('--watch writes generated/; it cannot be combined with --check');
  if (p.flags.has('--skip')) throw new UsageError('--skip applies to gen and gen --check; --watch leaves out only the slow emitters (--all includes them)');
  const json = p.format === 'json';
  const emit = (event: string, body: object = {}) => io.out(JSON.stringify({ event, ...body }));
  let first = true;
  const watcher = new Watcher(p.root, {
    ...(p.flags.has('--all') ? { all: true } : {}),
    onReport: (r) => {
      if (json) emit('run', r);
      else for (const line of reportLines(r, first)) io.out(line);
      first = false;
    },
    onError: (e) => (json ? emit('error', { message: e instanceof Error ? e.message : String(e) }) : io.err(`watch: error: ${e instanceof Error ? e.message : String(e)}`)),
  });
  await watcher.start();
  if (json) emit('watching', { root: p.root, all: p.flags.has('--all') });
  else io.out(`watch: watching schemas/ for changes${p.flags.has('--all') ? '' : ' (other-language types left out; --all includes them)'}; Ctrl-C stops`);
  if (!signal.aborted) await new Promise<void>((resolveStop) => signal.addEventListener('abort', () => resolveStop(), { once: true }));
  await watcher.stop();
  if (json) emit('stopped');
  else io.out('watch: stopped');
  return 0;
}

/** How often the CLI entry checks that the process that started it is still there. */
export const PARENT_POLL_MS = 250;

/**
 * The CLI entry: stops on SIGINT (Ctrl-C), SIGTERM or SIGHUP (the terminal closed), and when the process that started it
 * ends. The last one matters under `npm exec` / `npx`: npm runs the bin through `sh -c`, and a Ctrl-C that reaches npm
 * alone (a process manager, an IDE's stop button) is forwarded to that shell, which exits without passing it on; the
 * watcher, reparented, would otherwise keep running with nothing left to stop it.
 */
export async function watchCommand(p: Invocation, io: Io): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const s of signals) process.once(s, onSignal);
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid !== parent) stop.abort();
  }, PARENT_POLL_MS);
  orphaned.unref();
  try {
    return await runWatch(p, io, stop.signal);
  } finally {
    clearInterval(orphaned);
    for (const s of signals) process.off(s, onSignal);
  }
}
