/**
 * What a schema page shows of a definition, as data: the facts of a field's or definition's "type" cell (values,
 * default, format, constraints), which referenced definitions unfold in place under a field (objects with fields,
 * unions with variants, never the one being shown or one already open above it), and the page's heading list.
 */
import type { Definition, Field, Json, JsonObject, Link, Variant } from '../../../generator/site-data-format.ts';

/** How deep definitions unfold inside a field table (a field's type, then a field of that type's type). */
export const UNFOLD_DEPTH = 2;

const short = (v: Json): string => JSON.stringify(v);

/** The small print under a type: allowed values, constant, default, format and the other validation keywords. */
export function typeFacts(x: Pick<Field | Definition, 'enum' | 'const' | 'default' | 'format' | 'constraints'>): string[] {
  const out: string[] = [];
  if (x.enum !== null && x.enum !== undefined) out.push(`one of ${x.enum.map(short).join(', ')}`);
  if (x.const !== null && x.const !== undefined) out.push(`always ${short(x.const)}`);
  if (x.default !== null && x.default !== undefined) out.push(`default ${short(x.default)}`);
  if (x.format !== null && x.format !== undefined && !Object.hasOwn(x.constraints, 'format')) out.push(`format ${x.format}`);
  for (const [k, v] of Object.entries(x.constraints as JsonObject)) out.push(`${k} ${short(v)}`);
  return out;
}

/** A definition's key across the corpus. */
export const defKey = (l: Pick<Link, 'family' | 'stem' | 'def'>): string => `${l.family}/${l.stem}#${l.def}`;

/** Whether a definition unfolds under a field that refers to it: it has fields or variants (a table of values does not). */
export const hasTable = (d: Pick<Definition, 'fields' | 'variants'>): boolean => d.fields.length > 0 || d.variants.length > 0;

/** The definitions that unfold under a field or variant: referenced, tabular, not already open on the way here. */
export function unfolding(refs: readonly Link[], open: readonly string[], depth: number, definitionOf: (l: Link) => Definition | undefined): { link: Link; d: Definition }[] {
  if (depth >= UNFOLD_DEPTH) return [];
  const seen = new Set<string>();
  return refs.flatMap((link) => {
    const key = defKey(link);
    const d = link.pointer === undefined ? definitionOf(link) : undefined;
    if (d === undefined || !hasTable(d) || open.includes(key) || seen.has(key)) return [];
    seen.add(key);
    return [{ link, d }];
  });
}

/** "3 fields", "2 variants". */
export const tableSummary = (d: Pick<Definition, 'fields' | 'variants'>): string =>
  d.fields.length > 0 ? `${d.fields.length} ${d.fields.length === 1 ? 'field' : 'fields'}` : `${d.variants.length} ${d.variants.length === 1 ? 'variant' : 'variants'}`;

/** A variant's condition in words: `kind = "a"`, or its position when it has no constant discriminator. */
export const variantWhen = (v: Variant, i: number): string => (v.discriminator === null ? `variant ${i + 1}` : `${v.discriminator.property} = ${short(v.discriminator.value)}`);

/** How many characters of a schema's description stand above its field table (whole sentences, at least one). */
export const LEDE_BUDGET = 320;

/**
 * A schema's description split for a page that shows its fields first: the lede (its first sentences, within
 * `budget` characters, always at least the first sentence) stays under the title; the rest follows the root's table,
 * so a long description never pushes the fields below the fold and no word of it is dropped.
 */
export function splitLede(description: string, budget: number = LEDE_BUDGET): { lede: string; rest: string } {
  const sentences = description.trim().split(/(?<=[.!?])\s+(?=[A-Z0-9`"(\[])/);
  let n = 1;
  let length = sentences[0]?.length ?? 0;
  while (n < sentences.length && length + 1 + sentences[n]!.length <= budget) length += 1 + sentences[n++]!.length;
  return { lede: sentences.slice(0, n).join(' '), rest: sentences.slice(n).join(' ') };
}
