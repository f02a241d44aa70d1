/**
 * The built site: link check over every page, and real-browser checks (playwright-core + Debian Chromium) of the
 * home page, the RFC index, an RFC page, a schema page and the interop matrix, with screenshots in
 * test-results/screenshots/. Builds the site first when site/dist is missing (the main job builds it in CI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { checkLinks } from '../../scripts/check-links.ts';
import { childEnv } from '../support/child-env.ts';
import { chromiumPath, toolchain } from '../support/toolchains.ts';

const DIST = 'site/dist';
const SHOTS = 'test-results/screenshots';
const CHROMIUM = chromiumPath();
/** The browser checks need Chromium; the link check does not. */
const chromiumTool = toolchain('chromium');
const browserIt = it.skipIf(chromiumTool.skip);
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.pf_meta': 'application/octet-stream', '.wasm': 'application/wasm' };

let server: Server;
let base: string;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(DIST, 'index.html'))) execFileSync('npm', ['run', 'site:build'], { stdio: 'inherit', env: childEnv() });
  server = createServer((req, res) => {
    let p = normalize(join(DIST, decodeURIComponent((req.url ?? '/').split('?')[0]!)));
    if (!p.startsWith(normalize(DIST))) { res.statusCode = 403; res.end(); return; }
    if (existsSync(p) && statSync(p).isDirectory()) p = join(p, 'index.html');
    if (!existsSync(p)) { res.statusCode = 404; res.end('not found'); return; }
    res.setHeader('content-type', TYPES[extname(p)] ?? 'application/octet-stream');
    createReadStream(p).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  if (chromiumTool.skip) return;
  chromiumTool.assert();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'] });
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
});

async function open(path: string, shot: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const res = await page.goto(base + path);
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
    expect(await page.locator('.rfc-index tbody tr').count()).toBe(5);
    expect(await page.locator('.status-badge[data-status="Accepted"]').count()).toBe(4);
    expect(await page.locator('.status-badge[data-status="Draft"]').count()).toBe(1);
    await page.locator('.rfc-filter button[data-filter="Draft"]').click();
    expect(await page.locator('.rfc-index tbody tr:not([hidden])').count()).toBe(1);
    await page.close();
  });
  browserIt('an RFC page shows its status history, rules and tracker', async () => {
    const page = await open('/rfcs/p066/', 'rfc-p066');
    expect(await page.locator('.rfc-history li').count()).toBeGreaterThan(0);
    expect(await page.locator('#p066-d8').count()).toBe(1);
    expect(await page.locator('table.tracker tbody tr').count()).toBe(45);
    const page2 = await open('/rfcs/0068/', 'rfc-0068');
    expect(await page2.locator('.rfc-history li').count()).toBe(3);
    expect(await page2.locator('#r0068-d2').count()).toBe(1);
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
    const res = await fetch(base + raw);
    expect(((await res.json()) as { $id: string }).$id).toBe('https://wopkit.dev/schemas/openwop/v1/run-event-payloads.schema.json');
    await page.close();
  });
  browserIt('the interop matrix shows the reference host’s results with outcome cells and an evidence link', async () => {
    const page = await open('/interop/', 'interop');
    expect(await page.locator('table.interop thead th').nth(1).textContent()).toContain('wopkit-reference-host');
    const cell = page.locator('tr[data-scenario="commitment-fired"] td.outcome').first();
    expect(await cell.getAttribute('data-outcome')).toBe('pass');
    const evidence = await page.locator('a', { hasText: 'evidence' }).first().getAttribute('href');
    expect(((await (await fetch(base + evidence)).json()) as { host: { name: string } }).host.name).toBe('wopkit-reference-host');
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
