/** Golden tests: every emitter on the fixture corpus against the checked-in expected output (UPDATE_GOLDEN=1 refreshes). */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadCorpus } from '../../generator/load.ts';
import { EMITTERS } from '../../generator/emitters.ts';
import { FIXTURE } from './helpers.ts';

const EXPECTED = join(FIXTURE, 'expected');
const update = process.env['UPDATE_GOLDEN'] === '1';

function listFiles(dir: string, rel = ''): string[] {
  const abs = join(dir, rel);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).sort().flatMap((n) => (statSync(join(abs, n)).isDirectory() ? listFiles(dir, join(rel, n)) : [join(rel, n)]));
}

describe('golden output on the fixture corpus', () => {
  const corpus = loadCorpus(FIXTURE);
  for (const emitter of EMITTERS.filter((e) => e.name !== 'other-languages')) {
    it(`emitter ${emitter.name}`, async () => {
      const files = await emitter.emit(corpus);
      if (update) {
        for (const owned of emitter.owns) rmSync(join(EXPECTED, owned), { recursive: true, force: true });
        for (const f of files) {
          mkdirSync(dirname(join(EXPECTED, f.path)), { recursive: true });
          writeFileSync(join(EXPECTED, f.path), f.contents);
        }
      }
      const expectedPaths = emitter.owns.flatMap((o) => (o.endsWith('/') ? listFiles(EXPECTED, o) : existsSync(join(EXPECTED, o)) ? [o] : []));
      expect(files.map((f) => f.path).sort()).toEqual(expectedPaths.sort());
      for (const f of files) expect(f.contents, f.path).toBe(readFileSync(join(EXPECTED, f.path), 'utf8'));
    });
  }

  it('is deterministic (two runs, same bytes)', async () => {
    const a = await Promise.all(EMITTERS.map((e) => e.emit(loadCorpus(FIXTURE))));
    const b = await Promise.all(EMITTERS.map((e) => e.emit(loadCorpus(FIXTURE))));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('no generator stage sorts with localeCompare (its order follows LANG/LC_ALL and would break gen --check elsewhere)', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
        d.isDirectory() ? (d.name === 'other-languages' ? [] : sources(join(dir, d.name))) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
      );
    const offenders = sources(join(FIXTURE, '../../../generator')).filter((f) => /\.localeCompare\(/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('the fixture covers what the emitters must handle', () => {
    const types = readFileSync(join(EXPECTED, 'generated/ts/config.ts'), 'utf8');
    expect(types).toMatch(/import type \{ DemoLabel, DemoRef, DemoSettings \} from '\.\/shared\.ts';/);
    expect(types).toMatch(/export type DemoPart = DemoTextPart \| DemoRefPart;/);
    expect(types).toMatch(/kind: 'text';/);
    const shared = readFileSync(join(EXPECTED, 'generated/ts/shared.ts'), 'utf8');
    expect(shared).toMatch(/'runtime\/ref': DemoRef;/);
    expect(shared).toMatch(/@default 2/);
    expect(shared).toMatch(/export type DemoLabel = 'public' \| 'community' \| 'personal';/);
    expect(shared).not.toMatch(/\[k: string\]/);
    expect(types).toMatch(/note\?: string;\n\s+\[k: string\]: unknown;/);
  });
});
