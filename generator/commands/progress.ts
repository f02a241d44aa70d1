/**
 * Progress lines: one per stage, with its time, on stderr (`gen › emit validators 348 ms`). Printed when stderr is a
 * terminal and the format is text, or always with `--progress`; never in json, sarif or markdown output unless forced,
 * so machine-read stdout stays clean and logs stay quiet.
 */
import { performance } from 'node:perf_hooks';
import type { Invocation, Io } from './common.ts';

/** Time one stage: `step(label, fn)` runs `fn` (sync or async), prints the line when it ends, and returns its result. */
export type Step = <T>(label: string, fn: () => T) => T;

/** `1234` → `1.2 s`, `48.3` → `48 ms`. */
export const duration = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

/** Whether an invocation prints progress lines. */
export const showsProgress = (p: Pick<Invocation, 'flags' | 'format'>, io: Pick<Io, 'errIsTerminal'>): boolean =>
  p.flags.has('--progress') || (p.format === 'text' && io.errIsTerminal === true);

/** The progress line of a stage timed elsewhere (a no-op when progress is off). */
export function stageReporter(p: Pick<Invocation, 'flags' | 'format' | 'command'>, io: Io): (label: string, ms: number) => void {
  if (!showsProgress(p, io)) return () => {};
  return (label, ms) => io.err(`${p.command} › ${label} ${duration(ms)}`);
}

/** The step timer of one command run (a no-op timer when progress is off). */
export function stepsFor(p: Pick<Invocation, 'flags' | 'format' | 'command'>, io: Io): Step {
  if (!showsProgress(p, io)) return (_label, fn) => fn();
  const line = stageReporter(p, io);
  const report = (label: string, t0: number) => line(label, performance.now() - t0);
  return <T>(label: string, fn: () => T): T => {
    const t0 = performance.now();
    const result = fn();
    if (result instanceof Promise) return result.then((v: unknown) => (report(label, t0), v)) as T;
    report(label, t0);
    return result;
  };
}
