/**
 * The folder rules of docs/architecture.md, enforced: every relative import in generated/, generator/, runtime/,
 * conformance/, site/src/ and entry/ goes to its own folder or to one LAYER_RULES allows, every allowance of a
 * runtime folder is used by some import, and the doc's table lists exactly LAYER_RULES, each folder once (so the
 * page a newcomer reads cannot drift from what the code does).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, ROOT, tsFilesUnder } from './sources.ts';
import { allows, LAYER_RULES, layerOf } from './layer-rules.ts';

/** Relative import targets of an .astro file's frontmatter and scripts (read as text). */
function astroImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => relative(ROOT, resolve(ROOT, dirname(file), m[1]!)).split('\\').join('/'));
}
function astroFilesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.astro')).map((f) => `${dir}/${f.split('\\').join('/')}`);
}

const SCANNED = ['generated', 'generator', 'runtime', 'conformance', 'site/src', 'entry'];
const imports = SCANNED.flatMap((dir) => [
  ...tsFilesUnder(dir).map((file) => ({ file, targets: importsOf(file) })),
  ...astroFilesUnder(dir).map((file) => ({ file, targets: astroImports(file) })),
]).flatMap(({ file, targets }) => targets.map((target) => ({ file, target, from: layerOf(file) })));

describe('folder layering (docs/architecture.md)', () => {
  it('reads imports from every scanned folder (not vacuous)', () => {
    for (const from of ['generator', 'runtime/host', 'conformance', 'site']) expect(imports.some((i) => i.from === from), from).toBe(true);
  });

  it('every import goes to its own folder or one the table allows', () => {
    const bad = imports.filter((i) => {
      if (layerOf(i.target) === i.from) return false;
      const rule = LAYER_RULES[i.from];
      return rule === undefined || !rule.some((entry) => allows(entry, i.target));
    });
    expect(bad.map((i) => `${i.file} imports ${i.target} (${i.from} may import: ${(LAYER_RULES[i.from] ?? ['(no rule)']).join(', ')})`)).toEqual([]);
  });

  // The runtime rows are the real graph: every allowance is used. (The site also reads modules and data through
  // Vite's `import.meta.glob`, which this scan does not follow, so its row is an upper bound.)
  it('a runtime folder is allowed nothing it does not import (the table is the real graph, not a loose upper bound)', () => {
    const unused = Object.entries(LAYER_RULES).filter(([from]) => from.startsWith('runtime/')).flatMap(([from, entries]) =>
      entries.filter((entry) => !imports.some((i) => i.from === from && layerOf(i.target) !== from && allows(entry, i.target))).map((entry) => `${from} may import ${entry}, but nothing in it does`),
    );
    expect(unused).toEqual([]);
  });

  it('the table in docs/architecture.md is the rule table, one row per folder', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const block = /<!-- layer-rules:start -->([\s\S]*?)<!-- layer-rules:end -->/.exec(doc)?.[1];
    expect(block, 'layer-rules markers in docs/architecture.md').toBeDefined();
    const rows = block!.split('\n').filter((l) => l.startsWith('| `')).map((l) => {
      const [folder, may] = l.split('|').slice(1, 3).map((c) => c.trim());
      return [folder!.replace(/`/g, ''), may === '—' ? [] : may!.split(',').map((s) => s.trim().replace(/`/g, ''))] as const;
    });
    const folders = rows.map(([folder]) => folder);
    expect(folders.filter((f, i) => folders.indexOf(f) !== i), 'folders listed twice').toEqual([]);
    expect(Object.fromEntries(rows)).toEqual(LAYER_RULES);
  });
});
