// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import { existsSync } from 'node:fs';

/** The other-languages page exists when the other-language emitter has written its limitations document. */
const hasOtherLanguages = existsSync(new URL('../generated/other-languages/LIMITATIONS.md', import.meta.url));

export default defineConfig({
  site: 'https://wopkit.dev',
  trailingSlash: 'always',
  integrations: [
    starlight({
      title: 'wopkit',
      description: 'OpenWOP agent memory and the Inquirium assistant channel: spec, RFCs, schemas and interop.',
      sidebar: [
        { label: 'Start here', link: '/' },
        { label: 'Specification', items: [{ autogenerate: { directory: 'spec' } }] },
        { label: 'RFCs', link: '/rfcs/' },
        { label: 'Schema reference', link: '/schemas/' },
        { label: 'Interop matrix', link: '/interop/' },
        ...(hasOtherLanguages ? [{ label: 'Other languages', link: '/other-languages/' }] : []),
        { label: 'API reference', link: '/api/', attrs: { target: '_self' } },
      ],
    }),
  ],
});
