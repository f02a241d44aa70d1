/**
 * The API reference's sidebar group, one sub-group per package subpath, built from the API index the typedoc plugin
 * writes (starlight-typedoc's own group would list every one of the ~400 API pages in every page of the site,
 * ~100 kB each). Each sub-group links the subpath's page (its functions and variables, and a table of everything
 * else) and one page per kind whose entries have their own pages (Classes, Interfaces, Type Aliases). A Starlight
 * plugin that runs after starlight-typedoc, when the index exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { HookParameters, StarlightPlugin } from '@astrojs/starlight/types';
import type { ApiIndex } from './api-links.ts';

type SidebarItem = NonNullable<HookParameters<'config:setup'>['config']['sidebar']>[number];
type Group = Extract<SidebarItem, { items: unknown[] }>;

export function apiSidebarGroup(label: string, apiUrl: string, index: ApiIndex): Group {
  return {
    label,
    collapsed: true,
    items: [
      { label: 'Overview', link: apiUrl },
      ...Object.entries(index.modules).map(([name, m]) => ({
        label: name,
        collapsed: true,
        items: [{ label: 'Module page', link: m.url }, ...m.kindPages.map((k) => ({ label: `${k.title} (${k.count})`, link: k.url }))],
      })),
    ],
  };
}

/** Replaces the sidebar entry labelled `label` (a placeholder group) with the API group. */
export function apiSidebar(label: string, apiUrl: string, indexFile: string): StarlightPlugin {
  return {
    name: 'wopkit-api-sidebar',
    hooks: {
      'config:setup'({ config, updateConfig, command }) {
        if (command === 'preview') return;
        if (!existsSync(indexFile)) throw new Error(`${indexFile} is missing: the typedoc plugin writes it while starlight-typedoc runs (list that plugin first)`);
        const group = apiSidebarGroup(label, apiUrl, JSON.parse(readFileSync(indexFile, 'utf8')) as ApiIndex);
        const sidebar = config.sidebar?.map((item) => (typeof item === 'object' && 'items' in item && item.label === label ? group : item));
        if (sidebar !== undefined) updateConfig({ sidebar });
      },
    },
  };
}
