/**
 * The built site: link check over every page; real-browser checks (playwright-core + Debian Chromium) of the home
 * page, the RFC index, an RFC page, a schema page, the interop matrix, the API reference and search, with
 * screenshots in test-results/screenshots/; the layout rules (no page wider than a 390 px screen, over every built
 * page; the required badge on one line at 1280 px; tables that fit, reflow or scroll inside their own box with a cue); and no
 * dead ends (every page has the site navigation; schema pages and API pages link each other); the diagrams drawn and
 * readable at 1280 and 390 px, light and dark. Builds the site first
 * when site/dist is missing (the main job builds it in CI).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { checkLinks, htmlFiles } from '../../scripts/check-links.ts';
import type { ApiIndex } from '../../site/src/lib/api-links.ts';
import type { SchemaDoc, SiteIndex } from '../../generator/site-data-format.ts';
import { toolchain } from '../support/toolchains.ts';
import { DIST, PAGE_EXCESS_WIDTH, useBuiltSite } from './serve.ts';
import { REQUIREMENTS, isUnwitnessedMust } from '../../conformance/requirements.ts';

const SHOTS = 'test-results/screenshots';
/** The browser checks need Chromium; the link check does not. */
const chromiumTool = toolchain('chromium');
const browserIt = it.skipIf(chromiumTool.skip);

const site = useBuiltSite(SHOTS, chromiumTool);

async function open(path: string, shot: string): Promise<Page> {
  const page = await site.browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const res = await page.goto(site.base + path);
  expect(res?.status(), path).toBe(200);
  await page.screenshot({ path: join(SHOTS, `${shot}.png`), fullPage: false });
  return page;
}

