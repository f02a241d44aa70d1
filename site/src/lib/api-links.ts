/**
 * How the schema reference and the API reference point at each other. Pure data and functions: the schema pages
 * (Astro) use it to link a definition to its type, validator and guards, and the typedoc plugin (plain Node, while
 * the API pages are generated) uses the same table to link those API entries back to the definition.
 */
import type { Definition } from '../../../generator/site-data-format.ts';

/** `site/generated/api-index.json`, written by the typedoc plugin: every top-level export of every subpath. */
export interface ApiIndex {
  formatVersion: 1;
  /** By module name (`wopkit`, `wopkit/validators`, …), in package.json order. */
  modules: Record<string, ApiModule>;
  /**
   * Every API page → the repository file its edit link names: the source file that declares what the page
   * documents, or the schema file for what is generated from a schema, or the emitter that writes the rest of
   * generated/ (never generated output); a module's and a kind's pages name the subpath's entry file.
   */
  sources: Record<string, string>;
}

export interface ApiModule {
  url: string;
  /** The kinds whose entries have their own pages (Classes, Interfaces, Type Aliases): each kind's index page. */
  kindPages: { title: string; url: string; count: number }[];
  /** Every top-level export → its page, or its anchor on the module page. */
  exports: Record<string, string>;
}

/** Where the API index is written, relative to the site root. */
export const API_INDEX_FILE = 'generated/api-index.json';

export type ApiEntryKind = 'type' | 'validator' | 'guard';

/** Which export of which subpath documents a schema definition (the subpath relative to the package name). */
export const DEFINITION_EXPORTS: readonly { kind: ApiEntryKind; subpath: string; names: (d: Pick<Definition, 'isType' | 'title' | 'validator' | 'guards'>) => string[] }[] = [
  { kind: 'type', subpath: '', names: (d) => (d.isType ? [d.title] : []) },
  { kind: 'validator', subpath: 'validators', names: (d) => (d.validator === null ? [] : [d.validator]) },
  { kind: 'guard', subpath: 'guards', names: (d) => (d.guards === null ? [] : [d.guards.is, d.guards.assert]) },
];

/** `wopkit` + `validators` → `wopkit/validators`. */
export const moduleName = (pkg: string, subpath: string): string => (subpath === '' ? pkg : `${pkg}/${subpath}`);

export interface ApiEntry {
  kind: ApiEntryKind;
  module: string;
  name: string;
  href: string;
}

/** A definition's API entries that exist in the index, in table order. */
export function apiEntriesOf(index: ApiIndex, pkg: string, d: Pick<Definition, 'isType' | 'title' | 'validator' | 'guards'>): ApiEntry[] {
  const out: ApiEntry[] = [];
  for (const e of DEFINITION_EXPORTS) {
    const module = moduleName(pkg, e.subpath);
    for (const name of e.names(d)) {
      const href = index.modules[module]?.exports[name];
      if (href !== undefined) out.push({ kind: e.kind, module, name, href });
    }
  }
  return out;
}
