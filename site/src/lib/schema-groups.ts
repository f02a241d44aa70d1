/**
 * How schemas are grouped for readers, on the schema index and in the sidebar: by family, and within a family the
 * protocol shapes first and the `host-sample-*` test seams (what a conformance run drives) apart.
 */
import type { IndexEntry, SiteIndex } from '../../../generator/site-data-format.ts';

export const FAMILY_TITLES: Record<string, string> = { openwop: 'OpenWOP agent memory', inquirium: 'Inquirium assistant channel (P066)' };
export const familyTitle = (name: string): string => FAMILY_TITLES[name] ?? name;

export interface SchemaGroup {
  /** HTML id of the group's heading on the schema index. */
  slug: string;
  kind: 'protocol' | 'host-seams';
  /** Undefined for the protocol group of a family without seams (no sub-heading needed). */
  title: string | undefined;
  schemas: IndexEntry[];
}

export const isHostSeam = (stem: string): boolean => stem.startsWith('host-sample-');

export function schemaGroups(f: SiteIndex['families'][number]): SchemaGroup[] {
  const seams = f.schemas.filter((s) => isHostSeam(s.stem));
  const protocol = f.schemas.filter((s) => !isHostSeam(s.stem));
  const groups: SchemaGroup[] = [
    { slug: `${f.name}-protocol`, kind: 'protocol', title: seams.length > 0 ? 'Protocol shapes' : undefined, schemas: protocol },
    { slug: `${f.name}-host-seams`, kind: 'host-seams', title: 'Host test seams (driven by the conformance suite)', schemas: seams },
  ];
  return groups.filter((g) => g.schemas.length > 0);
}
