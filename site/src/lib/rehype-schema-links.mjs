/**
 * Rewrites links written for the repository (../schemas/<family>/v1/<stem>.schema.json[#…]) to the site's schema
 * reference pages (/schemas/<family>/<stem>/), so RFC files read well both on disk and on the site.
 */
const RE = /^(?:\.\.\/)+schemas\/(openwop|inquirium)\/v1\/([^#]+)\.schema\.json(?:#.*)?$/;
export default function rehypeSchemaLinks() {
  const visit = (node) => {
    if (node.type === 'element' && node.tagName === 'a' && typeof node.properties?.href === 'string') {
      const m = RE.exec(node.properties.href);
      if (m) node.properties.href = `/schemas/${m[1]}/${m[2]}/`;
    }
    for (const c of node.children ?? []) visit(c);
  };
  return (tree) => visit(tree);
}
