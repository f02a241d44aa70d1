/// <reference lib="dom" />
/**
 * The site as a reader meets it, in Chromium at 1280×800 and 390×844, light and dark (issue 25's acceptance):
 * - every schema page shows its field table above the fold (its top above y = 800 at 1280);
 * - on every tested page no table is wider than its column at 1280, and at 390 each table fits, reflows or scrolls
 *   inside its own box with a visible cue, the page never wider than the screen;
 * - diagram text is at least 12 px at both widths (a wide drawing scrolls in its box instead of shrinking) and reads
 *   at a contrast of at least 4.5:1 in both themes; the built drawings are byte-identical to a fresh layout; each
 *   lifecycle and pipeline diagram sits in the spec or RFC section that explains it;
 * - search ranks the spec first and still finds the API;
 * - the playground, in the page, reports what `wopkit validate` reports for every corpus example, loads only the
 *   validator it needs and only when the box is in view, and keeps the document in a permalink;
 * - axe-core finds no serious or critical violation on the home, a spec, an RFC, a schema, the playground showing
 *   errors, the widget gallery, the API references, the diagrams and the matrix pages.
 * Screenshots of every tested page at both widths and both themes: test-results/screenshots/reader/.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { SiteIndex } from '../../generator/site-data-format.ts';
import { validate } from '../../generator/commands/validate.ts';
import { diagramCatalogue } from '../../site/src/lib/diagrams/catalogue.ts';
import { DIAGRAM_HOMES, diagramPlacements, homeAnchor } from '../../site/src/lib/diagrams/homes.ts';
import { encodePermalink } from '../../site/src/lib/playground/permalink.ts';
import type { PlaygroundFile } from '../../site/src/lib/playground/model.ts';
import { toolchain } from '../support/toolchains.ts';
import { DIST, PAGE_EXCESS_WIDTH, useBuiltSite } from './serve.ts';

const SHOTS = 'test-results/screenshots/reader';
const chromiumTool = toolchain('chromium');
const browserIt = it.skipIf(chromiumTool.skip);
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** An invalid MemoryEntry in the playground: the page showing errors. */
const PLAYGROUND_WITH_ERRORS = `/playground/${encodePermalink({ type: 'MemoryEntry', doc: '{\n  "id": "",\n  "content": 3,\n  "tags": "a"\n}\n' })}`;
/** The tested pages (issue 25's list). */
const PAGES: Readonly<Record<string, string>> = {
  home: '/',
  spec: '/spec/inquirium/',
  'spec-background': '/spec/compaction-distillation-consolidation/',
  rfc: '/rfcs/p066/',
  'rfc-0068': '/rfcs/0068/',
  schema: '/schemas/openwop/memory-entry/',
  'schema-nested': '/schemas/inquirium/inquirium.operator-question.request.v1/',
  playground: PLAYGROUND_WITH_ERRORS,
  widgets: '/widgets/',
  api: '/api/wopkit/interfaces/memoryentry/',
  'http-api': '/http-api/',
  diagrams: '/diagrams/',
  matrix: '/interop/',
};
const VIEWS = [
  { width: 1280, height: 800, scheme: 'light' },
  { width: 1280, height: 800, scheme: 'dark' },
  { width: 390, height: 844, scheme: 'light' },
  { width: 390, height: 844, scheme: 'dark' },
] as const;

const site = useBuiltSite(SHOTS, chromiumTool);

/** Open a page in a fresh context of the given view, the theme set as Starlight's theme switch sets it. */
async function view(path: string, v: (typeof VIEWS)[number]): Promise<Page> {
  const context = await site.browser.newContext({ viewport: { width: v.width, height: v.height }, colorScheme: v.scheme });
  await context.addInitScript((scheme) => localStorage.setItem('starlight-theme', scheme), v.scheme);
  const page = await context.newPage();
  const res = await page.goto(site.base + path, { waitUntil: 'networkidle' });
  expect(res?.status(), path).toBe(200);
  if (path.startsWith('/playground/')) await page.waitForSelector('wopkit-validator[data-verdict]');
  return page;
}

/** In the page: every content table — its width against its column, whether it scrolls, and its scroll cue. */
const TABLE_FACTS = `[...document.querySelectorAll('main .sl-markdown-content table')].filter((t) => t.getClientRects().length > 0 && !t.closest('details:not([open])')).map((t) => {
  const cs = getComputedStyle(t);
  const column = t.closest('.sl-markdown-content').getBoundingClientRect();
  const r = t.getBoundingClientRect();
  return { id: (t.id || t.className || t.closest('[id]')?.id || '').toString().slice(0, 60), right: r.right - column.right, width: r.width, scrolls: t.scrollWidth > t.clientWidth + 1, overflowX: cs.overflowX, cue: cs.backgroundImage.includes('gradient') };
})`;

