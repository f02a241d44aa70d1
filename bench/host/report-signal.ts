/**
 * What a benchmark asks a host process about itself, without a route (a benchmark-only route would be a route the
 * host does not have): on SIGUSR2 the process writes one line `bench-host report {…}` to stdout with its memory
 * after a full garbage collection (`global.gc`, which needs `--expose-gc`; without it the line says `gc: false`) and,
 * when EVENT_LOOP_ENV is set, its event-loop delay since the previous report (perf_hooks.monitorEventLoopDelay, in
 * ms). The delay window restarts 50 ms after a report, so the collection the report itself runs is not counted in
 * the next window.
 *
 * Imported first by bench-host.ts, so the handler is in place before the host starts.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const REPORT_PREFIX = 'bench-host report ';
/** How long after a report its event-loop delay window starts (wait this long before the load to be measured). */
export const WINDOW_RESTART_MS = 50;

/**
 * The variable that turns the event-loop delay monitor on (`1`). Off by default: sampling the loop every millisecond
 * costs a process about 15 ms of CPU per second, which a benchmark comparing one process with three would count.
 */
export const EVENT_LOOP_ENV = 'BENCH_EVENT_LOOP_DELAY';

export interface HostReport {
  /** Absent unless EVENT_LOOP_ENV is set. */
  readonly eventLoopDelayMs?: { readonly p50: number; readonly p99: number; readonly max: number; readonly samples: number };
  readonly gc: boolean;
  readonly memory: NodeJS.MemoryUsage;
}

const delay = process.env[EVENT_LOOP_ENV] === '1' ? monitorEventLoopDelay({ resolution: 1 }) : undefined;
delay?.enable();
const ms = (ns: number): number => Math.round(ns / 1e4) / 100;

process.on('SIGUSR2', () => {
  const eventLoopDelayMs = delay === undefined ? undefined : { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max), samples: delay.count };
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const report: HostReport = { ...(eventLoopDelayMs !== undefined ? { eventLoopDelayMs } : {}), gc: gc !== undefined, memory: process.memoryUsage() };
  process.stdout.write(`${REPORT_PREFIX}${JSON.stringify(report)}\n`);
  if (delay !== undefined) setTimeout(() => delay.reset(), WINDOW_RESTART_MS);
});
