/**
 * Issue 38: our terminal-outcome examples are judged the same by orbidocs' published schema and by ours. orbidocs'
 * file lives in a scratch folder outside the repository (scripts/orbidocs-schemas.ts, docs/interop.md); without it
 * the comparison is skipped with the reason. Only a machine that has filled the folder can run it, so
 * WOPKIT_REQUIRE_TOOLCHAINS does not turn the skip into a failure (CI has no way to fetch upstream files).
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ORBIDOCS_DIR, judge, ORBIDOCS_DIR_ENV, readManifest, ScratchFolderError } from '../../../scripts/orbidocs-schemas.ts';
import { noteSkip } from '../../support/skip-log.ts';

const dir = process.env[ORBIDOCS_DIR_ENV] ?? DEFAULT_ORBIDOCS_DIR;
const present = (() => {
  try {
    readManifest(dir);
    return true;
  } catch (err) {
    if (!(err instanceof ScratchFolderError)) throw err;
    noteSkip(`orbidocs' published schemas: ${err.message}`);
    return false;
  }
})();

describe('orbidocs published schemas', () => {
  it.skipIf(!present)(`the terminal outcome's examples are judged the same by orbidocs' schema and by ours (${dir})`, () => {
    const report = judge(dir);
    expect(report.verdicts.filter((v) => v.schema === 'inquirium.terminal-outcome.v1').length).toBeGreaterThanOrEqual(4);
    expect(report.disagreements).toEqual([]);
  });

  it('refuses a scratch folder whose manifest lacks a file, a commit or a published shape', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'orbidocs-'));
    try {
      expect(() => readManifest(scratch)).toThrow(ScratchFolderError);
      const path = 'doc/schemas/inquirium.terminal-outcome.v1.schema.json';
      writeFileSync(join(scratch, 'manifest.json'), JSON.stringify({ repo: 'diapod/orbidocs', files: [{ path, commit: 'abc', ours: 'inquirium.terminal-outcome.v1' }] }));
      expect(() => readManifest(scratch)).toThrow(/40-hex commit/);
      writeFileSync(join(scratch, 'manifest.json'), JSON.stringify({ repo: 'diapod/orbidocs', files: [{ path, commit: 'a'.repeat(40), ours: 'inquirium.terminal-outcome.v1' }] }));
      expect(() => readManifest(scratch)).toThrow(/not in/);
      mkdirSync(join(scratch, 'doc/schemas'), { recursive: true });
      // A schema that disagrees with ours (it accepts any status) is caught by the comparison.
      writeFileSync(join(scratch, path), JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false, required: ['schema', 'operation', 'status', 'reason/code'], properties: { schema: { const: 'inquirium.terminal-outcome.v1' }, operation: { type: 'string', pattern: '^[a-z][a-z0-9.-]*$' }, status: { type: 'string' }, 'reason/code': { const: 'runtime-execution-failed' } } }));
      expect(judge(scratch).disagreements.map((d) => d.example)).toEqual(['invalid/completed-status.json']);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
