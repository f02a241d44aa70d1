/**
 * Builds the second search index (site/src/lib/search-sections.ts): every built page placed there, which the route
 * middleware kept out of Starlight's index (its <main> has no data-pagefind-body), indexed with the same Pagefind
 * into SECONDARY_BUNDLE.
 * The search dialog merges it with its scores multiplied by SECONDARY_WEIGHT (astro.config.mjs `pagefind.mergeIndex`).
 * Runs after Starlight's own index is written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import * as pagefind from 'pagefind';
import { SECONDARY_BUNDLE } from '../lib/search-sections.ts';

/** Every .html file under `dir`, sorted (a stable index). */
function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html')).sort().map((f) => join(dir, f));
}

/** A built page's route id (`api/wopkit/host` for api/wopkit/host/index.html) and URL. */
export function routeOf(dist: string, file: string): { id: string; url: string } {
  const rel = relative(dist, file).split('\\').join('/').replace(/(^|\/)index\.html$/, '');
  return { id: rel.replace(/\/$/, ''), url: `/${rel}`.replace(/\/?$/, '/') };
}

/** A page of the second index: a Starlight page whose <main> the middleware left without data-pagefind-body. */
const SECONDARY_PAGE = /<main(?![^>]*data-pagefind-body)[^>]*>[\s\S]*data-pagefind-filter="section:/;

/** The page's <main> as Pagefind's body (the middleware took the attribute away so the first index skips it). */
const asBody = (html: string): string => html.replace(/<main(?=[\s>])/, '<main data-pagefind-body');

export function secondarySearch(): AstroIntegration {
  return {
    name: 'wopkit:secondary-search',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const dist = fileURLToPath(dir);
        const started = performance.now();
        const { index, errors } = await pagefind.createIndex({});
        if (index === undefined) throw new Error(`second search index: ${errors.join('; ')}`);
        let pages = 0;
        for (const file of htmlFiles(dist)) {
          const { url } = routeOf(dist, file);
          const html = readFileSync(file, 'utf8');
          if (file.endsWith(`${sep}404.html`) || !SECONDARY_PAGE.test(html)) continue;
          const added = await index.addHTMLFile({ url, content: asBody(html) });
          if (added.errors.length > 0) throw new Error(`second search index, ${url}: ${added.errors.join('; ')}`);
          pages++;
        }
        const written = await index.writeFiles({ outputPath: join(dist, SECONDARY_BUNDLE) });
        if (written.errors.length > 0) throw new Error(`second search index: ${written.errors.join('; ')}`);
        await pagefind.close();
        logger.info(`second search index: ${pages} pages in ${((performance.now() - started) / 1000).toFixed(2)} s`);
      },
    },
  };
}
