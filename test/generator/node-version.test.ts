/**
 * The bin checks the Node version before it loads anything Node might not parse: on the system's Node 20 (the
 * compiled bin, as the package ships it) it prints one line and exits 2; on Node 24 it runs the CLI.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { noteSkip } from '../support/skip-log.ts';
import { REPO } from './helpers.ts';

/** A Node older than 24 on this machine (Debian's /usr/bin/node is 20), if any. */
function oldNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/bin/node']) {
    try {
      const v = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
      if (Number(v.replace(/^v/, '').split('.')[0]) < 24) return candidate;
    } catch {
      // not there
    }
  }
  return undefined;
}

const OLD = oldNode();
if (OLD === undefined) noteSkip('no Node older than 24 on this machine (/usr/bin/node): the unsupported-Node check is not run');
const dir = mkdtempSync(join(tmpdir(), 'bin-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bin as the build compiles it (tsconfig.build.json's import rewriting), in a folder that is an ESM package. */
function compiledBin(): string {
  const source = readFileSync(join(REPO, 'generator/bin.ts'), 'utf8');
  const out = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, rewriteRelativeImportExtensions: true } }).outputText;
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  // A cli.js that Node 20 cannot parse (as the real one may not be): the bin must not get as far as loading it.
  writeFileSync(join(dir, 'cli.js'), 'export const x = /[\\p{L}--\\p{Lu}]/v;\nusing y = null;\n');
  writeFileSync(join(dir, 'bin.js'), out);
  return out;
}

describe('the bin on an unsupported Node', () => {
  it('loads the CLI only by a dynamic import, rewritten to .js as the build does', () => {
    const out = compiledBin();
    expect(out).toMatch(/import\(["']\.\/cli\.js["']\)/);
    expect(out).not.toMatch(/^import\s/m);
  });

  it.skipIf(OLD === undefined)('Node 20: one line naming the versions, exit 2, no stack', () => {
    compiledBin();
    const r = spawnSync(OLD!, [join(dir, 'bin.js'), 'lint'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^wopkit: error: needs Node\.js 24 or later; this is Node\.js 20\./);
  });

  it('Node 24: the bin runs the CLI', () => {
    const r = spawnSync(process.execPath, [join(REPO, 'generator/bin.ts'), '--version'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^wopkit \d+\.\d+\.\d+/);
  });
});
