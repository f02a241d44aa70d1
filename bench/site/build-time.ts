/**
 * Site build time with the real corpus and with a synthetic corpus 10× larger (schema pages and RFC pages), built
 * the same way in one run. The synthetic tree is a scratch copy (under .tmp/) of the repository layout the site
 * reads (site/, generated/site-data, RFCs/, conformance/results, docs/) with every schema document and RFC copied
 * ten times under new names.
 * Run: npm run bench:site   → bench/results/site.json
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { round, type BenchRow } from '../summary.ts';

const REPO = resolve('.');
const FACTOR = 10;

function countPages(dist: string): number {
  let n = 0;
  const walk = (d: string) => { for (const e of readdirSync(d, { withFileTypes: true })) e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.html') && n++; };
  walk(dist);
  return n;
}

function build(root: string): { seconds: number; pages: number } {
  const start = performance.now();
  execFileSync(join(REPO, 'node_modules/.bin/astro'), ['build', '--root', join(root, 'site'), '--outDir', join(root, 'dist')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  return { seconds: (performance.now() - start) / 1000, pages: countPages(join(root, 'dist')) };
}

function scratch(factor: number): string {
  // Inside the repository (gitignored .tmp/) so node_modules resolves by the ordinary upward lookup.
  mkdirSync(join(REPO, '.tmp'), { recursive: true });
  const root = mkdtempSync(join(REPO, '.tmp', `site-x${factor}-`));
  cpSync(join(REPO, 'site'), join(root, 'site'), { recursive: true, filter: (p) => !/\/(dist|\.astro|public\/api)(\/|$)/.test(p) });
  for (const d of ['conformance/results', 'docs']) if (existsSync(join(REPO, d))) cpSync(join(REPO, d), join(root, d), { recursive: true });
  const srcData = join(REPO, 'generated/site-data');
  const dstData = join(root, 'generated/site-data');
  mkdirSync(dstData, { recursive: true });
  const index = JSON.parse(readFileSync(join(srcData, 'index.json'), 'utf8'));
  for (const fam of index.families) {
    mkdirSync(join(dstData, fam.name), { recursive: true });
    const copies: unknown[] = [];
    for (const s of fam.schemas) {
      const doc = readFileSync(join(srcData, s.data), 'utf8');
      for (let i = 0; i < factor; i++) {
        const stem = i === 0 ? s.stem : `${s.stem}-x${i}`;
        writeFileSync(join(dstData, fam.name, `${stem}.json`), i === 0 ? doc : doc.replaceAll(`"stem": "${s.stem}"`, `"stem": "${stem}"`).replaceAll(`"fileName": "${s.fileName}"`, `"fileName": "${stem}.schema.json"`));
        copies.push({ ...s, stem, fileName: `${stem}.schema.json`, data: `${fam.name}/${stem}.json` });
      }
    }
    fam.schemas = copies;
  }
  writeFileSync(join(dstData, 'index.json'), JSON.stringify(index));
  mkdirSync(join(root, 'RFCs'));
  for (const f of readdirSync(join(REPO, 'RFCs'))) {
    const text = readFileSync(join(REPO, 'RFCs', f), 'utf8');
    for (let i = 0; i < factor; i++) {
      writeFileSync(join(root, 'RFCs', i === 0 ? f : f.replace('.md', `-x${i}.md`)), i === 0 ? text : text.replace(/^number: "([^"]+)"/m, `number: "$1-x${i}"`));
    }
  }
  return root;
}

const results: Record<string, unknown>[] = [];
for (const factor of [1, FACTOR]) {
  const root = scratch(factor);
  try {
    const r = build(root);
    results.push({ corpus: factor === 1 ? 'real' : `synthetic ×${factor}`, pages: r.pages, seconds: +r.seconds.toFixed(2), msPerPage: +((r.seconds * 1000) / r.pages).toFixed(1) });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
const [real, big] = results as { pages: number; seconds: number }[];
/** The table row: how much faster than linear the build grows (pages ×k in time ×t: k / t; 1 is linear). */
function siteRow(b: { pages: number; seconds: number }, g: { pagesRatio: number; timeRatio: number }): BenchRow {
  return { row: `site build, synthetic ×${FACTOR} corpus vs the real one: page growth / time growth`, ratio: round(g.pagesRatio / g.timeRatio), peer: `linear growth (the real corpus: ${real!.pages} pages in ${real!.seconds} s)`, goal: '≥ 1× (≤ linear: time grows no faster than pages)', figure: `${b.pages} pages in ${b.seconds} s` };
}
const growth = { pagesRatio: +(big!.pages / real!.pages).toFixed(2), timeRatio: +(big!.seconds / real!.seconds).toFixed(2) };
console.table(results);
console.log(growth);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/site.json', `${JSON.stringify({ benchmark: 'site-build', node: process.version, summary: siteRow(big!, growth), results, growth }, null, 2)}\n`);
