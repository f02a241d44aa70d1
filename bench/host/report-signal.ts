/**
 * What a benchmark asks a host process about itself, without a route (a benchmark-only route would be a route the
 * host does not have): on SIGUSR2 the process writes one line `bench-host report {…}` to stdout with its event-loop
 * delay since the previous report (perf_hooks.monitorEventLoopDelay, in ms) and its memory after a full garbage
 * collection (`global.gc`, which needs `--expose-gc`; without it the line says `gc: false`). The delay window
 * restarts 50 ms after a report, so the collection the report itself runs is not counted in the next window.
 *
 * Imported first by bench-host.ts, so the handler is in place before the host starts.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const REPORT_PREFIX = 'bench-host report ';
/** How long after a report its event-loop delay window starts (wait this long before the load to be measured). */
export const WINDOW_RESTART_MS = 50;

export interface HostReport {
  readonly eventLoopDelayMs: { readonly p50: number; readonly p99: number; readonly max: number; readonly samples: number };
  readonly gc: boolean;
  readonly memory: NodeJS.MemoryUsage;
}

const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const ms = (ns: number): number => Math.round(ns / 1e4) / 100;

process.on('SIGUSR2', () => {
  const eventLoopDelayMs = { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max), samples: delay.count };
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const report: HostReport = { eventLoopDelayMs, gc: gc !== undefined, memory: process.memoryUsage() };
  process.stdout.write(`${REPORT_PREFIX}${JSON.stringify(report)}\n`);
  setTimeout(() => delay.reset(), WINDOW_RESTART_MS);
});
