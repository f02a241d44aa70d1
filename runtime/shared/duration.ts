/**
 * ISO-8601 durations as archiveRetention uses them (PnYnMnWnDTnHnMnS, years as 365 days, months as 30), and the
 * bounds every duration and instant taken from a request must pass before anything is stored.
 */
const DURATION = /^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
const UNIT_MS = [365 * 86_400_000, 30 * 86_400_000, 7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000];

/** The largest instant a Date holds, in epoch ms (ECMA-262: ±8.64e15); nothing past it can be formatted. */
export const MAX_DATE_MS = 8.64e15;

/**
 * Milliseconds of an ISO-8601 duration, or null for anything that is not one — including a duration too long for
 * any Date arithmetic (past MAX_DATE_MS, or digits that overflow to Infinity).
 */
export function durationMs(iso: string): number | null {
  const m = DURATION.exec(iso);
  if (m === null) return null;
  const ms = UNIT_MS.reduce((sum, unit, i) => sum + (m[i + 1] !== undefined ? Number(m[i + 1]) * unit : 0), 0);
  return Number.isFinite(ms) && ms <= MAX_DATE_MS ? ms : null;
}

/** The shortest and longest duration a field accepts, in ms. */
export interface DurationBounds {
  readonly minMs: number;
  readonly maxMs: number;
}

/** Why a duration was refused. */
export type DurationRefusal = 'not-a-duration' | 'too-short' | 'too-long';

/** The duration in ms when it is one and within `bounds`, else why not. */
export function boundedDurationMs(iso: string, bounds: DurationBounds): { readonly ms: number } | { readonly refused: DurationRefusal } {
  const ms = durationMs(iso);
  if (ms === null) return { refused: DURATION.test(iso) ? 'too-long' : 'not-a-duration' };
  if (ms < bounds.minMs) return { refused: 'too-short' };
  if (ms > bounds.maxMs) return { refused: 'too-long' };
  return { ms };
}

/**
 * The last instant an RFC 3339 date-time can write (9999-12-31T23:59:59.999Z): past it `toISOString` writes an
 * expanded year (`+010000-…`), which no `date-time` field accepts.
 */
export const LATEST_DATE_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Whether `epochMs` is an instant a Date can format (finite and within ±MAX_DATE_MS). */
export const isRepresentableInstant = (epochMs: number): boolean => Number.isFinite(epochMs) && Math.abs(epochMs) <= MAX_DATE_MS;
