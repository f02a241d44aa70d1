/**
 * The site's interop matrix and benchmark components in Chromium, over synthetic data the real site does not have
 * yet: several hosts, an upstream suite and history (test/site/fixtures/interop/results/), benchmark files with the
 * common summary (test/site/fixtures/bench/results/). Built as a small Astro site (test/site/fixtures/site/).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../support/child-env.ts';
import { toolchain } from '../support/toolchains.ts';
import { launchChromium, serveStatic } from './serve.ts';

const chromiumTool = toolchain('chromium');

describe.skipIf(chromiumTool.skip)('site components over synthetic data (fixture site in Chromium)', () => {
  const out = mkdtempSync(join(tmpdir(), 'wopkit-fixture-site-'));
  let browser: Browser;
  let base: string;
  let close: () => void;
  let page: Page;
  beforeAll(async () => {
    chromiumTool.assert();
    execFileSync('node_modules/.bin/astro', ['build', '--root', 'test/site/fixtures/site', '--outDir', out], { stdio: 'pipe', env: childEnv({ ASTRO_TELEMETRY_DISABLED: '1' }) });
    ({ base, close } = await serveStatic(out));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    close?.();
    rmSync(out, { recursive: true, force: true });
  });

  it('the interop matrix has a column per host, the upstream rows apart, history squares and a badge that loads', async () => {
    await page.goto(`${base}/`);
    expect(await page.locator('table.interop thead th.host').evaluateAll((ths) => ths.map((t) => t.getAttribute('data-host')))).toEqual(['fixture-host-a', 'fixture-host-b']);
    expect(await page.locator('tbody[data-suite="openwop-upstream"] tr[data-scenario]').count()).toBe(2);
    const upstreamB = page.locator('tbody[data-suite="openwop-upstream"] tr[data-scenario="upstream-one"] td[data-host="fixture-host-b"]');
    expect(await upstreamB.getAttribute('data-outcome')).toBe('missing');
    const alphaA = page.locator('tbody[data-suite="wopkit"] tr[data-scenario="alpha"] td[data-host="fixture-host-a"]');
    expect(await alphaA.locator('ol.history li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-outcome')))).toEqual(['fail', 'pass']);
    for (const host of ['fixture-host-a', 'fixture-host-b']) {
      const img = page.locator(`th[data-host="${host}"] img.badge`);
      await expect.poll(() => img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(50);
    }
    await page.screenshot({ path: join(out, 'interop.png') });
  });

  it('a benchmark with the common summary shows its rows, whether each goal is met, and a plot with goal lines', async () => {
    await page.goto(`${base}/bench/`);
    const section = page.locator('section[data-bench="validators"]');
    expect(await section.locator('table.bench-summary tbody tr').evaluateAll((trs) => trs.map((t) => t.getAttribute('data-met')))).toEqual(['true', 'false', 'true']);
    expect(await section.locator('figure.plot svg rect.bar').count()).toBe(3);
    expect(await section.locator('figure.plot svg line.goal').count()).toBe(3);
    expect(await section.locator('details table.bench-records').count()).toBe(1); // the other figures, folded away
    const generic = page.locator('section[data-bench="host"]');
    expect(await generic.locator('table.bench-summary').count()).toBe(0);
    expect(await generic.locator('table.bench-records tbody tr').count()).toBe(2);
    expect(await generic.locator('figure.plot svg rect.bar').count()).toBe(2);
  });
});
