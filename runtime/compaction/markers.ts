/**
 * Non-canonical redaction markers in derived content. A source can carry a marker another system wrote in its own
 * spelling (`<REDACTED:db-prod-creds>`, `{REDACTED:…}`, `(redacted:…)`); RFC 0012 §D requires the content a
 * compaction derives to carry the canonical marker only, so such a spelling is rewritten to `[REDACTED:<id>]`,
 * keeping the id (the audit signal) when it is a valid secret id and using a fixed id when it is not. The content is
 * never stripped: the marker stays where the leak was.
 */

/** The canonical SR-1 marker and the secret-id grammar, as runtime/redaction/marker.ts defines them (compaction may not import redaction; test/runtime/compaction/markers.test.ts checks they agree). */
const SECRET_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
const redactionMarker = (id: string): string => `[REDACTED:${id}]`;

/** A marker spelled with angle brackets, braces or parentheses, any letter case; its id up to the closing bracket. */
const NON_CANONICAL = /<\s*redacted\s*:([^>\n]{0,256})>|\{\s*redacted\s*:([^}\n]{0,256})\}|\(\s*redacted\s*:([^)\n]{0,256})\)/gi;

/** Id a rewritten marker carries when the original id is not a valid secret id. */
export const NON_CANONICAL_MARKER_ID = 'non-canonical-marker';

export function canonicaliseMarkers(content: string): string {
  return content.replace(NON_CANONICAL, (_m, a?: string, b?: string, c?: string) => {
    const id = (a ?? b ?? c ?? '').trim();
    return redactionMarker(SECRET_ID_PATTERN.test(id) ? id : NON_CANONICAL_MARKER_ID);
  });
}
