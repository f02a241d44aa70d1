/**
 * Maps references found in RFC front matter to site URLs. Schema pages live at `/schemas/<family>/<stem>/`;
 * a `$defs` entry is an anchor named after its title on that page.
 */
import { defLink, schemaUrl, siteIndex } from './site-data';

const SCHEMA_PATH = /^schemas\/(openwop|inquirium)\/v1\/([^#]+)\.schema\.json(?:#\/?(?:\$defs\/([^/]+).*|.*))?$/;

/** Site link for an `affects` entry that points into our schemas; `undefined` for upstream documents. */
export function affectsLink(ref: string): string | undefined {
  const m = SCHEMA_PATH.exec(ref.replace(/^(\.\.\/)+|^\.\//, ''));
  if (!m) return undefined;
  const [, family, stem, def] = m;
  const exists = siteIndex.families.some((f) => f.name === family && f.schemas.some((s) => s.stem === stem));
  if (!exists) return undefined;
  return def ? defLink(family!, stem!, def) : schemaUrl(family!, stem!);
}