/** In the page: the text of every diagram — its rendered size, the colours it is drawn in and on, the box it scrolls in. */
const DIAGRAM_TEXT = `(() => {
  const rgb = (c) => { const m = c.match(/[\\d.]+/g).map(Number); return m.length === 4 && m[3] === 0 ? null : m.slice(0, 3); };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const pageBg = rgb(getComputedStyle(document.body).backgroundColor);
  return [...document.querySelectorAll('svg.dg-svg')].flatMap((svg) => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const box = svg.closest('.diagram-scroll');
    const wide = svg.getBoundingClientRect().width > box.getBoundingClientRect().width + 1;
    return [...svg.querySelectorAll('text')].map((t) => {
      const group = t.closest('.dg-node, .dg-label');
      const under = group ? rgb(getComputedStyle(group.querySelector('rect')).fill) ?? pageBg : pageBg;
      const fg = rgb(getComputedStyle(t).fill);
      return { diagram: svg.id || svg.querySelector('title').textContent, text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale, contrast: fg && under ? contrast(fg, under) : 0, scrollsInBox: !wide || ['auto', 'scroll'].includes(getComputedStyle(box).overflowX) };
    });
  });
})()`;

describe('every tested page at 1280 and 390 px, light and dark', () => {
  for (const v of VIEWS) {
    browserIt(`${v.width} px, ${v.scheme}: tables fit their column (1280) or fit, reflow or scroll in their own box with a cue (390); no page overflow; diagram text ≥ 12 px at ≥ 4.5:1`, async () => {
      const problems: string[] = [];
      for (const [name, path] of Object.entries(PAGES)) {
        const page = await view(path, v);
        await page.screenshot({ path: join(SHOTS, `${name}-${v.width}-${v.scheme}.png`) });
        const excess = (await page.evaluate(PAGE_EXCESS_WIDTH)) as number;
        if (excess > 0) problems.push(`${name}: page ${excess}px wider than the screen`);
        for (const t of (await page.evaluate(TABLE_FACTS)) as { id: string; right: number; width: number; scrolls: boolean; overflowX: string; cue: boolean }[]) {
          if (v.width === 1280 && (t.scrolls || t.right > 1)) problems.push(`${name}: table ${t.id} wider than its column`);
          if (t.scrolls && !(['auto', 'scroll'].includes(t.overflowX) && t.cue)) problems.push(`${name}: table ${t.id} overflows without scrolling in its own box with a cue`);
        }
        for (const d of (await page.evaluate(DIAGRAM_TEXT)) as { diagram: string; text: string; px: number; contrast: number; scrollsInBox: boolean }[]) {
          if (d.px < 12) problems.push(`${name}: "${d.text}" in ${d.diagram} at ${d.px.toFixed(1)} px`);
          if (d.contrast < 4.5) problems.push(`${name}: "${d.text}" in ${d.diagram} at contrast ${d.contrast.toFixed(2)}`);
          if (!d.scrollsInBox) problems.push(`${name}: ${d.diagram} wider than its box, which does not scroll`);
        }
        await page.context().close();
      }
      expect(problems).toEqual([]);
    }, 240_000);
  }
});

describe('schema pages, fields first', () => {
  browserIt('on every schema page the first field, variant or value table starts above y = 800 at 1280 px', async () => {
    const index = JSON.parse(readFileSync('generated/site-data/index.json', 'utf8')) as SiteIndex;
    const paths = index.families.flatMap((f) => f.schemas.map((s) => `/schemas/${f.name}/${s.stem}/`));
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const late: string[] = [];
    for (const path of paths) {
      await page.goto(site.base + path);
      const top = (await page.evaluate(`document.querySelector('main table.schema-table')?.getBoundingClientRect().top ?? Infinity`)) as number;
      if (!(top < 800)) late.push(`${path}: ${top}`);
    }
    await context.close();
    expect(paths.length).toBeGreaterThan(70);
    expect(late).toEqual([]);
  }, 120_000);
});

