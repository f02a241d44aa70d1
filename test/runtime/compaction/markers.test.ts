/** Non-canonical redaction markers in derived content become `[REDACTED:<id>]` (RFC 0012 §D), ids kept when valid. */
import { describe, expect, it } from 'vitest';
import { canonicaliseMarkers, NON_CANONICAL_MARKER_ID } from '../../../runtime/compaction/markers.ts';
import { redactionMarker, SECRET_ID_PATTERN } from '../../../runtime/redaction/marker.ts';

describe('canonicaliseMarkers', () => {
  it.each([
    ['Resolved <REDACTED:db-prod-creds> outage.', 'Resolved [REDACTED:db-prod-creds] outage.'],
    ['{redacted: ops-token} and (Redacted:x.y:z)', '[REDACTED:ops-token] and [REDACTED:x.y:z]'],
    ['<REDACTED:not a valid id!>', `[REDACTED:${NON_CANONICAL_MARKER_ID}]`],
    ['already [REDACTED:k] canonical, <b>bold</b>', 'already [REDACTED:k] canonical, <b>bold</b>'],
  ])('%s', (input, output) => {
    expect(canonicaliseMarkers(input)).toBe(output);
  });

  it('writes the marker and accepts the ids exactly as the redaction module does', () => {
    for (const id of ['db-prod-creds', 'a.b:c', 'x'.repeat(128)]) {
      expect(SECRET_ID_PATTERN.test(id)).toBe(true);
      expect(canonicaliseMarkers(`<REDACTED:${id}>`)).toBe(redactionMarker(id));
    }
    for (const id of ['x'.repeat(129), 'a b', 'a/b']) {
      expect(SECRET_ID_PATTERN.test(id)).toBe(false);
      expect(canonicaliseMarkers(`<REDACTED:${id}>`)).toBe(redactionMarker(NON_CANONICAL_MARKER_ID));
    }
  });
});
