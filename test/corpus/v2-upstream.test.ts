/**
 * Upstream OpenWOP's own v2 schemas as the oracle of our v2 corpus (scripts/upstream-v2-schemas.ts). The upstream
 * files live in a scratch folder outside the repository ($WOPKIT_UPSTREAM_DIR, else /tmp/upstream; docs/interop.md
 * says how to fill it); without its manifest the oracle run is skipped and the reason noted for the run's skip summary.
 * CI cannot download the folder, so the skip never turns into a failure there. The folder checks themselves and the
 * script's tables need no upstream and always run.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIVERGENCES, OracleFolderError, TARGETS, readManifest, runOracle, upstreamDir, verdictCounts } from '../../scripts/upstream-v2-schemas.ts';
import { noteSkip } from '../support/skip-log.ts';
import { V2_DIR, loadV2Examples } from './v2-corpus.ts';

const dir = upstreamDir();
const present = existsSync(join(dir, 'manifest.json'));
if (!present) noteSkip(`no upstream OpenWOP v2 schema folder at ${dir} (set WOPKIT_UPSTREAM_DIR; docs/interop.md, "OpenWOP v2 in the corpus")`);

describe('the oracle script, without upstream', () => {
  const examples = loadV2Examples();

  it('maps only targets that have examples, and lists divergences only for existing examples', () => {
    const targets = new Set(examples.map((e) => e.target));
    for (const t of Object.keys(TARGETS)) expect(targets, t).toContain(t);
    for (const path of Object.keys(DIVERGENCES)) expect(existsSync(join(V2_DIR, 'examples', path)), path).toBe(true);
  });

  it('prefers the argument, then WOPKIT_UPSTREAM_DIR, then /tmp/upstream', () => {
    expect(upstreamDir('/x', { WOPKIT_UPSTREAM_DIR: '/y' })).toBe('/x');
    expect(upstreamDir(undefined, { WOPKIT_UPSTREAM_DIR: '/y' })).toBe('/y');
    expect(upstreamDir(undefined, {})).toBe('/tmp/upstream');
  });

  it('refuses a folder without a manifest, with a missing file, a file of another length, or a bad commit', () => {
    const root = mkdtempSync(join(tmpdir(), 'wopkit-upstream-'));
    try {
      expect(() => readManifest(root)).toThrow(OracleFolderError);
      mkdirSync(join(root, 'openwop', 'schemas', 'v2'), { recursive: true });
      const file = { repo: 'openwop/openwop', path: 'schemas/v2/x.schema.json', commit: 'a'.repeat(40), chars: 2 };
      writeFileSync(join(root, 'manifest.json'), JSON.stringify({ files: [file] }));
      expect(() => readManifest(root)).toThrow(/missing/);
      writeFileSync(join(root, 'openwop', file.path), '{ }');
      expect(() => readManifest(root)).toThrow(/3 characters, the manifest records 2/);
      writeFileSync(join(root, 'manifest.json'), JSON.stringify({ files: [{ ...file, chars: 3, commit: 'main' }] }));
      expect(() => readManifest(root)).toThrow(/40 hex/);
      writeFileSync(join(root, 'manifest.json'), JSON.stringify({ files: [{ ...file, chars: 3 }] }));
      expect(readManifest(root).texts.size).toBe(1);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!present)('our v2 corpus against upstream v2 schemas', () => {
  it('finds nothing beyond the documented divergences', () => {
    const report = runOracle(dir);
    expect(report.findings).toEqual([]);
    const counts = verdictCounts(report);
    expect(report.examples.length).toBeGreaterThan(60);
    expect(counts.accepted + counts['rejected-as-declared']).toBeGreaterThan(report.examples.length - Object.keys(DIVERGENCES).length - 1);
    expect(report.tables).toEqual([]);
  });
});
