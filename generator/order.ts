/**
 * Locale-independent ordering for everything the generator sorts. `String.prototype.localeCompare` follows the
 * process's ICU locale (LANG / LC_ALL): under `lt_LT` "Y" sorts before "J", under `et_EE` "Z" before "T", so output sorted
 * with it would differ between machines and `gen --check` would report stale files. Compare UTF-16 code units instead.
 */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
