/**
 * Golden tests, one case per folder: `test/generator/golden/<emitter>/` holds a tiny corpus (`schemas/`) and what that
 * emitter must produce from it (`expected/<path>.golden`). Adding a folder adds a case; a folder must be named after an
 * emitter, and every emitter needs a folder. `UPDATE_GOLDEN=1 npx vitest run test/generator/golden.test.ts` refreshes
 * the expected files (review the diff). Expected files carry `.golden` so that tools treat them as data, not as code.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadCorpus } from '../../generator/load.ts';
import { EMITTERS } from '../../generator/emitters.ts';
import { emitAll } from '../../generator/emit.ts';
import { resolveCorpus } from '../../generator/resolve.ts';
import { assertGeneratable } from '../../generator/lint.ts';
import { FIXTURE, REPO } from './helpers.ts';

const GOLDEN = join(REPO, 'test/generator/golden');
const SUFFIX = '.golden';
const update = process.env['UPDATE_GOLDEN'] === '1';

function listFiles(dir: string, rel = ''): string[] {
  const abs = join(dir, rel);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).sort().flatMap((n) => (statSync(join(abs, n)).isDirectory() ? listFiles(dir, join(rel, n)) : [join(rel, n)]));
}

const cases = readdirSync(GOLDEN).filter((n) => statSync(join(GOLDEN, n)).isDirectory()).sort();

describe('golden output, one case per emitter folder', () => {
  it('every folder names an emitter, and every emitter has a folder', () => {
    expect(cases).toEqual(EMITTERS.map((e) => e.name).sort());
  });

  for (const name of cases) {
    it(`emitter ${name}`, async () => {
      const emitter = EMITTERS.find((e) => e.name === name);
      if (!emitter) throw new Error(`test/generator/golden/${name}/ names no emitter`);
      const dir = join(GOLDEN, name);
      const expectedDir = join(dir, 'expected');
      const resolved = resolveCorpus(loadCorpus(dir));
      assertGeneratable(resolved);
      const { files } = await emitAll(resolved, [emitter]);
      if (update) {
        rmSync(expectedDir, { recursive: true, force: true });
        for (const f of files) {
          mkdirSync(dirname(join(expectedDir, f.path)), { recursive: true });
          writeFileSync(join(expectedDir, f.path + SUFFIX), f.contents);
        }
      }
      expect(files.length, 'the case produces output').toBeGreaterThan(0);
      const expectedPaths = listFiles(expectedDir).map((p) => p.slice(0, -SUFFIX.length));
      expect(files.map((f) => f.path).sort()).toEqual(expectedPaths.sort());
      for (const f of files) expect(f.contents, f.path).toBe(readFileSync(join(expectedDir, f.path + SUFFIX), 'utf8'));
    });
  }

  it('is deterministic (two runs on the fixture corpus, same bytes)', async () => {
    const a = await emitAll(resolveCorpus(loadCorpus(FIXTURE)));
    const b = await emitAll(resolveCorpus(loadCorpus(FIXTURE)));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('no generator stage sorts with localeCompare (its order follows LANG/LC_ALL and would break gen --check elsewhere)', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? (d.name === 'other-languages' ? [] : sources(join(dir, d.name))) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
      );
    const offenders = sources(join(REPO, 'generator')).filter((f) => /\.localeCompare\(/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the types case covers what the emitters must handle', () => {
    const expected = (p: string) => readFileSync(join(GOLDEN, 'types/expected/generated/ts', p + SUFFIX), 'utf8');
    const types = expected('config.ts');
    expect(types).toMatch(/import type \{ DemoLabel, DemoRef, DemoSettings \} from '\.\/shared\.ts';/);
    expect(types).toMatch(/export type DemoPart = DemoTextPart \| DemoRefPart;/);
    expect(types).toMatch(/kind: 'text';/);
    const shared = expected('shared.ts');
    expect(shared).toMatch(/'runtime\/ref': DemoRef;/);
    expect(shared).toMatch(/@default 2/);
    expect(shared).toMatch(/export type DemoLabel = 'public' \| 'community' \| 'personal';/);
    expect(shared).not.toMatch(/\[k: string\]/);
    expect(types).toMatch(/note\?: string;\n\s+\[k: string\]: unknown;/);
  });
});
