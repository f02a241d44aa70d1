/**
 * Issue 32: the OpenAPI-driven property fuzz (test/host/openapi-fuzz.ts) in the main set — a few hundred requests
 * from the generated document, every answer declared by it, no 5xx but a declared 503. The soak set runs thousands
 * (test/host/openapi-fuzz-soak.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { runOpenApiFuzz } from './openapi-fuzz.ts';

describe('OpenAPI-driven fuzz (main set)', () => {
  it('300 generated requests: every answer declared by the document, no undeclared 5xx', async () => {
    const report = await runOpenApiFuzz(300);
    expect(report.serverErrors).toEqual([]);
    expect(report.undeclared).toEqual([]);
    expect(report.sent).toBe(300);
    // Not vacuous: the run reaches successes and the refusals it is for.
    for (const s of ['200', '400', '401', '405']) expect(Object.keys(report.statuses), s).toContain(s);
  });
});
