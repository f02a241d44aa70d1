/**
 * The normative rules of the restatements under RFCs/, read from their Markdown: every `###`/`####` heading inside a
 * document's `## Normative rules` section is one rule (docs/rfc-format.md: the heading text is the rule id, its
 * anchor the lower-cased id). A rule's text digest lets the requirement table notice when a rule it maps changes
 * (a new MUST added to an existing rule must be reviewed against its row). Pure functions over file text.
 */
import { createHash } from 'node:crypto';

export interface RfcRule {
  /** The rule id, as the heading spells it (`R0068-D2`, `AM-CTI1-1`, `P066-D8-1`). */
  readonly rule: string;
  /** The heading anchor on the rule's page: the lower-cased id. */
  readonly anchor: string;
  /** The bold short name that opens the rule's first paragraph, without its final full stop. */
  readonly name: string;
  /** The rule's body, headings excluded. */
  readonly text: string;
  /** First 16 hex digits of the sha256 of the body with every whitespace run folded to one space. */
  readonly textSha256: string;
}

const SECTION = /^## Normative rules[ \t]*$/m;
const RULE_HEADING = /^#{3,4} (\S+)[ \t]*$/gm;

/** The digest a requirement row records for its rule's text. */
export const ruleDigest = (text: string): string => createHash('sha256').update(text.replace(/\s+/g, ' ').trim(), 'utf8').digest('hex').slice(0, 16);

/** The rules of one restatement (empty when the document has no `## Normative rules` section). */
export function rulesOf(markdown: string): RfcRule[] {
  const start = SECTION.exec(markdown);
  if (start === null) return [];
  const rest = markdown.slice(start.index + start[0].length);
  const end = /^## /m.exec(rest);
  const section = end === null ? rest : rest.slice(0, end.index);
  const heads = [...section.matchAll(RULE_HEADING)];
  return heads.map((h, i) => {
    const from = h.index + h[0].length;
    const to = i + 1 < heads.length ? heads[i + 1]!.index : section.length;
    const text = section.slice(from, to).trim();
    const name = /^\*\*([^*]+?)\.?\*\*/.exec(text)?.[1] ?? '';
    const rule = h[1]!;
    return { rule, anchor: rule.toLowerCase(), name, text, textSha256: ruleDigest(text) };
  });
}
