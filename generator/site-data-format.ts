/**
 * The site-data format (version 1): the JSON the site-data emitter writes under `generated/site-data/` and the site
 * renders. One set of types for both sides — the emitter builds these shapes, the site reads them
 * (`site/src/lib/site-data.ts`). Pure types. Prose, examples and the order of keys in the files:
 * docs/generator.md, "Site data format".
 */
import type { Json, JsonObject } from './json-value.ts';

export type { Json, JsonObject };

/** The format version every document carries. */
export type SiteDataFormatVersion = 1;

/** Where a reference points: a definition (root or `$defs` entry), or an untitled subschema inside one. */
export interface Link {
  /** The target definition's title; null for an untitled subschema (then `pointer` says where it is). */
  title: string | null;
  family: string;
  stem: string;
  /** `$defs` name of the target (or of the definition holding the subschema); `''` for a root. */
  def: string;
  /** HTML id of the definition on its page (its title); null when the definition holding the target has no title. */
  anchor: string | null;
  /** The target's document, relative to `generated/site-data/`. */
  data: string;
  /** Only for an untitled subschema: its JSON pointer inside the schema file. */
  pointer?: string;
}

/** One property of an object definition. */
export interface Field {
  /** The wire name, exactly. */
  name: string;
  /** Relative to the definition, e.g. `/properties/runtime~1ref`. */
  pointer: string;
  required: boolean;
  description: string;
  /** A short human type, e.g. `RuntimeRef`, `string (date-time)`, `"a" | "b"`. */
  typeText: string;
  /** The definitions this field's type mentions. */
  refs: Link[];
  enum: Json[] | null;
  const: Json | null;
  default: Json | null;
  format: string | null;
  /** Validation keywords with their values (may be `{}`). */
  constraints: JsonObject;
}

/** A `oneOf` / `anyOf` branch. */
export interface Variant {
  typeText: string;
  refs: Link[];
  /** The branch's first `const` property, when it has one. */
  discriminator: { property: string; value: Json } | null;
}

/** An `if/then/else` kept raw (top level and `allOf` members). */
export interface Conditional {
  if: Json;
  then: Json | null;
  else: Json | null;
}

/** An `x-runtime-rules` entry, copied as the schema states it (lint rule `runtime-rules` holds it to this shape). */
export interface RuntimeRule {
  id: string;
  text: string;
  source: string;
}

/** An `x-type-index` entry. */
export interface TypeIndexEntry {
  /** The wire value, e.g. `run.started`. */
  value: string;
  /** The pointer as the schema states it (lint rule `type-index` holds it to a string). */
  pointer: string;
  /** The definition it resolves to; null when it does not resolve. */
  ref: Link | null;
}

export interface ValidExample {
  name: string;
  path: string;
  instance: Json;
}

export interface InvalidExample {
  name: string;
  path: string;
  description: string;
  /** The failure the instance must produce. */
  expect: { instancePath: string; keyword: string };
  instance: Json;
}

/** What `kind` a definition has. */
export type DefinitionKind =
  | 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null'
  | 'enum' | 'const' | 'union' | 'ref' | 'any' | 'container';

/** The root schema or one `$defs` entry of a schema file. */
export interface Definition {
  /** `''` = the root schema. */
  def: string;
  title: string;
  /** Its HTML id on the page: the title. */
  anchor: string;
  /** `''` or `/$defs/<name>`: the JSON pointer inside the schema file. */
  pointer: string;
  /** The example directory name: `<stem>` or `<stem>--<def>`. */
  target: string;
  /** False only for a root that is a pure `$defs` container (no type generated). */
  isType: boolean;
  description: string;
  /** Its `x-source`. */
  source: string | null;
  kind: DefinitionKind;
  typeText: string;
  /** `additionalProperties` / `unevaluatedProperties` of an object; null when not an object or not stated. */
  open: boolean | 'schema' | null;
  enum: Json[] | null;
  const: Json | null;
  default: Json | null;
  format: string | null;
  constraints: JsonObject;
  /** Properties in schema order; `[]` when not an object. */
  fields: Field[];
  variants: Variant[];
  conditionals: Conditional[];
  runtimeRules: RuntimeRule[];
  typeIndex: TypeIndexEntry[];
  /** Every definition this one references (deduplicated, sorted by title). */
  references: Link[];
  /** Every definition that references this one (sorted by title). */
  referencedBy: Link[];
  /** The generated TypeScript declaration (`''` when isType is false). */
  typescript: string;
  validator: string | null;
  guards: { is: string; assert: string } | null;
  /** Sorted by name. */
  examples: { valid: ValidExample[]; invalid: InvalidExample[] };
}

/** What both the document of a schema file and its catalogue entry say about it. */
export interface SchemaFileSummary {
  stem: string;
  fileName: string;
  /** Repository-relative path of the schema file. */
  path: string;
  id: string;
  /** The root's title and description. */
  title: string;
  description: string;
}

/** `generated/site-data/<family>/<stem>.json`: one schema file. */
export interface SchemaDoc extends SchemaFileSummary {
  formatVersion: SiteDataFormatVersion;
  family: string;
  /** `x-source` of the root. */
  source: string | null;
  /** The raw schema file, for display and download. */
  schema: JsonObject;
  /** The root first, then `$defs` in file order. */
  definitions: Definition[];
}

/** A definition as the catalogue lists it. */
export interface IndexDefinition {
  title: string;
  def: string;
  target: string;
  anchor: string;
}

/** A schema file as the catalogue lists it. */
export interface IndexEntry extends SchemaFileSummary {
  /** Its document, relative to `generated/site-data/`. */
  data: string;
  definitions: IndexDefinition[];
}

/** Where a type is documented. */
export interface TypeLocation {
  family: string;
  stem: string;
  def: string;
  anchor: string;
  data: string;
}

/** `generated/site-data/index.json`: the catalogue. */
export interface SiteIndex {
  formatVersion: SiteDataFormatVersion;
  /** Sorted by name; schemas sorted by stem. */
  families: { name: string; schemas: IndexEntry[] }[];
  /** Every title → where it is documented, sorted by title. */
  types: Record<string, TypeLocation>;
}
