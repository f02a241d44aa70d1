/**
 * The code blocks of README.md and docs/*.md (scripts/snippets.ts), the fast half: every `ts`, `js` and `sh` block has a
 * verdict and every opt-out a reason; the `ts` blocks compile (strict) and run against the repository's own modules in
 * place of the packages; and a README whose host + conformance block lost an option fails. The packed-tarball half
 * (compile under nodenext and run on Node 24 from an install, `sh` blocks in a scratch copy) is
 * test/package/snippets-packed.test.ts, in the soak set.
 */
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allSnippets, compileFromSource, countLine, extractSnippets, runFromSource, SnippetMarkerError, snippetName, sourceOf, sourceProgram, type Snippet } from '../../scripts/snippets.ts';
import { childEnv } from '../support/child-env.ts';

const ROOT = process.cwd();
const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body}\n\`\`\``;
/** The README block that starts a host and runs the conformance suite against it. */
const hostBlock = (snippets: readonly Snippet[]) => snippets.find((s) => s.file === 'README.md' && s.lang === 'ts' && s.code.includes('runSuite('))!;

describe('extracting the blocks', () => {
  it('finds ts, js and sh blocks (by any of their names) with their line, and leaves other languages alone', () => {
    const md = ['# t', fence('ts', 'const a = 1;'), '', fence('json', '{}'), fence('bash', 'echo hi'), '  ```javascript', '  console.log(1);', '  ```', fence('', 'plain')].join('\n');
    const got = extractSnippets(md, 'x.md');
    expect(got.map((s) => [s.line, s.lang, s.code, s.verdict.kind])).toEqual([[2, 'ts', 'const a = 1;\n', 'run'], [9, 'sh', 'echo hi\n', 'run'], [12, 'js', 'console.log(1);\n', 'run']]);
  });

  it('a longer fence holds a shorter one, which is content', () => {
    const md = ['````md', '```sh', 'rm -rf /', '```', '````', fence('sh', 'true')].join('\n');
    expect(extractSnippets(md, 'x.md').map((s) => s.code)).toEqual(['true\n']);
  });

  it('takes the verdict from the marker right before the block, with its reason', () => {
    const md = ['<!-- snippet: skip (needs a GPU) -->', fence('sh', 'nvidia-smi'), '<!-- snippet: compile-only (starts a server) -->', '', fence('ts', 'export {};')].join('\n');
    expect(extractSnippets(md, 'x.md').map((s) => s.verdict)).toEqual([{ kind: 'skip', reason: 'needs a GPU' }, { kind: 'compile-only', reason: 'starts a server' }]);
  });

  it.each([
    ['a marker with no reason', ['<!-- snippet: skip () -->', fence('sh', 'x')], /gives no reason/],
    ['a marker of no known verdict', ['<!-- snippet: ignore (x) -->', fence('sh', 'x')], /unknown snippet marker/],
    ['a marker before prose', ['<!-- snippet: skip (x) -->', 'some text', fence('sh', 'x')], /not followed by a ts, js or sh block/],
    ['a marker before a block that is not checked', ['<!-- snippet: skip (x) -->', fence('json', '{}')], /not checked/],
    ['a marker at the end of the file', ['<!-- snippet: skip (x) -->'], /not followed/],
    ['compile-only on a shell block', ['<!-- snippet: compile-only (x) -->', fence('sh', 'x')], /compile-only is for ts blocks/],
  ])('refuses %s, naming the file and line', (_what, lines, message) => {
    expect(() => extractSnippets(lines.join('\n'), 'docs/x.md')).toThrow(SnippetMarkerError);
    expect(() => extractSnippets(lines.join('\n'), 'docs/x.md')).toThrow(message);
    expect(() => extractSnippets(lines.join('\n'), 'docs/x.md')).toThrow(/^docs\/x\.md:1: /);
  });
});

describe('the repository\'s blocks', () => {
  const snippets = allSnippets(ROOT);

  it('every ts, js and sh block of README.md and docs/*.md has a verdict; every opt-out has a reason', () => {
    expect(snippets.length).toBeGreaterThan(10);
    for (const s of snippets) {
      if (s.verdict.kind !== 'run') expect(s.verdict.reason.length, snippetName(s)).toBeGreaterThan(10);
    }
    const counts = { executed: snippets.filter((s) => s.verdict.kind === 'run').length, compiled: snippets.filter((s) => s.verdict.kind === 'compile-only').length, optedOut: snippets.filter((s) => s.verdict.kind === 'skip').length };
    console.log(countLine(counts).replace('executed', 'to execute'));
    // The README's own code is run, not opted out.
    expect(snippets.filter((s) => s.file === 'README.md' && s.lang === 'ts').map((s) => s.verdict.kind)).toEqual(['run', 'run']);
  });

  it('package specifiers map onto the repository\'s modules', () => {
    expect(sourceOf('wopkit/host', ROOT)).toBe(join(ROOT, 'entry/host.ts'));
    expect(sourceOf('@wopkit/validators/guards', ROOT)).toBe(join(ROOT, 'generated/guards/index.ts'));
    expect(sourceOf('@wopkit/validators/validate/MemoryEntry', ROOT)).toBe(join(ROOT, 'generated/validators/by-type/MemoryEntry.js'));
    expect(sourceOf('wopkit/schemas/openwop/v1/memory-entry.schema.json', ROOT)).toBe(join(ROOT, 'schemas/openwop/v1/memory-entry.schema.json'));
    expect(sourceOf('wopkit/nope', ROOT)).toBeUndefined();
    expect(sourceProgram("import { x } from 'wopkit/nope';\n", ROOT)).toBeUndefined();
  });

  it('every ts block compiles (strict) against the repository\'s modules; a wrong option type does not', () => {
    const ts = snippets.filter((s) => s.lang === 'ts' && s.verdict.kind !== 'skip').map((s) => ({ name: snippetName(s), code: s.code }));
    const r = compileFromSource(ts, { env: childEnv() });
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
    const host = hostBlock(snippets);
    const wrong = compileFromSource([{ name: 'mutated', code: host.code.replace('seedConformanceFixtures: true', "seedConformanceFixtures: 'yes'") }], { env: childEnv() });
    expect(wrong.status).not.toBe(0);
    expect(wrong.output).toMatch(/TS2322/);
  }, 180_000);

  it('every runnable ts block runs against the repository\'s modules; the host + conformance block passes every scenario in strict mode', () => {
    for (const s of snippets.filter((x) => x.lang === 'ts' && x.verdict.kind === 'run')) {
      const r = runFromSource(s.code, { env: childEnv() });
      expect(r.status, `${snippetName(s)}\n${r.output}`).toBe(0);
      if (s === hostBlock(snippets)) expect(r.output).toMatch(/conformance \(strict\): \d+ passed, 0 failed/);
    }
  }, 240_000);

  it('a README copy whose host block lost seedConformanceFixtures fails, and its failures name the option to set', () => {
    const copy = mkdtempSync(join(tmpdir(), 'wopkit-snippets-mutant-'));
    try {
      cpSync(join(ROOT, 'docs'), join(copy, 'docs'), { recursive: true });
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      const mutated = readme.replace(/seedConformanceFixtures: true,\s*/, '');
      expect(mutated).not.toBe(readme);
      writeFileSync(join(copy, 'README.md'), mutated);
      const r = runFromSource(hostBlock(allSnippets(copy)).code, { env: childEnv() });
      expect(r.status).toBe(1);
      expect(r.output).toMatch(/conformance \(strict\): \d+ passed, [1-9]\d* failed/);
      expect(r.output).toContain('createHost({ seedConformanceFixtures: true })');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 120_000);
});
