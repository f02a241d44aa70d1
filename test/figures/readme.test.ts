/**
 * Figures that cannot go stale: every number in the README is written by `npm run figures` (scripts/figures.ts) between
 * markers, the check fails when the README says anything else, and no measured number hides in the prose outside a
 * marker. The benchmark table, inputs and misses are rendered from bench/results/*.json here too, so a result file
 * changed without `npm run bench:report` fails this test.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BLOCKS, blockIn, compute, differences, figuresIn, render, README } from '../../scripts/figures.ts';
import { OWN_SIZE_IN_SHIPPED_README, PACKAGES, shippedReadme, sizeFigureOf } from '../../scripts/package-layout.ts';

const readme = () => readFileSync(README, 'utf8');

/** Identifiers and versions the prose may carry outside a figure (they are names, not measurements). */
const NOT_FIGURES = [/\bRFC 0012, 0039, 0068\b/g, /\bNode (>= )?(20|24)\b/g, /\bRFC \d{4}\b/g, /\bProposal 066\b/g, /\bP066\b/g, /\bDecision 8\.1\b/g, /\bv1\.1\b/g, /\bC# 6\b/g, /\bkill -9\b/g, /\bdraft 2020-12\b/g];

describe('README figures', () => {
  it('a figure edited by hand fails the check, naming the figure, what the README says and what was measured', () => {
    const text = readme();
    const values = new Map(figuresIn(text).map((f) => [f.name, f.value]));
    const blocks = Object.fromEntries(BLOCKS.map((b) => [b, blockIn(text, b)!]));
    expect(differences(text, values, blocks)).toEqual([]);
    const [first] = figuresIn(text);
    const edited = text.replace(`<!-- figure:${first!.name} -->${first!.value}<!-- /figure -->`, `<!-- figure:${first!.name} -->${first!.value} (rounded by hand)<!-- /figure -->`);
    expect(differences(edited, values, blocks)).toEqual([{ figure: first!.name, readme: `${first!.value} (rounded by hand)`, measured: first!.value }]);
    const row = blocks['bench-report']!.split('\n')[2]!;
    const tampered = text.replace(row, row.replace(/\| ([0-9.]+)× \|/, '| 9.99× |'));
    expect(differences(tampered, values, blocks).map((d) => d.figure)).toEqual(['bench-report']);
    // a marker the script does not compute is refused too
    expect(differences(`${text}\n<!-- figure:made.up -->1<!-- /figure -->\n`, values, blocks).map((d) => d.figure)).toEqual(['made.up']);
    expect(render(edited, values, blocks)).toBe(text);
  });

  it('a package ships its README with every figure but its own size, which packing that README would change', () => {
    const text = readme();
    const wopkit = PACKAGES.find((p) => p.readme === 'README.md')!;
    const own = sizeFigureOf(wopkit);
    const shipped = shippedReadme(wopkit, text);
    expect(figuresIn(text).map((f) => f.name)).toContain(own);
    expect(figuresIn(shipped).map((f) => f.name)).toEqual(figuresIn(text).map((f) => f.name).filter((n) => n !== own));
    const stated = figuresIn(text).find((f) => f.name === own)!;
    expect(shipped).toBe(text.replace(`<!-- figure:${own} -->${stated.value}<!-- /figure -->`, OWN_SIZE_IN_SHIPPED_README));
    // another package's size stays in what wopkit ships; a README without its own figure ships as it is
    expect(figuresIn(shipped).map((f) => f.name)).toContain('package.validators');
    const validators = PACKAGES.find((p) => p.dir === 'validators')!;
    expect(shippedReadme(validators, 'no figures here')).toBe('no figures here');
  });

  it('no measured number outside a marker: every digit in the prose is a figure or a named identifier', () => {
    let prose = readme()
      .replace(/```[\s\S]*?```/g, '')
      .replace(/`[^`\n]*`/g, '')
      .replace(/<!-- figure:[\s\S]*?<!-- \/figure -->/g, '')
      .replace(/<!-- ([a-z-]+):start -->[\s\S]*?<!-- \1:end -->/g, '')
      .replace(/\]\([^)]*\)/g, ']');
    for (const re of NOT_FIGURES) prose = prose.replace(re, '');
    expect(prose.split('\n').filter((l) => /\d/.test(l))).toEqual([]);
  });

  it('the benchmark table, inputs and misses are what bench/results/*.json say (npm run bench:report writes them)', async () => {
    const { blocks } = await compute({ only: 'bench' });
    for (const b of BLOCKS) expect(blockIn(readme(), b), b).toBe(blocks[b]);
  });

  it('the corpus figures are the corpus\'s', async () => {
    const { loadCorpus } = await import('../../generator/load.ts');
    const corpus = loadCorpus(join(import.meta.dirname, '../..'));
    const written = new Map(figuresIn(readme()).map((f) => [f.name, f.value]));
    expect(written.get('corpus.openwop')).toBe(String(corpus.schemas.filter((s) => s.family === 'openwop').length));
    expect(written.get('corpus.inquirium')).toBe(String(corpus.schemas.filter((s) => s.family === 'inquirium').length));
    expect(written.get('corpus.examples')).toBe(String(corpus.examples.length));
  });
});
