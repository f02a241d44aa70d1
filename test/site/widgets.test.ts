/**
 * The operator-question widget gallery (site/src/lib/widgets/, /widgets/): every kind of the runtime's table is
 * rendered from its typed payload alone, as an accessible form, beside the corpus requests that use it; a kind added
 * to the table is rendered with no edit to the page; the refused requests carry exactly what the host's refusal
 * function says about them, and cover an unknown kind, free text without an allowlist, a raw input schema and
 * duplicate option values. The built page itself: reader.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SchemaDoc } from '../../generator/site-data-format.ts';
import { validateProposedQuestion, WIDGET_KINDS, type WidgetKind } from '../../runtime/inquirium/widget-kinds.ts';
import refusalFixtures from '../../site/src/data/widget-refusals.json' with { type: 'json' };
import { renderWidgetForm } from '../../site/src/lib/widgets/form.ts';
import { CORPUS_REFUSALS, GALLERY_POLICY, galleryKinds, galleryRefusals, type HostRefusalFixture } from '../../site/src/lib/widgets/gallery.ts';

type Json = Record<string, unknown>;
const doc = JSON.parse(readFileSync('generated/site-data/inquirium/inquirium.operator-question.request.v1.json', 'utf8')) as SchemaDoc;
const root = doc.definitions[0]!;
const valid = root.examples.valid.map((e) => ({ name: e.name, request: e.instance as Json }));
const corpus = CORPUS_REFUSALS.map((name) => {
  const e = root.examples.invalid.find((x) => x.name === name)!;
  return { name, description: e.description, request: e.instance as Json };
});

/** Every form control of a rendered form, with the label it is tied to. */
function controls(html: string): { type: string; id: string; label: string | undefined }[] {
  return [...html.matchAll(/<input type="([^"]+)"[^>]*\bid="([^"]+)"/g)].map((m) => ({ type: m[1]!, id: m[2]!, label: new RegExp(`<label for="${m[2]}">([^<]*)</label>`).exec(html)?.[1] }));
}

describe('the widget gallery', () => {
  it('shows every kind of the runtime table, in table order, each with the corpus requests of that kind', () => {
    const kinds = galleryKinds(WIDGET_KINDS, valid);
    expect(kinds.map((k) => k.kind.kind)).toEqual(WIDGET_KINDS.map((k) => k.kind));
    for (const k of kinds) {
      expect(k.requests.length, k.kind.kind).toBeGreaterThan(0);
      for (const r of k.requests) expect(r.request['widget/kind']).toBe(k.kind.kind);
    }
  });

  it('renders each kind as an accessible form from its payload: a legend, a label for every control, never a password field', () => {
    for (const { kind, requests } of galleryKinds(WIDGET_KINDS, valid)) {
      for (const r of requests) {
        const html = renderWidgetForm(kind, r.request, `t-${r.name}`);
        expect(html, r.name).toMatch(/<form class="widget-form"[^>]*aria-labelledby="t-[^"]+-prompt"><fieldset><legend id="t-[^"]+-prompt">/);
        expect(html).not.toMatch(/type="password"/);
        const cs = controls(html);
        for (const c of cs) expect(c.label, `${r.name}: ${c.id}`).toBeDefined();
        const choices = kind.choices(r.request['widget/payload'] as Json);
        if (kind.control === 'radio' || kind.control === 'checkbox') expect(cs.map((c) => c.label)).toEqual(choices.map((c) => c.label));
        if (kind.control === 'text') expect(cs.map((c) => c.type)).toEqual(['text']);
        if (kind.control === 'confirm') expect([...html.matchAll(/<button type="submit" name="[^"]+" value="([^"]+)"/g)].map((m) => m[1])).toEqual(['confirm', 'deny']);
      }
    }
  });

  it('builds the form from the typed payload only: whatever else a request carries adds no control', () => {
    const r = valid.find((x) => x.request['widget/kind'] === 'single-choice')!;
    const kind = WIDGET_KINDS.find((k) => k.kind === 'single-choice')!;
    const hostile = {
      ...r.request,
      'input/schema': { type: 'object', properties: { password: { type: 'string', format: 'password' } } },
      'widget/payload': { ...(r.request['widget/payload'] as Json), schema: { properties: { passphrase: { type: 'string' } } }, fields: [{ name: 'pin', type: 'password' }] },
    };
    expect(renderWidgetForm(kind, hostile, 'x')).toBe(renderWidgetForm(kind, r.request, 'x'));
  });

  it('a kind added to the table appears, rendered, with no edit to the page or the renderer', () => {
    const rating: WidgetKind = {
      kind: 'rating',
      payloadSchema: 'inquirium.operator-question.widget.rating.v1',
      control: 'radio',
      choices: (p) => (p.levels as string[]).map((l) => ({ value: l, label: `${l} stars` })),
      arity: () => ({ min: 1, max: 1 }),
    };
    const request = { ...valid[0]!.request, 'widget/kind': 'rating', prompt: { kind: 'rating', text: 'How useful was this answer?' }, 'widget/payload': { levels: ['1', '2', '3'] } };
    const kinds = galleryKinds([...WIDGET_KINDS, rating], [...valid, { name: 'rating-example', request }]);
    const added = kinds.find((k) => k.kind.kind === 'rating')!;
    expect(added.requests.map((r) => r.name)).toEqual(['rating-example']);
    const html = renderWidgetForm(added.kind, request, 'r');
    expect(html).toContain('How useful was this answer?');
    expect(controls(html).map((c) => `${c.type}:${c.label}`)).toEqual(['radio:1 stars', 'radio:2 stars', 'radio:3 stars']);
  });

  it('shows each refused request with what the host refusal function returns for it, the four P066 cases among them', () => {
    const refusals = galleryRefusals(corpus, refusalFixtures as HostRefusalFixture[], valid);
    for (const r of refusals) {
      expect(r.issues, r.name).toEqual(validateProposedQuestion(r.request, GALLERY_POLICY));
      expect(r.issues.length, r.name).toBeGreaterThan(0);
    }
    const codes = (name: string) => refusals.find((r) => r.name === name)!.issues.map((i) => i.code);
    expect(codes('unknown-widget-kind')).toContain('schema-enum');
    expect(codes('free-text-without-allowlist')).toContain('schema-required');
    expect(codes('raw-widget-input-schema')).toContain('schema-additionalProperties');
    // The host-only fixtures show only the refusal they are about (nothing else is wrong with them).
    for (const f of refusalFixtures) expect(codes(f.name), f.name).toEqual([f.name]);
  });

  it('the corpus refusals it names exist, and a fixture on an unknown base is a build error', () => {
    for (const name of CORPUS_REFUSALS) expect(root.examples.invalid.map((e) => e.name), name).toContain(name);
    expect(() => galleryRefusals([], [{ name: 'x', description: 'x', base: 'no-such-request', patch: {} }], valid)).toThrow(/no-such-request/);
  });
});
