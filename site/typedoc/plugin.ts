/**
 * The typedoc plugin of the site's API reference (loaded through typedoc.json, both by starlight-typedoc during
 * `npm run site:build` and by `npm run docs:api`): module names from package.json exports and introductions from their barrels, links from API entries
 * back to the schema reference, an index page per kind, the API index the schema pages and the sidebar link
 * through, and the zero-warning gate.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Application } from 'typedoc';
import { API_INDEX_FILE } from '../src/lib/api-links.ts';
import { installApiIndex } from './api-index.ts';
import { installKindPages } from './kind-pages.ts';
import { installModuleComments, readFromRepo } from './module-comments.ts';
import { installModuleNames } from './module-names.ts';
import { installSchemaBacklinks, readSchemaTargets } from './schema-backlinks.ts';
import { packageSubpaths } from './subpaths.ts';
import { installWarningsGate } from './warnings-gate.ts';

const repo = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));

export function load(app: Application): void {
  const pkg = JSON.parse(readFileSync(repo('package.json'), 'utf8')) as Parameters<typeof packageSubpaths>[0];
  const subpaths = packageSubpaths(pkg);
  installModuleNames(app, subpaths);
  installModuleComments(app, subpaths, readFromRepo(repo('.')));
  const targets = readSchemaTargets(repo('generated/site-data'), pkg.name);
  installSchemaBacklinks(app, targets);
  installKindPages(app);
  installApiIndex(app, repo(`site/${API_INDEX_FILE}`), targets);
  installWarningsGate(app);
}
