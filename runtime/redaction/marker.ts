/**
 * The SR-1 redaction marker `[REDACTED:<secretId>]` and the rule that keeps it collision-proof: a value is refused
 * at registration when it could overlap a marker of its tenant, that is when
 *
 * 1. it contains the marker opening `[REDACTED:` (it could contain a whole marker);
 * 2. it ends with a non-empty prefix of `[REDACTED` (`[`, `[R`, … — it could run into a marker from the left);
 * 3. it starts with id characters followed by `]` (it could run out of a marker to the right);
 * 4. it lies inside `REDACTED:<id>` for its own id or any id live in its tenant (a marker would spell it).
 *
 * These are exactly the ways a value can overlap `[REDACTED:<id>]`, so with them no registered value overlaps a
 * marker and one redaction pass is final (see chokepoint.ts). Rules 1–3 depend on the value alone
 * ({@link markerOverlap}); rule 4 also on the tenant's ids, and is checked both ways by the tenant's secret set (a
 * new value against live ids, a new id against live values). Refusing every value that is a substring of some
 * marker for *any* valid id would refuse every alphanumeric key; rule 4 refuses only what a live marker can spell.
 */

/** What a secret id may be made of (also what the marker's id part is made of). */
export const SECRET_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
const ID_CHARS_ONLY = /^[A-Za-z0-9._:-]*$/;
const STARTS_WITH_MARKER_END = /^[A-Za-z0-9._:-]*\]/;

export const MARKER_OPENING = '[REDACTED:';
const OPENING_WITHOUT_COLON = MARKER_OPENING.slice(0, -1);

export const redactionMarker = (secretId: string): string => `${MARKER_OPENING}${secretId}]`;

/** The part of a marker between the brackets: what rule 4 searches for a value in. */
export const markerBody = (secretId: string): string => `${MARKER_OPENING.slice(1)}${secretId}`;

/** Whether a value consists of id characters only (only such a value can lie inside a marker body). */
export const idCharsOnly = (value: string): boolean => ID_CHARS_ONLY.test(value);

/** Why a value could overlap a marker whatever the ids (rules 1–3), or undefined when it cannot. */
export function markerOverlap(value: string): string | undefined {
  if (value.includes(MARKER_OPENING)) return `it contains the marker opening ${MARKER_OPENING}`;
  for (let k = 1; k <= OPENING_WITHOUT_COLON.length; k++) {
    if (value.endsWith(OPENING_WITHOUT_COLON.slice(0, k))) return 'it ends with the start of a marker';
  }
  if (STARTS_WITH_MARKER_END.test(value)) return 'it starts with the end of a marker (id characters, then "]")';
  return undefined;
}