describe('built site', () => {
  it('has no broken internal link or anchor', () => {
    const r = checkLinks(DIST);
    expect(r.pages).toBeGreaterThan(40);
    expect(r.broken.map((b) => `${b.page} → ${b.href} (${b.reason})`)).toEqual([]);
  });
  browserIt('home page says what this is and where to start', async () => {
    const page = await open('/', 'home');
    await expect(page.locator('h1').first().textContent()).resolves.toContain('wopkit');
    expect(await page.locator('a[href="/spec/"]').count()).toBeGreaterThan(0);
    expect(await page.locator('h2', { hasText: 'Where to start' }).count()).toBe(1);
    await page.close();
  });
  browserIt('RFC index shows coloured status badges and filters by status', async () => {
    const page = await open('/rfcs/', 'rfc-index');
    // The five restatements and the project's own draft (WK-0001, the proposed memory floor).
    expect(await page.locator('.rfc-index tbody tr').count()).toBe(6);
    expect(await page.locator('.status-badge[data-status="Accepted"]').count()).toBe(4);
    expect(await page.locator('.status-badge[data-status="Draft"]').count()).toBe(2);
    await page.locator('.rfc-filter button[data-filter="Draft"]').click();
    expect(await page.locator('.rfc-index tbody tr:not([hidden])').count()).toBe(2);
    await page.close();
  });
  browserIt('an RFC page shows its status history, rules and tracker', async () => {
    const page = await open('/rfcs/p066/', 'rfc-p066');
    expect(await page.locator('.rfc-history li').count()).toBeGreaterThan(0);
    expect(await page.locator('#p066-d8').count()).toBe(1);
    expect(await page.locator('table.tracker tbody tr').count()).toBe(56);
    const page2 = await open('/rfcs/0068/', 'rfc-0068');
    expect(await page2.locator('.rfc-history li').count()).toBe(3);
    expect(await page2.locator('#r0068-d2').count()).toBe(1);
    // Every rule shows its requirement id (conformance/requirements/), linked to the requirements page.
    expect(await page2.locator('.rule-requirement').count()).toBe([...REQUIREMENTS.values()].filter((r) => r.section.document === 'RFCs/0068-memory-consolidation-and-commitments.md').length);
    expect(await page2.locator('.rule-requirement a').first().getAttribute('href')).toMatch(/^\/interop\/requirements\/#openwop\.requirement\.proposed\.0068\./);
    await page.close();
    await page2.close();
  });
  browserIt('the schema index lists every schema file, protocol shapes apart from the host test seams', async () => {
    const page = await open('/schemas/', 'schema-index');
    const files = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.schema.json'));
    const all = [...files('schemas/openwop/v1'), ...files('schemas/inquirium/v1')];
    expect(await page.locator('main table tbody tr').count()).toBe(all.length);
    const seams = page.locator('h3#openwop-host-seams + table tbody tr');
    expect(await seams.count()).toBe(all.filter((f) => f.startsWith('host-sample-')).length);
    expect(await page.locator('h3#openwop-protocol + table tbody tr', { hasText: 'host-sample-' }).count()).toBe(0);
    // The description column is readable, not squeezed out by long file names.
    const what = await page.locator('main table tbody tr td:nth-child(3)').first().boundingBox();
    expect(what?.width ?? 0).toBeGreaterThan(150);
    await page.close();
  });
  browserIt('a schema page shows a field row, an example with its expected failure, the TypeScript and a raw download', async () => {
    const page = await open('/schemas/openwop/run-event-payloads/', 'schema-run-event-payloads');
    const row = page.locator('#CommitmentFiredPayload tr[data-field="memoryRef"]');
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('required');
    const invalid = page.locator('#CommitmentFiredPayload .example.invalid summary', { hasText: 'missing-memory-ref' });
    expect(await invalid.textContent()).toMatch(/fails required at \//);
    expect(await page.locator('#CommitmentFiredPayload details summary', { hasText: 'Generated TypeScript' }).count()).toBe(1);
    const raw = await page.locator('a[download]').getAttribute('href');
    const res = await fetch(site.base + raw);
    expect(((await res.json()) as { $id: string }).$id).toBe('https://wopkit.dev/schemas/openwop/v1/run-event-payloads.schema.json');
    await page.close();
  });
  browserIt('the interop matrix shows the reference host’s results with outcome cells and an evidence link', async () => {
    const page = await open('/interop/', 'interop');
    expect(await page.locator('table.interop thead th').nth(1).textContent()).toContain('wopkit-reference-host');
    const cell = page.locator('tr[data-scenario="commitment-fired"] td.outcome').first();
    expect(await cell.getAttribute('data-outcome')).toBe('pass');
    const evidence = await page.locator('a', { hasText: 'evidence' }).first().getAttribute('href');
    expect(((await (await fetch(site.base + evidence)).json()) as { host: { name: string } }).host.name).toMatch(/^wopkit-reference-host \((in-memory|SQLite|PostgreSQL)\)$/);
    // One column per back-end's results file: the three stores side by side.
    const heads = await page.locator('table.interop thead th').allTextContents();
    for (const store of ['in-memory', 'SQLite', 'PostgreSQL']) expect(heads.some((h) => h.includes(`(${store})`)), store).toBe(true);
    await page.close();
  });
  browserIt('the requirements page lists every requirement id with its witness class and leads with the MUSTs that have no witness', async () => {
    const page = await open('/interop/requirements/', 'requirements');
    const rows = [...REQUIREMENTS.values()];
    expect(await page.locator('tr[data-requirement]').count()).toBe(rows.length);
    const musts = rows.filter((r) => r.force === 'MUST' || r.force === 'MUST NOT');
    expect(await page.locator('#no-witness strong').textContent()).toBe(`${musts.filter(isUnwitnessedMust).length} of ${musts.length}`);
    expect(await page.locator('tr[data-no-witness="true"]').count()).toBe(musts.filter(isUnwitnessedMust).length);
    const rule = page.locator('tr[data-requirement="openwop.requirement.proposed.0068.d2-idempotent-pass"] th a');
    expect(await rule.getAttribute('href')).toBe('/rfcs/0068/#r0068-d2');
    await page.close();
  });
  browserIt('the other-languages page lists every target and its known limitations', async () => {
    const page = await open('/other-languages/', 'other-languages');
    for (const name of ['Python (dataclasses)', 'Go', 'Rust (serde)', 'C# (Newtonsoft.Json)', 'Kotlin (types only)', 'Swift (Codable)']) {
      expect(await page.locator('h2', { hasText: name }).count(), name).toBeGreaterThan(0);
    }
    expect(await page.getByText('Discriminated unions').count()).toBeGreaterThan(0);
    await page.close();
  });
  browserIt('offline search finds a schema by a field name', async () => {
    const page = await open('/', 'search');
    await page.locator('site-search button[data-open-modal]').first().click();
    await page.locator('dialog[open] input').fill('enqueuedRunId');
    const result = page.locator('dialog[open] .pagefind-ui__result-link').first();
    await result.waitFor({ timeout: 15_000 });
    const titles = await page.locator('dialog[open] .pagefind-ui__result-link').allTextContents();
    expect(titles.join(' | ')).toMatch(/run-event-payloads|commitment/i);
    await page.screenshot({ path: join(SHOTS, 'search.png') });
    await page.close();
  });
});

/** Every built page, as a site path (`/schemas/openwop/memory-entry/index.html`) and its file. */
const builtPages = (): { path: string; file: string }[] => htmlFiles(DIST).map((file) => ({ path: `/${relative(DIST, file).split('\\').join('/')}`, file }));
/** Pages drawn with Starlight's splash template (no sidebar, by design): the home page and the 404 page. */
const SPLASH = new Set(['/index.html', '/404.html']);
const siteIndex = (): SiteIndex => JSON.parse(readFileSync('generated/site-data/index.json', 'utf8')) as SiteIndex;
const schemaDocs = (): SchemaDoc[] => siteIndex().families.flatMap((f) => f.schemas.map((s) => JSON.parse(readFileSync(join('generated/site-data', s.data), 'utf8')) as SchemaDoc));
/** The sidebar's markup of a page (Starlight renders the whole sidebar into every page). */
const sidebarOf = (html: string): string => html.slice(html.indexOf('id="starlight__sidebar"'), html.indexOf('</sl-sidebar-pane>'));
/** Pages checked at once by the all-pages layout check. */
const TABS = 3;
/** In the page: how many pixels the document is wider than the viewport (0 when it fits). */
const ids = (html: string): Set<string> => new Set([...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]!));

/** Whether an absolute site href names a built page and, when it has a fragment, an element on it. */
function resolves(href: string): boolean {
  const [path = '', fragment] = href.split('#');
  const file = join(DIST, decodeURIComponent(path), path.endsWith('/') ? 'index.html' : '');
  if (!existsSync(file) || !statSync(file).isFile()) return false;
  return fragment === undefined || ids(readFileSync(file, 'utf8')).has(decodeURIComponent(fragment));
}

describe('site navigation (no dead ends)', () => {
  it('every page has the header (a link home and the search), and every page but the splash pages the sidebar', () => {
    const pages = builtPages();
    expect(pages.length).toBeGreaterThan(400);
    const missing: string[] = [];
    for (const { path, file } of pages) {
      const html = readFileSync(file, 'utf8');
      if (!/<a href="\/" class="site-title/.test(html)) missing.push(`${path}: no link home`);
      if (!html.includes('<site-search')) missing.push(`${path}: no search`);
      if (!SPLASH.has(path) && !(html.includes('aria-label="Main"') && html.includes('id="starlight__sidebar"'))) missing.push(`${path}: no sidebar`);
    }
    expect(missing).toEqual([]);
  });
  it('the home page links to every top-level entry of the sidebar', () => {
    const sidebar = sidebarOf(readFileSync(join(DIST, 'rfcs/index.html'), 'utf8'));
    const home = readFileSync(join(DIST, 'index.html'), 'utf8');
    for (const href of ['/spec/', '/rfcs/', '/schemas/', '/interop/', '/benchmarks/', '/api/']) {
      expect(sidebar, href).toContain(`href="${href}"`);
      expect(home, href).toContain(`href="${href}"`);
    }
  });
  it('the sidebar lists every RFC and every schema, the host test seams in their own group', () => {
    const sidebar = sidebarOf(readFileSync(join(DIST, 'interop/index.html'), 'utf8'));
    for (const f of readdirSync('RFCs').filter((x) => x.endsWith('.md'))) {
      const number = /^number:\s*"?([^"\n]+)"?/m.exec(readFileSync(join('RFCs', f), 'utf8'))![1]!;
      expect(sidebar, f).toContain(`href="/rfcs/${number.toLowerCase()}/"`);
    }
    for (const f of siteIndex().families) {
      for (const s of f.schemas) expect(sidebar, s.stem).toContain(`href="/schemas/${f.name}/${s.stem}/"`);
    }
    const seamsGroup = sidebar.slice(sidebar.indexOf('>Host test seams<'));
    const seamsLinks = [...seamsGroup.slice(0, seamsGroup.indexOf('</details>')).matchAll(/href="\/schemas\/[^/]+\/([^/]+)\/"/g)].map((m) => m[1]);
    const seams = siteIndex().families.flatMap((f) => f.schemas.map((s) => s.stem)).filter((s) => s.startsWith('host-sample-'));
    expect(seamsLinks.sort()).toEqual(seams.sort());
  });
});

