/**
 * Where a long identifier may wrap: before each capital that starts a word of a camelCase name
 * (`Inquirium|Operator|Question|Request`) and after the separators of file names, ids and URLs (`/`, `.`, `-`, `_`),
 * as `<wbr>` — an optional break that adds no character, so the text that search and find-in-page see is unchanged.
 */
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `s` as HTML with `<wbr>` at its word boundaries. */
export function withBreaks(s: string): string {
  return esc(s)
    .replace(/([a-z0-9])(?=[A-Z])/g, '$1<wbr>')
    .replace(/([/._-])(?=[^/._-])/g, '$1<wbr>');
}