describe('diagrams, as built', () => {
  it('the built pages carry byte-identical drawings to a fresh layout (two builds agree)', async () => {
    const built = readFileSync(join(DIST, 'diagrams/index.html'), 'utf8');
    for (const d of await diagramCatalogue()) expect(built.includes(d.svg), d.graph.id).toBe(true);
  });

  it('each lifecycle and pipeline diagram sits, with its text alternative, in the section of the page that explains it and of each RFC rule it draws', () => {
    for (const [id, home] of Object.keys(DIAGRAM_HOMES).flatMap((x) => diagramPlacements(x).map((h) => [x, h] as const))) {
      const html = readFileSync(join(DIST, home.path, 'index.html'), 'utf8');
      const at = html.indexOf(`id="${homeAnchor(id)}"`);
      expect(at, `${id} on ${home.path}`).toBeGreaterThan(0);
      const heading = home.section === '' ? html.indexOf('<div class="sl-markdown-content">') : html.search(new RegExp(`<h[23][^>]*\\bid="${home.section}"`));
      expect(heading, `${home.path}#${home.section}`).toBeGreaterThan(0);
      const level = home.section === '' ? 1 : Number(html.slice(heading + 2, heading + 3));
      const next = html.slice(heading + 4).search(new RegExp(`<h[1-${level === 1 ? 2 : level}][^>]*\\bid="(?!${homeAnchor(id)})`)) + heading + 4;
      expect(at, `${id}: after the heading of ${home.section || 'the introduction'}`).toBeGreaterThan(heading);
      expect(at, `${id}: before the next section of ${home.path}`).toBeLessThan(next);
      const block = html.slice(at, html.indexOf('</section>', at));
      expect(block, id).toContain('<svg');
      expect(block, `${id}: its text alternative`).toContain(`data-diagram-table="${id}"`);
    }
  });
});

describe('search', () => {
  /** The search dialog's results for a query: their links, in order. */
  async function search(page: Page, query: string): Promise<string[]> {
    const input = page.locator('dialog[open] input.pagefind-ui__search-input');
    await input.fill(query);
    // Pagefind's dialog says "Searching for …" first, then "N results for …", then draws the results one by one.
    const title = 'dialog[open] .pagefind-ui__result > .pagefind-ui__result-inner > .pagefind-ui__result-title > .pagefind-ui__result-link';
    await page.waitForFunction(
      ([q, sel]) => {
        const m = /(\d+) results? for/.exec(document.querySelector('dialog[open] .pagefind-ui__message')?.textContent ?? '');
        return m !== null && (document.querySelector('dialog[open] .pagefind-ui__message')?.textContent ?? '').includes(q) && document.querySelectorAll(sel).length >= Math.min(Number(m[1]), 3);
      },
      [query, title] as const,
      { timeout: 15_000 },
    );
    // One link per result (its page), not the links to the sections under it.
    return page.locator(title).evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  }
  const PRIMARY = /^\/(spec|rfcs|schemas)\//;

  browserIt('ranks a spec, RFC or schema page first for the spec’s words, and still finds each API page in the top 3', async () => {
    const page = await view('/', VIEWS[0]);
    await page.locator('site-search button[data-open-modal]').first().click();
    const wrong: string[] = [];
    for (const q of ['redaction', 'consolidation', 'escalation', 'commitment', 'compaction', 'distillation', 'memoryRef', 'CTI-1', 'SR-1', 'TTL', 'widget kind', 'lattice']) {
      const first = (await search(page, q))[0];
      if (first === undefined || !PRIMARY.test(first)) wrong.push(`${q}: first hit ${first}`);
    }
    for (const [q, api] of [['createHost', '/api/wopkit/host/'], ['validateMemoryEntry', '/api/wopkit/validators/'], ['openStore', '/api/wopkit/host/']] as const) {
      const top = (await search(page, q)).slice(0, 3);
      if (!top.includes(api)) wrong.push(`${q}: ${api} not in the top 3 (${top.join(', ')})`);
    }
    await page.screenshot({ path: join(SHOTS, 'search-1280-light.png') });
    await page.context().close();
    expect(wrong).toEqual([]);
  }, 120_000);

  browserIt('offers a section filter, and finds API pages in the second index', async () => {
    const page = await view('/', VIEWS[0]);
    await page.locator('site-search button[data-open-modal]').first().click();
    const hits = await search(page, 'RedactionFailedError');
    expect(hits[0]).toBe('/api/wopkit/runtime/classes/redactionfailederror/');
    const filters = await page.locator('dialog[open] .pagefind-ui__filter-value, dialog[open] .pagefind-ui__filter-label, dialog[open] legend').allTextContents();
    expect(filters.join(' ')).toMatch(/section/i);
    await page.context().close();
  }, 60_000);
});

