/**
 * Progress lines: one per stage, with its time, on stderr (`gen › emit validators 348 ms`).
 *
 * - On a terminal with text output, or with `--progress` (any format): every line as its stage ends.
 * - Text output to a pipe or a log (CI, `| tee`): nothing for a run that ends within a second; once a run has taken a
 *   second, the lines so far and every later one, and while a stage keeps running, a `still working` line every few
 *   seconds naming it, so a long run is never silent.
 * - Machine formats (json, sarif, markdown) off a terminal or on one: quiet unless `--progress`, so stdout stays
 *   machine-readable and logs stay clean.
 */
import { performance } from 'node:perf_hooks';
import type { Invocation, Io } from './common.ts';

/** Time one stage: `step(label, fn)` runs `fn` (sync or async), prints the line when it ends, and returns its result. */
export type Step = <T>(label: string, fn: () => T) => T;

/** `1234` → `1.2 s`, `48.3` → `48 ms`. */
export const duration = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

/** How an invocation prints progress: every line (`live`), only once the run takes a second (`deferred`), or not at all. */
export type ProgressMode = 'live' | 'deferred' | 'off';

export const progressMode = (p: Pick<Invocation, 'flags' | 'format'>, io: Pick<Io, 'errIsTerminal'>): ProgressMode =>
  p.flags.has('--progress') ? 'live' : p.format !== 'text' ? 'off' : io.errIsTerminal === true ? 'live' : 'deferred';

/** Whether an invocation prints progress lines as its stages end. */
export const showsProgress = (p: Pick<Invocation, 'flags' | 'format'>, io: Pick<Io, 'errIsTerminal'>): boolean => progressMode(p, io) === 'live';

/** A deferred run starts printing after this long; a stage still running is named again after this long without output. */
export const DEFER_MS = 1000;
export const HEARTBEAT_MS = 5000;

/** The progress of one command run. */
export interface Progress {
  /** Time a stage and print its line. */
  readonly step: Step;
  /** The line of a stage timed elsewhere. */
  readonly stage: (label: string, ms: number) => void;
  /** Mark a stage as running (for the `still working` line) until the returned function is called. */
  readonly running: (label: string) => () => void;
  /** The run is over: stop the timers (lines not yet printed in a deferred run stay unprinted). */
  readonly done: () => void;
}

export interface ProgressClock {
  readonly now: () => number;
  readonly every: (ms: number, fn: () => void) => { cancel: () => void };
}

const realClock: ProgressClock = {
  now: () => performance.now(),
  every: (ms, fn) => {
    const t = setInterval(fn, ms);
    t.unref();
    return { cancel: () => clearInterval(t) };
  },
};

/** The progress printer of one command run. */
export function progressFor(p: Pick<Invocation, 'flags' | 'format' | 'command'>, io: Io, clock: ProgressClock = realClock): Progress {
  const mode = progressMode(p, io);
  const t0 = clock.now();
  const pending: string[] = [];
  const stages = new Set<string>();
  let live = mode === 'live';
  let lastOutput = t0;
  const print = (line: string) => {
    io.err(line);
    lastOutput = clock.now();
  };
  /** A deferred run goes live once it has taken a second: the lines so far are printed, later ones as they come. */
  const goLiveIfDue = () => {
    if (live || mode !== 'deferred' || clock.now() - t0 < DEFER_MS) return;
    live = true;
    for (const l of pending.splice(0)) print(l);
  };
  const line = (text: string) => {
    if (mode === 'off') return;
    pending.push(text);
    goLiveIfDue();
    if (live) for (const l of pending.splice(0)) print(l);
  };
  const tick =
    mode === 'deferred'
      ? clock.every(DEFER_MS / 4, () => {
          goLiveIfDue();
          const now = clock.now();
          if (live && stages.size > 0 && now - lastOutput >= HEARTBEAT_MS) print(`${p.command} › still working: ${[...stages].join(', ')} (${duration(now - t0)} so far)`);
        })
      : undefined;
  const stage = (label: string, ms: number) => line(`${p.command} › ${label} ${duration(ms)}`);
  const running = (label: string) => {
    stages.add(label);
    return () => stages.delete(label);
  };
  const step: Step = <T>(label: string, fn: () => T): T => {
    const start = clock.now();
    const stop = running(label);
    const end = () => {
      stop();
      stage(label, clock.now() - start);
    };
    let result: T;
    try {
      result = fn();
    } catch (e) {
      stop();
      throw e;
    }
    if (result instanceof Promise)
      return result.then(
        (v: unknown) => (end(), v),
        (e: unknown) => {
          stop();
          throw e;
        },
      ) as T;
    end();
    return result;
  };
  return { step, stage, running, done: () => tick?.cancel() };
}

/** Run a command body with its progress printer, stopped when the body ends (sync or async). */
export function withProgress<T>(p: Pick<Invocation, 'flags' | 'format' | 'command'>, io: Io, body: (progress: Progress) => T): T {
  const progress = progressFor(p, io);
  let result: T;
  try {
    result = body(progress);
  } catch (e) {
    progress.done();
    throw e;
  }
  if (result instanceof Promise) return result.finally(() => progress.done()) as T;
  progress.done();
  return result;
}
