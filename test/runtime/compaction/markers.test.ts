/** Non-canonical redaction markers in derived content become `[REDACTED:<id>]` (RFC 0012 §D), ids kept when valid. */
import { describe, expect, it } from 'vitest';
import { canonicaliseMarkers, NON_CANONICAL_MARKER_ID } from '../../../runtime/compaction/markers.ts';

describe('canonicaliseMarkers', () => {
  it.each([
    ['Resolved <REDACTED:db-prod-creds> outage.', 'Resolved [REDACTED:db-prod-creds] outage.'],
    ['{redacted: ops-token} and (Redacted:x.y:z)', '[REDACTED:ops-token] and [REDACTED:x.y:z]'],
    ['<REDACTED:not a valid id!>', `[REDACTED:${NON_CANONICAL_MARKER_ID}]`],
    ['already [REDACTED:k] canonical, <b>bold</b>', 'already [REDACTED:k] canonical, <b>bold</b>'],
  ])('%s', (input, output) => {
    expect(canonicaliseMarkers(input)).toBe(output);
  });
});
