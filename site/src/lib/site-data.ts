/**
 * Typed access to generated/site-data (format: docs/generator.md, "Site data format"). The site renders this
 * data; it never reads the schemas itself.
 */
export interface Link {
  title: string | null;
  family: string;
  stem: string;
  def: string;
  anchor: string;
  data: string;
  pointer?: string;
}
export interface Field {
  name: string;
  pointer: string;
  required: boolean;
  description: string;
  typeText: string;
  refs: Link[];
  enum: unknown[] | null;
  const: unknown;
  default: unknown;
  format: string | null;
  constraints: Record<string, unknown>;
}
export interface Example {
  name: string;
  path: string;
  instance: unknown;
  description?: string;
  expect?: { instancePath: string; keyword: string };
}
export interface Definition {
  def: string;
  title: string;
  anchor: string;
  pointer: string;
  target: string;
  isType: boolean;
  description: string;
  source: string | null;
  kind: string;
  typeText: string;
  open: boolean | 'schema' | null;
  enum: unknown[] | null;
  const: unknown;
  default: unknown;
  format: string | null;
  constraints: Record<string, unknown>;
  fields: Field[];
  variants: { typeText: string; refs: Link[]; discriminator: { property: string; value: unknown } | null }[];
  conditionals: { if: unknown; then: unknown; else: unknown }[];
  runtimeRules: { id: string; text: string; source: string }[];
  typeIndex: { value: string; pointer: string; ref: Link | null }[];
  references: Link[];
  referencedBy: Link[];
  typescript: string;
  validator: string | null;
  guards: { is: string; assert: string } | null;
  examples: { valid: Example[]; invalid: Example[] };
}
export interface SchemaDoc {
  family: string;
  stem: string;
  fileName: string;
  path: string;
  id: string;
  title: string;
  description: string;
  source: string | null;
  schema: unknown;
  definitions: Definition[];
}
export interface IndexEntry {
  stem: string;
  fileName: string;
  path: string;
  id: string;
  title: string;
  description: string;
  data: string;
  definitions: { title: string; def: string; target: string; anchor: string }[];
}
export interface SiteIndex {
  formatVersion: number;
  families: { name: string; schemas: IndexEntry[] }[];
  types: Record<string, { family: string; stem: string; def: string; anchor: string; data: string }>;
}

const docs = import.meta.glob<SchemaDoc>('../../../generated/site-data/*/*.json', { eager: true, import: 'default' });
const indexModule = import.meta.glob<SiteIndex>('../../../generated/site-data/index.json', { eager: true, import: 'default' });

export const siteIndex: SiteIndex = Object.values(indexModule)[0]!;
export const schemaDocs: SchemaDoc[] = Object.values(docs).sort((a, b) => (a.family + a.stem).localeCompare(b.family + b.stem));

export const schemaUrl = (family: string, stem: string): string => `/schemas/${family}/${stem}/`;
export const linkHref = (l: Pick<Link, 'family' | 'stem' | 'anchor'>): string => `${schemaUrl(l.family, l.stem)}#${l.anchor}`;
export const rawUrl = (family: string, fileName: string): string => `/raw/${family}/${fileName}`;

/** The site page of a `$defs` name (not title) inside a schema file, if it exists. */
export function defLink(family: string, stem: string, def: string): string | undefined {
  const entry = siteIndex.families.find((f) => f.name === family)?.schemas.find((s) => s.stem === stem);
  if (entry === undefined) return undefined;
  const d = entry.definitions.find((x) => x.def === def);
  return d === undefined ? schemaUrl(family, stem) : `${schemaUrl(family, stem)}#${d.anchor}`;
}
