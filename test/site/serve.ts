/**
 * What the site's browser tests share: a static server over a built site, and Chromium (playwright-core driving
 * Debian's chromium with the launch arguments that work on this kind of machine).
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { childEnv } from '../support/child-env.ts';
import { chromiumPath } from '../support/toolchains.ts';

/** The built site the tests serve. */
export const DIST = 'site/dist';

const TYPES: Record<string, string> = {
  '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.pf_meta': 'application/octet-stream', '.wasm': 'application/wasm',
};

/** Serve `dir` on a free loopback port (directories answer with their index.html). */
export async function serveStatic(dir: string): Promise<{ base: string; close: () => void }> {
  const server = createServer((req, res) => {
    let p = normalize(join(dir, decodeURIComponent((req.url ?? '/').split('?')[0]!)));
    if (!p.startsWith(normalize(dir))) { res.statusCode = 403; res.end(); return; }
    if (existsSync(p) && statSync(p).isDirectory()) p = join(p, 'index.html');
    if (!existsSync(p)) { res.statusCode = 404; res.end('not found'); return; }
    res.setHeader('content-type', TYPES[extname(p)] ?? 'application/octet-stream');
    res.setHeader('cache-control', 'max-age=600'); // a built site does not change under the tests: let Chromium cache CSS and scripts
    createReadStream(p).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
}

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });

/** In a page: how many pixels the document is wider than the viewport (0 when it fits). */
export const PAGE_EXCESS_WIDTH = 'Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth)';

/**
 * The built site served for a test file (built first when site/dist is missing) and, when Chromium is there, one
 * browser for the whole file; screenshots go to `shots`. Registers the file's beforeAll/afterAll.
 */
export function useBuiltSite(shots: string, chromium: { readonly skip: boolean; assert: () => void }): { readonly base: string; readonly browser: Browser } {
  const state: { base?: string; browser?: Browser; close?: () => void } = {};
  beforeAll(async () => {
    if (!existsSync(join(DIST, 'index.html'))) execFileSync('npm', ['run', 'site:build'], { stdio: 'inherit', env: childEnv() });
    const served = await serveStatic(DIST);
    state.base = served.base;
    state.close = served.close;
    if (chromium.skip) return;
    chromium.assert();
    state.browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  }, 240_000);
  afterAll(async () => {
    await state.browser?.close();
    state.close?.();
  });
  return {
    get base() { return state.base!; },
    get browser() { return state.browser!; },
  };
}
