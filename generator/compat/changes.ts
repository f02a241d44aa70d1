/**
 * The change kinds compat reports, as one table: what each means and its effect on the set of instances the schema
 * accepts. The effect, with the direction of the shape (direction.ts), decides the classification (classify.ts):
 *
 * - `tighten` — some instance valid before is invalid now;
 * - `loosen`  — some instance invalid before is valid now;
 * - `both`    — either can happen (a changed `const`, pattern, `$ref` target, a removed schema);
 * - `extend`  — only adds what every consumer must already tolerate (an optional property of an open object, a new
 *   definition or schema file, a new event type in an `x-type-index`);
 * - `neutral` — no instance changes validity (descriptions, titles, examples, defaults, annotations).
 */

export type Effect = 'tighten' | 'loosen' | 'both' | 'extend' | 'neutral';

export interface ChangeKindSpec {
  /** What the change is, for the docs table. */
  readonly doc: string;
  /** Its effect; for property-added/removed it depends on the object's openness (the diff decides). */
  readonly effect: Effect | 'by-openness';
}

/** One difference between the baseline and the current corpus, before classification. */
export interface RawChange {
  /** Repository path of the schema file (the current one; the baseline's for a removed file). */
  readonly file: string;
  /** JSON pointer inside that file. */
  readonly pointer: string;
  readonly kind: ChangeKind;
  readonly effect: Effect;
  /** What changed, in a few words (`property "expiresAt" removed`). */
  readonly detail: string;
  /** The name the change is about (a property, an enum value, a definition), used to match CHANGELOG entries. */
  readonly subject?: string;
  /** For a renamed file: its path in the baseline. */
  readonly previousFile?: string;
}

export const CHANGE_KINDS = {
  'file-added': { doc: 'a schema file was added', effect: 'extend' },
  'file-removed': { doc: 'a schema file was removed', effect: 'both' },
  'file-renamed': { doc: 'a schema file was renamed (same root title): its path and $id change', effect: 'both' },
  'id-changed': { doc: 'a schema\'s `$id` changed', effect: 'both' },
  'definition-added': { doc: 'a `$defs` entry was added', effect: 'extend' },
  'definition-removed': { doc: 'a `$defs` entry was removed', effect: 'both' },
  'property-added': { doc: 'a property was added (open object: extend; closed: loosen; additionalProperties schema: both)', effect: 'by-openness' },
  'property-removed': { doc: 'a property was removed (open object: loosen, it is unconstrained now; closed: tighten)', effect: 'by-openness' },
  'required-added': { doc: 'a property became required', effect: 'tighten' },
  'required-removed': { doc: 'a property is no longer required', effect: 'loosen' },
  'type-narrowed': { doc: '`type` allows fewer types (`integer` counts as part of `number`)', effect: 'tighten' },
  'type-widened': { doc: '`type` allows more types', effect: 'loosen' },
  'type-changed': { doc: '`type` changed to an unrelated set', effect: 'both' },
  'enum-value-added': { doc: 'an `enum` value was added', effect: 'loosen' },
  'enum-value-removed': { doc: 'an `enum` value was removed', effect: 'tighten' },
  'const-added': { doc: 'a `const` was added', effect: 'tighten' },
  'const-removed': { doc: 'a `const` was removed', effect: 'loosen' },
  'const-changed': { doc: 'a `const` changed', effect: 'both' },
  'object-closed': { doc: '`additionalProperties`/`unevaluatedProperties` closed (or given a schema where it was open)', effect: 'tighten' },
  'object-opened': { doc: '`additionalProperties`/`unevaluatedProperties` opened (or a schema dropped where it was closed)', effect: 'loosen' },
  'bound-tightened': { doc: 'a bound tightened or added: min*/max* (length, items, properties, contains), minimum/maximum, exclusive*, multipleOf, uniqueItems', effect: 'tighten' },
  'bound-loosened': { doc: 'a bound loosened or removed', effect: 'loosen' },
  'pattern-added': { doc: 'a `pattern` (or `format`) was added', effect: 'tighten' },
  'pattern-removed': { doc: 'a `pattern` (or `format`) was removed', effect: 'loosen' },
  'pattern-changed': { doc: 'a `pattern` (or `format`) changed', effect: 'both' },
  'ref-changed': { doc: 'a `$ref` points at another type (a moved definition with the same title is not a change)', effect: 'both' },
  'branch-added': { doc: 'a member was added to `anyOf`/`oneOf` (loosen) or `allOf` (tighten)', effect: 'by-openness' },
  'branch-removed': { doc: 'a member was removed from `anyOf`/`oneOf` (tighten) or `allOf` (loosen)', effect: 'by-openness' },
  'type-index-added': { doc: 'an `x-type-index` entry was added (a new event or widget kind; consumers tolerate unknown kinds)', effect: 'extend' },
  'type-index-removed': { doc: 'an `x-type-index` entry was removed or retargeted', effect: 'both' },
  'keyword-added': { doc: 'another assertion was added (`not`, `if`/`then`/`else`, `contains`, `dependentRequired`, …)', effect: 'tighten' },
  'keyword-removed': { doc: 'another assertion was removed', effect: 'loosen' },
  'keyword-changed': { doc: 'another assertion changed (`patternProperties`, `if`/`then`/`else`, `not`, …)', effect: 'both' },
  'annotation-changed': { doc: 'an annotation changed: description, title (renames the generated type, not the wire shape), examples, default, `x-source`, `x-runtime-rules`, `x-direction`', effect: 'neutral' },
} as const satisfies Record<string, ChangeKindSpec>;

export type ChangeKind = keyof typeof CHANGE_KINDS;

/** The change kinds as the docs table lists them (docs/generator.md; a test keeps the two equal). */
export const changeKindTable = (): string =>
  ['| Kind | Effect | What changed |', '|---|---|---|', ...Object.entries(CHANGE_KINDS).map(([kind, spec]) => `| \`${kind}\` | ${spec.effect === 'by-openness' ? 'see what changed' : spec.effect} | ${spec.doc} |`)].join('\n');