describe('the playground in the browser', () => {
  browserIt('reports, in the page, what wopkit validate reports for every corpus example of every type', async () => {
    const page = await view('/playground/', VIEWS[0]);
    const types = await page.locator('.pg-type option').evaluateAll((os) => os.map((o) => ({ title: (o as HTMLOptionElement).value, src: (o as HTMLOptionElement).dataset.src! })));
    const scratch = mkdtempSync(join(tmpdir(), 'wopkit-pg-'));
    const mismatches: string[] = [];
    let compared = 0;
    try {
      for (const t of types) {
        const file = JSON.parse(readFileSync(join(DIST, t.src), 'utf8')) as PlaygroundFile;
        const type = file.types.find((x) => x.title === t.title)!;
        const instances = [...type.examples.valid, ...type.examples.invalid].map((e) => e.instance);
        if (instances.length === 0) continue;
        const paths = instances.map((x, i) => {
          const p = join(scratch, `${t.title}-${i}.json`);
          writeFileSync(p, `${JSON.stringify(x, null, 2)}\n`);
          return p;
        });
        let out = '';
        await validate({ command: 'validate', args: [t.title, ...paths], format: 'json', root: resolve('.'), flags: new Set() }, { out: (s) => (out += s), err: () => {} });
        const expected = (JSON.parse(out) as { results: { valid: boolean; failures: { instancePath: string; keyword: string; message: string }[] }[] }).results.map((r) => (r.valid ? 'valid' : r.failures.map((f) => `${f.instancePath || '/'} ${f.keyword} ${f.message}`).join(' | ')));
        await page.locator('.pg-type').selectOption(t.title);
        await page.waitForFunction((title) => document.querySelector('.pg-result')?.textContent?.includes(title) && !document.querySelector('wopkit-validator')?.hasAttribute('aria-busy'), t.title);
        const shown = (await page.evaluate((n) => {
          const select = document.querySelector<HTMLSelectElement>('.pg-example')!;
          const out: string[] = [];
          for (let i = 0; i < n; i++) {
            select.value = String(i);
            select.dispatchEvent(new Event('change'));
            const host = document.querySelector<HTMLElement>('wopkit-validator')!;
            out.push(host.dataset.verdict === 'valid' ? 'valid' : [...document.querySelectorAll('.pg-failure')].map((li) => `${li.querySelector('.pg-pointer')!.textContent} ${li.querySelector('.pg-kw')!.textContent} ${li.querySelector('.pg-msg')!.textContent}`).join(' | '));
          }
          return out;
        }, instances.length)) as string[];
        for (const [i, s] of shown.entries()) {
          compared++;
          if (s !== expected[i]) mismatches.push(`${t.title} #${i}: page "${s}" vs CLI "${expected[i]}"`);
        }
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    await page.context().close();
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(500);
  }, 240_000);

  browserIt('a schema page loads its validator only when the box is in view, and only its own module', async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => { if (r.url().includes('/_astro/') && r.url().endsWith('.js')) scripts.push(new URL(r.url()).pathname); });
    await page.goto(`${site.base}/schemas/openwop/memory-index/`, { waitUntil: 'networkidle' });
    // One validator module per type (generated/validators/by-type/<Title>.js): the chunks carry the type's name.
    const validatorChunks = () => scripts.filter((s) => /\/(MemoryIndex|MemoryEntry|Capabilities|RunEvent\w*|ErrorEnvelope)\.[\w-]+\.js$/.test(s));
    expect(validatorChunks(), 'nothing before the box is in view').toEqual([]);
    await page.locator('wopkit-validator').scrollIntoViewIfNeeded();
    await page.waitForSelector('wopkit-validator[data-verdict]');
    expect(validatorChunks().some((s) => /\/MemoryIndex\./.test(s))).toBe(true);
    expect(validatorChunks().filter((s) => /\/(Capabilities|RunEvent\w*|ErrorEnvelope)\./.test(s))).toEqual([]);
    expect(await page.locator('.pg-result').textContent()).toContain('Valid MemoryIndex');
    await context.close();
  });

  browserIt('a malformed document gets its line and column; the permalink carries the document back', async () => {
    const page = await view('/playground/', VIEWS[2]);
    await page.locator('.pg-input').fill('{\n  "id": "m",\n  "content": nope\n}\n');
    await page.waitForFunction(() => document.querySelector('wopkit-validator')?.getAttribute('data-verdict') === 'malformed');
    expect(await page.locator('.pg-result').textContent()).toContain('malformed JSON at line 3, column 14');
    expect(await page.locator('.pg-backdrop .pg-marked').textContent()).toContain('"content": nope');
    const link = new URL(page.url()).hash;
    await page.screenshot({ path: join(SHOTS, 'playground-malformed-390-light.png') });
    const again = await view(`/playground/${link}`, VIEWS[0]);
    expect(await again.locator('.pg-input').inputValue()).toBe('{\n  "id": "m",\n  "content": nope\n}\n');
    await again.context().close();
    await page.context().close();
  });
});

describe('accessibility (axe-core)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    browserIt(`no serious or critical violation on the tested pages (${scheme})`, async () => {
      const found: string[] = [];
      for (const [name, path] of Object.entries(PAGES)) {
        const page = await view(path, scheme === 'light' ? VIEWS[0] : VIEWS[1]);
        await page.addScriptTag({ path: AXE });
        const violations = (await page.evaluate(async () => {
          const r = await (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document, { resultTypes: ['violations'] });
          return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}${v.nodes.length > 3 ? ` and ${v.nodes.length - 3} more` : ''}`);
        })) as string[];
        for (const v of violations) found.push(`${name}: ${v}`);
        await page.context().close();
      }
      expect(found).toEqual([]);
    }, 240_000);
  }
});
