/**
 * The test command's own machinery: the skip summary (every skipped test grouped under its reason, files without a
 * noted reason listed as such) and the soak split (the main set and the soak set are disjoint and cover every file).
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { NO_REASON, summaryLines } from '../support/skip-summary.ts';
import { callingTestFile } from '../support/skip-log.ts';
import { SOAK_FILES } from '../soak.ts';
import config from '../../vitest.config.ts';

describe('skip summary', () => {
  it('groups skipped tests by reason, with the files and their counts; a file without a reason is named last', () => {
    const skipped = new Map([['test/site/site.test.ts', 24], ['test/package/tarball.test.ts', 6], ['test/x.test.ts', 1]]);
    const notes = [
      { file: 'test/site/site.test.ts', reason: 'no Chromium; run scripts/install-toolchains.sh or set CHROMIUM_PATH' },
      { file: 'test/package/tarball.test.ts', reason: 'no dist/ (run npm run build)' },
      { file: 'test/site/site.test.ts', reason: 'no Chromium; run scripts/install-toolchains.sh or set CHROMIUM_PATH' },
    ];
    expect(summaryLines(skipped, notes)).toEqual([
      'Skipped: 31 tests in 3 files, by reason:',
      '  no Chromium; run scripts/install-toolchains.sh or set CHROMIUM_PATH',
      '    test/site/site.test.ts (24)',
      '  no dist/ (run npm run build)',
      '    test/package/tarball.test.ts (6)',
      `  ${NO_REASON}`,
      '    test/x.test.ts (1)',
    ]);
    expect(summaryLines(new Map(), [])).toEqual(['Skipped: none']);
  });

  it('a noted reason is filed under the test file that was being collected', () => {
    expect(callingTestFile()).toBe('test/testing/skip-summary.test.ts');
    expect(callingTestFile('Error\n    at noteSkip (/r/test/support/skip-log.ts:3:1)\n    at /r/test/a/b.test.ts:9:2')).toBe('/r/test/a/b.test.ts');
  });
});

describe('the two test sets', () => {
  const all = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? all(join(dir, n)) : n.endsWith('.test.ts') ? [join(dir, n)] : []));
  const matches = (file: string, pattern: string): boolean => new RegExp(`^${pattern.replaceAll('.', '\\.').replaceAll('**/', '(.*/)?').replaceAll('*', '[^/]*')}$`).test(file);

  it('every soak pattern names at least one file, and npm test and npm run test:soak are the two projects', () => {
    const files = all('test');
    for (const pattern of SOAK_FILES) expect(files.some((f) => matches(f, pattern)), pattern).toBe(true);
    const projects = (config.test?.projects ?? []) as { test: { name: string; include: string[]; exclude?: string[] } }[];
    expect(projects.map((p) => p.test.name)).toEqual(['main', 'soak']);
    expect(projects[0]!.test.exclude).toEqual(expect.arrayContaining([...SOAK_FILES]));
    expect(projects[1]!.test.include).toEqual([...SOAK_FILES]);
  });
});
