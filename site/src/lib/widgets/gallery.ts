/**
 * The widget gallery's content, as data: every registered kind (the runtime's table) with each corpus request that
 * uses it, and the requests the host refuses with the refusal the host's own function gives. Nothing here knows a
 * kind by name: a kind added to the table appears with the corpus requests that use it.
 */
import { validateProposedQuestion, type HostQuestionPolicy, type ValidationIssue, type WidgetKind } from '../../../../runtime/inquirium/widget-kinds.ts';

type Json = Record<string, unknown>;

export interface GalleryRequest { readonly name: string; readonly request: Json }
export interface GalleryKind { readonly kind: WidgetKind; readonly requests: readonly GalleryRequest[] }
export interface GalleryRefusal extends GalleryRequest { readonly description: string; readonly issues: readonly ValidationIssue[] }

/** The operator surface the gallery renders for: it may show any classification. */
export const GALLERY_POLICY: HostQuestionPolicy = { displayCeiling: 'personal' };

/**
 * The corpus's invalid requests the gallery shows, by example name: those that try to get a widget past the host
 * (test/site/widgets.test.ts checks each exists).
 */
export const CORPUS_REFUSALS: readonly string[] = [
  'unknown-widget-kind',
  'free-text-without-allowlist',
  'raw-widget-input-schema',
  'schema-inside-payload',
  'single-choice-payload-mismatch',
  'free-text-option-value',
  'prompt-kind-mismatch',
];

/** A refusal no schema can state: a valid corpus request (`base`) with some keys replaced. */
export interface HostRefusalFixture { readonly name: string; readonly description: string; readonly base: string; readonly patch: Json }

/** Every kind of the table with the requests that use it, in table order. */
export function galleryKinds(table: readonly WidgetKind[], requests: readonly GalleryRequest[]): GalleryKind[] {
  return table.map((kind) => ({ kind, requests: requests.filter((r) => r.request['widget/kind'] === kind.kind) }));
}

/** Each refused request with the issues the host's refusal function reports for it. */
export function galleryRefusals(
  corpus: readonly (GalleryRequest & { description: string })[],
  fixtures: readonly HostRefusalFixture[],
  valid: readonly GalleryRequest[],
  table?: readonly WidgetKind[],
): GalleryRefusal[] {
  const patched = fixtures.map((f) => {
    const base = valid.find((v) => v.name === f.base);
    if (base === undefined) throw new Error(`widget gallery: refusal ${f.name} is based on ${f.base}, which is not a valid corpus request`);
    return { name: f.name, description: f.description, request: { ...base.request, ...f.patch } };
  });
  return [...corpus, ...patched].map((r) => ({ ...r, issues: validateProposedQuestion(r.request, GALLERY_POLICY, table) }));
}
