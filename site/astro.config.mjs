// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import starlightTypeDoc from 'starlight-typedoc';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_INDEX_FILE } from './src/lib/api-links.ts';
import { apiSidebar } from './src/lib/api-sidebar.ts';
import { readSiteIndex, rfcSidebar, schemaSidebar } from './src/lib/sidebar.ts';
import { API_DIR } from './src/lib/urls.ts';
import { DOCS_EDIT_BASE } from './src/lib/edit-links.ts';
import { secondarySearch } from './src/integrations/secondary-search.ts';
import { SEARCH_RANKING, SECONDARY_BUNDLE, SECONDARY_WEIGHT } from './src/lib/search-sections.ts';

const repo = (/** @type {string} */ path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
/** The other-languages page exists when the other-language emitter has written its limitations document. */
const hasOtherLanguages = existsSync(repo('generated/other-languages/LIMITATIONS.md'));

const API_LABEL = 'API reference';

export default defineConfig({
  site: 'https://wopkit.dev',
  trailingSlash: 'always',
  integrations: [
    starlight({
      title: 'wopkit',
      description: 'OpenWOP agent memory and the Inquirium assistant channel: spec, RFCs, schemas and interop.',
      customCss: ['./src/styles/site.css'],
      // "Edit page" on every written page of the docs collection; pages built from data set their own (edit-links.ts),
      // and the API pages get theirs from the route middleware.
      editLink: { baseUrl: DOCS_EDIT_BASE },
      routeMiddleware: './src/route-middleware.ts',
      components: { PageTitle: './src/components/PageTitle.astro', MarkdownContent: './src/components/MarkdownContent.astro', Search: './src/components/Search.astro' },
      // Spec, RFCs and schemas first: every other page is in a second index merged with its scores down-weighted
      // (src/lib/search-sections.ts).
      pagefind: { ranking: SEARCH_RANKING, mergeIndex: [{ bundlePath: SECONDARY_BUNDLE, indexWeight: SECONDARY_WEIGHT, ranking: SEARCH_RANKING }] },
      plugins: [
        // The API reference of every package subpath, as Markdown pages in the docs collection (src/content/docs/api/,
        // not committed). Entry points, the zero-warning rule and the plugin that names modules and links back to the
        // schema reference: typedoc.json and site/typedoc/.
        starlightTypeDoc({
          output: API_DIR,
          typeDoc: {
            entryFileName: 'index',
            hideBreadcrumbs: false,
            mergeReadme: true,
            indexFormat: 'table',
            membersWithOwnFile: ['Class', 'Interface', 'Enum', 'TypeAlias'],
            sortEntryPoints: false,
            sanitizeComments: true,
            typeDeclarationVisibility: 'compact',
            typeDeclarationFormat: 'table',
            parametersFormat: 'table',
            interfacePropertiesFormat: 'table',
            classPropertiesFormat: 'table',
            typeAliasPropertiesFormat: 'table',
            enumMembersFormat: 'table',
          },
        }),
        apiSidebar(API_LABEL, `/${API_DIR}/`, repo(`site/${API_INDEX_FILE}`)),
      ],
      sidebar: [
        { label: 'Start here', link: '/' },
        { label: 'Specification', collapsed: true, items: [{ autogenerate: { directory: 'spec' } }] },
        rfcSidebar(repo('RFCs')),
        schemaSidebar(readSiteIndex(repo('generated/site-data'))),
        { label: 'HTTP API reference', link: '/http-api/' },
        { label: 'Validator playground', link: '/playground/' },
        { label: 'Widget gallery', link: '/widgets/' },
        { label: 'Diagrams', link: '/diagrams/' },
        { label: 'Interop matrix', link: '/interop/' },
        { label: 'Requirements', link: '/interop/requirements/' },
        { label: 'Benchmarks', link: '/benchmarks/' },
        { label: 'Schema changelog', link: '/changelog/' },
        { label: 'OpenWOP v1 → v2 migration', link: '/migration/' },
        ...(hasOtherLanguages ? [{ label: 'Other languages', link: '/other-languages/' }] : []),
        { label: API_LABEL, items: [] }, // filled by apiSidebar from the API index
      ],
    }),
    secondarySearch(),
  ],
});
