/**
 * Appends HTML to the end of a section of rendered HTML: after everything that follows the heading with the given
 * id, up to the next heading of the same or a higher level (or the end). Used to place a diagram at the end of the
 * RFC section that describes it, where the RFC body is Markdown rendered as one block.
 */

/**
 * `html` with `insert` at the end of the section headed by `id`; throws when there is no such heading. `scope`
 * `own-text` stops at the next heading of any level (the heading's own text, before its sub-sections).
 */
export function appendToSection(html: string, id: string, insert: string, scope: 'section' | 'own-text' = 'section'): string {
  const heading = new RegExp(`<h([1-6])\\b[^>]*\\bid="${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`).exec(html);
  if (heading === null) throw new Error(`no heading with id "${id}" to append to`);
  const level = scope === 'own-text' ? 6 : Number(heading[1]);
  const next = new RegExp(`<h[1-${level}]\\b`, 'g');
  next.lastIndex = heading.index + heading[0].length;
  const end = next.exec(html)?.index ?? html.length;
  return html.slice(0, end) + insert + html.slice(end);
}
