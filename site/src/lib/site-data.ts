/**
 * Typed access to generated/site-data. The format types are the emitter's own (generator/site-data-format.ts; prose:
 * docs/generator.md, "Site data format"). The site renders this data; it never reads the schemas itself.
 */
import type { Definition, Link, SchemaDoc, SiteIndex } from '../../../generator/site-data-format.ts';
import { definitionUrl } from './urls';

export type * from '../../../generator/site-data-format.ts';
export { schemaUrl, rawUrl } from './urls';

const docs = import.meta.glob<SchemaDoc>('../../../generated/site-data/*/*.json', { eager: true, import: 'default' });
const indexModule = import.meta.glob<SiteIndex>('../../../generated/site-data/index.json', { eager: true, import: 'default' });

export const siteIndex: SiteIndex = Object.values(indexModule)[0]!;
export const schemaDocs: SchemaDoc[] = Object.values(docs).sort((a, b) => (a.family + a.stem).localeCompare(b.family + b.stem));

/** A link's page, at the definition's anchor when it has one. */
export const linkHref = (l: Pick<Link, 'family' | 'stem' | 'anchor'>): string => definitionUrl(l.family, l.stem, l.anchor);

/** The site page of a `$defs` name (not title) inside a schema file, if it exists. */
export function defLink(family: string, stem: string, def: string): string | undefined {
  const entry = siteIndex.families.find((f) => f.name === family)?.schemas.find((s) => s.stem === stem);
  if (entry === undefined) return undefined;
  const d = entry.definitions.find((x) => x.def === def);
  return definitionUrl(family, stem, d?.anchor ?? null);
}

const byFile = new Map(schemaDocs.map((d) => [`${d.family}/${d.stem}`, d]));

/** The definition a link points to (a root or `$defs` entry of a schema file), if the site data has it. */
export function definitionOf(l: Pick<Link, 'family' | 'stem' | 'def'>): Definition | undefined {
  return byFile.get(`${l.family}/${l.stem}`)?.definitions.find((d) => d.def === l.def);
}

/** The schema file a definition belongs to. */
export const schemaDocOf = (family: string, stem: string): SchemaDoc | undefined => byFile.get(`${family}/${stem}`);

/** Every `x-type-index` entry of the corpus. */
export const typeIndexEntries = schemaDocs.flatMap((doc) => doc.definitions.flatMap((d) => d.typeIndex));
