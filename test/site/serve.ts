/**
 * What the site's browser tests share: a static server over a built site, and Chromium (playwright-core driving
 * Debian's chromium with the launch arguments that work on this kind of machine).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from '../support/toolchains.ts';

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
