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

/** A load average window as the result rows write it: `load 3.2–4.1` (1-minute averages before and after). */
export const loadNote = (l: { readonly before: readonly number[]; readonly after: readonly number[] }): string => `load ${l.before[0]}–${l.after[0]}`;

/** Measure each durable back-end in turn (printing why any is left out); the results and the reasons. */
export async function eachDurableKind<T>(measure: (kind: DurableKind) => Promise<T>): Promise<{ readonly results: T[]; readonly skipped: Partial<Record<DurableKind, string>> }> {
  const { kinds, skipped } = durableKinds();
  for (const [kind, reason] of Object.entries(skipped)) console.log(`${KIND_LABEL[kind as DurableKind]}: ${reason}`);
  const results: T[] = [];
  for (const kind of kinds) results.push(await measure(kind));
  return { results, skipped };
}