describe('API reference', () => {
  const apiIndex = (): ApiIndex => JSON.parse(readFileSync('site/generated/api-index.json', 'utf8')) as ApiIndex;
  it('has a page for every package subpath', () => {
    const modules = Object.keys(apiIndex().modules);
    expect(modules).toEqual(['wopkit', 'wopkit/validators', 'wopkit/guards', 'wopkit/run-events', 'wopkit/v2', 'wopkit/v2/validators', 'wopkit/v2/guards', 'wopkit/v2/run-events', 'wopkit/runtime', 'wopkit/host', 'wopkit/conformance']);
    for (const m of modules) expect(resolves(apiIndex().modules[m]!.url), m).toBe(true);
  });
  browserIt('API pages render inside the site shell: sidebar with a group per subpath, and search', async () => {
    const index = apiIndex();
    const page = await open(index.modules.wopkit!.exports.MemoryEntry!, 'api-memoryentry');
    for (const m of Object.keys(index.modules)) {
      const res = await page.goto(site.base + index.modules[m]!.url);
      expect(res?.status(), m).toBe(200);
      expect(await page.locator('nav[aria-label="Main"] #starlight__sidebar').count(), m).toBe(1);
      expect(await page.locator('site-search button[data-open-modal]').count(), m).toBeGreaterThan(0);
      const groups = await page.locator('#starlight__sidebar summary .group-label').allTextContents();
      for (const other of Object.keys(index.modules)) expect(groups.map((g) => g.trim()), `${m}: group ${other}`).toContain(other);
      expect(await page.locator(`#starlight__sidebar a[href="${index.modules[m]!.url}"]`).count(), `${m}: its own page in the sidebar`).toBeGreaterThan(0);
    }
    await page.close();
  });
  it('every schema page links each of its types to its API type, validator and guards, and every link resolves', () => {
    const problems: string[] = [];
    for (const doc of schemaDocs()) {
      const html = readFileSync(join(DIST, 'schemas', doc.family, doc.stem, 'index.html'), 'utf8');
      const links = [...html.matchAll(/<a href="([^"]+)" data-api-kind="(type|validator|guard)"/g)].map((m) => ({ href: m[1]!, kind: m[2]! }));
      const types = doc.definitions.filter((d) => d.isType);
      const count = (kind: string) => links.filter((l) => l.kind === kind).length;
      if (count('type') !== types.length) problems.push(`${doc.stem}: ${count('type')} type links for ${types.length} types`);
      if (count('validator') !== types.filter((d) => d.validator !== null).length) problems.push(`${doc.stem}: validator links`);
      if (count('guard') !== 2 * types.filter((d) => d.guards !== null).length) problems.push(`${doc.stem}: guard links`);
      for (const l of links) if (!resolves(l.href)) problems.push(`${doc.stem}: ${l.href} does not resolve`);
    }
    expect(problems).toEqual([]);
  });
  it('every API page of a generated type links back to its schema definition', () => {
    const exports = apiIndex().modules.wopkit!.exports;
    const problems: string[] = [];
    for (const doc of schemaDocs()) {
      for (const d of doc.definitions.filter((x) => x.isType)) {
        const page = exports[d.title];
        const back = `/schemas/${doc.family}/${doc.stem}/#${d.anchor}`;
        if (page === undefined) problems.push(`${d.title}: no API page`);
        else if (!readFileSync(join(DIST, page, 'index.html'), 'utf8').includes(`href="${back}"`)) problems.push(`${d.title}: no link to ${back}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('layout', () => {
  browserIt('no page body overflows horizontally at 390 px (every built page)', async () => {
    // One browser, a few tabs reused across all pages (CSS and scripts come from Chromium's cache after the first).
    const context = await site.browser.newContext({ viewport: { width: 390, height: 844 } });
    const queue = builtPages().map((p) => p.path);
    const overflowing: string[] = [];
    const started = Date.now();
    await Promise.all(
      Array.from({ length: TABS }, async () => {
        const page = await context.newPage();
        for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
          await page.goto(site.base + path);
          const excess = (await page.evaluate(PAGE_EXCESS_WIDTH)) as number;
          if (excess > 0) overflowing.push(`${path}: ${excess}px too wide`);
        }
      }),
    );
    await context.close();
    process.stderr.write(`390 px overflow check: ${builtPages().length} pages in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    expect(overflowing.sort()).toEqual([]);
  }, 240_000);
  browserIt('the required badge stays on one line at 1280 px', async () => {
    const page = await open('/schemas/openwop/run-event-payloads/', 'required-badge');
    const badges = page.locator('table.fields .field-name .sl-badge', { hasText: 'required' });
    expect(await badges.count()).toBeGreaterThan(10);
    const sizes = await badges.evaluateAll((els) =>
      els.map((el) => ({ lines: el.getClientRects().length, height: el.getBoundingClientRect().height, font: parseFloat(el.ownerDocument.defaultView!.getComputedStyle(el).fontSize) })),
    );
    for (const s of sizes) {
      expect(s.lines).toBe(1);
      expect(s.height).toBeLessThan(2 * s.font + 8); // one line of text plus the badge's padding and border
    }
    await page.close();
  });
  browserIt('tables at 390 px fit, reflow (schema tables) or scroll inside their own box with a shadow cue, while the page does not', async () => {
    const page = await site.browser.newPage({ viewport: { width: 390, height: 844 } });
    for (const path of ['/schemas/openwop/memory-entry/', '/api/wopkit/interfaces/memoryentry/', '/benchmarks/', '/interop/']) {
      await page.goto(site.base + path);
      await page.screenshot({ path: join(SHOTS, `narrow${path.replace(/\//g, '_')}.png`) });
      const tables = await page.locator('main table').evaluateAll((els) =>
        els.filter((t) => t.getClientRects().length > 0).map((t) => {
          const cs = t.ownerDocument.defaultView!.getComputedStyle(t);
          return { schema: t.classList.contains('schema-table'), overflowX: cs.overflowX, display: cs.display, scrolls: t.scrollWidth > t.clientWidth + 1, cue: cs.backgroundImage.includes('gradient') };
        }),
      );
      expect(tables.length, path).toBeGreaterThan(0);
      for (const t of tables) {
        if (t.schema) expect(t.scrolls, `${path}: a schema table reflows`).toBe(false);
        if (t.scrolls) {
          expect(['auto', 'scroll'], path).toContain(t.overflowX);
          expect(t.cue, path).toBe(true);
        }
      }
      // The data tables of these two are wider than a phone by nature: they exercise the scroll and its cue.
      if (path === '/benchmarks/' || path === '/interop/') expect(tables.some((t) => t.scrolls), `${path}: some table is wider than the screen and scrolls`).toBe(true);
      expect(await page.evaluate(PAGE_EXCESS_WIDTH), path).toBe(0);
    }
    await page.close();
  });
});

describe('diagrams', () => {
  /** In the page: every diagram's facts — drawn nodes and edges, table rows, scale, text fitting its box, colours. */
  const DIAGRAM_FACTS = `[...document.querySelectorAll('section.diagram')].map((s) => {
    const svg = s.querySelector('svg.dg-svg');
    const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 0;
    const nodes = [...s.querySelectorAll('.dg-node')];
    const overflowing = nodes.filter((n) => {
      const r = n.querySelector('rect').getBBox();
      return [...n.querySelectorAll('text')].some((t) => { const b = t.getBBox(); return b.x < r.x - 1 || b.x + b.width > r.x + r.width + 1; });
    }).map((n) => n.getAttribute('data-node'));
    const fill = (sel) => { const el = s.querySelector(sel); return el ? getComputedStyle(el).fill : null; };
    const scroller = s.querySelector('.diagram-scroll');
    return {
      id: s.getAttribute('data-diagram'), nodes: nodes.length, edges: s.querySelectorAll('.dg-edge[data-from]').length,
      rows: s.querySelectorAll('table.diagram-table tbody tr').length, scale, fontPx: parseFloat(getComputedStyle(s.querySelector('svg text')).fontSize) * scale, overflowing,
      text: fill('.dg-node text'), box: fill('.dg-node rect'), labelsOutside: [...s.querySelectorAll('.dg-label')].filter((g) => { const r = g.querySelector('rect').getBBox(); return [...g.querySelectorAll('text')].some((t) => { const b = t.getBBox(); return b.x < r.x - 1 || b.x + b.width > r.x + r.width + 1; }); }).length, title: svg?.querySelector('title')?.textContent ?? '',
      scrollsInOwnBox: scroller ? getComputedStyle(scroller).overflowX : null,
    };
  })`;
  interface Facts { id: string; nodes: number; edges: number; rows: number; scale: number; fontPx: number; overflowing: string[]; labelsOutside: number; text: string | null; box: string | null; title: string; scrollsInOwnBox: string | null }

  for (const [width, scheme] of [[1280, 'light'], [1280, 'dark'], [390, 'light'], [390, 'dark']] as const) {
    browserIt(`every diagram is drawn and readable at ${width} px (${scheme}): nodes, an edge table row per edge, text ≥ 12 px drawn 1:1 inside its box, every label inside its box, text and box in different colours`, async () => {
      const context = await site.browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
      await context.addInitScript((s) => localStorage.setItem('starlight-theme', s), scheme);
      const page = await context.newPage();
      await page.goto(`${site.base}/diagrams/`);
      await page.screenshot({ path: join(SHOTS, `diagrams-${width}-${scheme}.png`), fullPage: true });
      const facts = (await page.evaluate(DIAGRAM_FACTS)) as Facts[];
      expect(facts.length).toBeGreaterThanOrEqual(6);
      for (const f of facts) {
        expect(f.nodes, f.id).toBeGreaterThanOrEqual(2);
        expect(f.rows, f.id).toBe(f.edges);
        expect(f.fontPx, `${f.id} text size`).toBeGreaterThanOrEqual(12);
        expect(f.scale, `${f.id} drawn at its natural size`).toBeCloseTo(1, 2);
        expect(f.overflowing, `${f.id} node text outside its box`).toEqual([]);
        expect(f.labelsOutside, `${f.id} edge label text outside its box`).toBe(0);
        expect(f.text, f.id).not.toBe(f.box);
        expect(f.title, f.id).not.toBe('');
        expect(['auto', 'scroll'], f.id).toContain(f.scrollsInOwnBox);
      }
      expect(await page.evaluate(PAGE_EXCESS_WIDTH)).toBe(0);
      await context.close();
    });
  }

  browserIt('a schema page shows its reference diagram, each box a link to a schema page, readable at 390 px', async () => {
    for (const width of [1280, 390]) {
      const page = await site.browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${site.base}/schemas/openwop/memory-entry/`);
      await page.locator('#references').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `schema-references-${width}.png`) });
      const facts = (await page.evaluate(DIAGRAM_FACTS)) as Facts[];
      expect(facts).toHaveLength(1);
      expect(facts[0]!.fontPx).toBeGreaterThanOrEqual(12);
      expect(facts[0]!.overflowing).toEqual([]);
      const hrefs = await page.locator('.schema-refs svg a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs.length).toBeGreaterThan(0);
      for (const h of hrefs) expect(resolves(h!), h!).toBe(true);
      expect(await page.evaluate(PAGE_EXCESS_WIDTH)).toBe(0);
      await page.close();
    }
  });

  it('every schema page that references or is referenced by another schema file has a reference diagram', () => {
    const missing = siteIndex().families.flatMap((f) => f.schemas).filter((s) => {
      const doc = JSON.parse(readFileSync(join('generated/site-data', s.data), 'utf8')) as SchemaDoc;
      const linked = doc.definitions.some((d) => [...d.references, ...d.referencedBy].some((l) => l.stem !== doc.stem || l.family !== doc.family));
      const html = readFileSync(join(DIST, 'schemas', doc.family, doc.stem, 'index.html'), 'utf8');
      return linked !== html.includes('id="references"');
    });
    expect(missing.map((s) => s.stem)).toEqual([]);
  });
});
