/**
 * What the benchmarks share about where they run: the durable back-ends to measure (PostgreSQL only when a
 * server can be reached — otherwise its rows are left out and the reason is printed and recorded, never faked), and
 * the machine's load average, recorded with every figure.
 */
import { loadavg } from 'node:os';
import { toolchain } from '../../test/support/toolchains.ts';

export type DurableKind = 'sqlite' | 'postgres';

export const KIND_LABEL: Readonly<Record<DurableKind, string>> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/** The durable back-ends to measure, and why any is left out. */
export function durableKinds(): { readonly kinds: DurableKind[]; readonly skipped: Partial<Record<DurableKind, string>> } {
  const pg = toolchain('postgres');
  return pg.skip ? { kinds: ['sqlite'], skipped: { postgres: pg.reason } } : { kinds: ['sqlite', 'postgres'], skipped: {} };
}

/** The 1-, 5- and 15-minute load averages, two decimals. */
export const loadAverage = (): [number, number, number] => loadavg().map((x) => Math.round(x * 100) / 100) as [number, number, number];
