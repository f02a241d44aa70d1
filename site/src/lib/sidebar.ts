/**
 * The sidebar groups that list every RFC and every schema, built from the same sources as the pages (RFC front
 * matter, the generated site-data catalogue). Runs in the Astro config, so it reads files directly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import type { SiteIndex } from '../../../generator/site-data-format.ts';
import { rfcSlug } from './rfc-status.ts';
import { familyTitle, schemaGroups } from './schema-groups.ts';
import { schemaUrl } from './urls.ts';

interface Link { label: string; link: string; attrs?: Record<string, string> }
interface Group { label: string; collapsed?: boolean; items: (Link | Group)[] }

const FRONT_MATTER = /^---\n([\s\S]*?)\n---/;

/** One link per RFC file, ordered by number: `0068 — Background memory consolidation…`. */
export function rfcSidebar(rfcDir: string): Group {
  const rfcs = readdirSync(rfcDir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => {
      const fm = yaml.load(FRONT_MATTER.exec(readFileSync(join(rfcDir, f), 'utf8'))?.[1] ?? '') as { number: string | number; title: string };
      return { number: String(fm.number), title: fm.title };
    })
    .sort((a, b) => a.number.localeCompare(b.number));
  return {
    label: 'RFCs',
    collapsed: true,
    items: [{ label: 'All RFCs and their status', link: '/rfcs/' }, ...rfcs.map((r) => ({ label: `${r.number} — ${r.title}`, link: `/rfcs/${rfcSlug(r.number)}/` }))],
  };
}

/** The schema index, then one group per family; a family's host test seams in their own sub-group. */
export function schemaSidebar(index: SiteIndex): Group {
  return {
    label: 'Schema reference',
    collapsed: true,
    items: [
      { label: 'All schemas', link: '/schemas/' },
      ...index.families.map((f) => ({
        label: familyTitle(f.name),
        collapsed: true,
        items: schemaGroups(f).flatMap((g): (Link | Group)[] => {
          const links = g.schemas.map((s) => ({ label: s.stem, link: schemaUrl(f.name, s.stem) }));
          return g.kind === 'host-seams' ? [{ label: 'Host test seams', collapsed: true, items: links }] : links;
        }),
      })),
    ],
  };
}

export const readSiteIndex = (siteDataDir: string): SiteIndex => JSON.parse(readFileSync(join(siteDataDir, 'index.json'), 'utf8')) as SiteIndex;
