// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';

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
        { label: 'Other languages', link: '/other-languages/' },
        { label: 'API reference', link: '/api/', attrs: { target: '_self' } },
      ],
    }),
  ],
});
