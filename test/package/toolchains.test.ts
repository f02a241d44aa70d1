/**
 * The optional-toolchain guard: a missing toolchain skips (reason printed once) unless WOPKIT_REQUIRE_TOOLCHAINS=1,
 * which makes the test run and fail naming what is missing. PATH is narrowed to a folder holding only `sh`, so every
 * PATH-found compiler is missing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { REQUIRE_ENV, toolchain, toolchainsRequired } from '../support/toolchains.ts';
import { noteSkip, SKIP_LOG_ENV } from '../support/skip-log.ts';

describe('optional toolchains', () => {
  let savedPath: string | undefined;
  beforeEach(() => {
    savedPath = process.env.PATH;
    const bin = mkdtempSync(join(tmpdir(), 'wopkit-path-'));
    symlinkSync(execFileSync('sh', ['-c', 'command -v sh']).toString().trim(), join(bin, 'sh'));
    process.env.PATH = bin;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    vi.restoreAllMocks();
  });

  it('a missing toolchain is skipped with its reason, noted once for the skip summary under this test file', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'wopkit-skiplog-')), 'skips.jsonl');
    const saved = process.env[SKIP_LOG_ENV];
    process.env[SKIP_LOG_ENV] = log;
    try {
      const go = toolchain('go', {});
      const again = toolchain('go', {});
      expect(go).toMatchObject({ present: false, skip: true, reason: 'skipped: no go compiler; run scripts/install-toolchains.sh' });
      expect(again.skip).toBe(true);
      expect(readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ file: 'test/package/toolchains.test.ts', reason: 'no go compiler; run scripts/install-toolchains.sh' }]);
      expect(() => go.assert()).toThrow(/no go compiler/);
    } finally {
      if (saved === undefined) delete process.env[SKIP_LOG_ENV];
      else process.env[SKIP_LOG_ENV] = saved;
    }
  });

  it('outside a configured run (no skip log) the reason goes to stderr', () => {
    const writes = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    noteSkip('no kotlinc; run scripts/install-toolchains.sh', {});
    expect(writes.mock.calls.map((c) => String(c[0]))).toEqual(['skipped: no kotlinc; run scripts/install-toolchains.sh\n']);
  });

  it(`with ${REQUIRE_ENV}=1 a missing toolchain is not skipped: the test runs and fails`, () => {
    const kotlin = toolchain('kotlin', { [REQUIRE_ENV]: '1' });
    expect(kotlin.skip).toBe(false);
    expect(() => kotlin.assert()).toThrow(`no kotlinc (${REQUIRE_ENV}=1 turns the skip into this failure)`);
  });

  it('only 1 or true require the toolchains', () => {
    expect(toolchainsRequired({ [REQUIRE_ENV]: '1' })).toBe(true);
    expect(toolchainsRequired({ [REQUIRE_ENV]: 'true' })).toBe(true);
    expect(toolchainsRequired({ [REQUIRE_ENV]: '0' })).toBe(false);
    expect(toolchainsRequired({})).toBe(false);
  });
});
