/**
 * ISO-8601 durations as archiveRetention uses them (PnYnMnWnDTnHnMnS, years as 365 days, months as 30).
 * Returns milliseconds, or null for anything that is not a duration.
 */
const DURATION = /^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
const UNIT_MS = [365 * 86_400_000, 30 * 86_400_000, 7 * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000];
export function durationMs(iso: string): number | null {
  const m = DURATION.exec(iso);
  if (m === null) return null;
  return UNIT_MS.reduce((sum, unit, i) => sum + (m[i + 1] !== undefined ? Number(m[i + 1]) * unit : 0), 0);
}
