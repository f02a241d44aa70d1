/**
 * Schema pages over the built site, fields first: the title is the type's name with the file and `$id` under it;
 * every page has a field, variant or value table before anything else of its definitions; a field whose type is
 * another object or union unfolds it in place, inside a <details> under the field's row (so search and find-in-page
 * see it), and a union lists its variants. Where the table sits on screen: reader.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Definition, SchemaDoc, SiteIndex } from '../../generator/site-data-format.ts';
import { DIST } from './serve.ts';
import { LEDE_BUDGET, splitLede } from '../../site/src/lib/schema-view.ts';

const index = JSON.parse(readFileSync('generated/site-data/index.json', 'utf8')) as SiteIndex;
const docs = index.families.flatMap((f) => f.schemas.map((s) => JSON.parse(readFileSync(join('generated/site-data', s.data), 'utf8')) as SchemaDoc));
const byKey = new Map(docs.flatMap((d) => d.definitions.map((x) => [`${d.family}/${d.stem}#${x.def}`, x] as const)));
const html = (doc: SchemaDoc) => readFileSync(join(DIST, 'schemas', doc.family, doc.stem, 'index.html'), 'utf8');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

describe('schema pages, fields first', () => {
  it('are titled with the type name, the file name and $id under it', () => {
    for (const doc of docs) {
      const page = html(doc);
      expect(/<h1 id="_top"[^>]*>([^]*?)<\/h1>/.exec(page)?.[1]?.replace(/<wbr>/g, ''), doc.stem).toBe(esc(doc.title));
      const subtitle = (/<p class="schema-subtitle[^"]*">([^]*?)<\/p>/.exec(page)?.[1] ?? '').replace(/<wbr>/g, '');
      expect(subtitle, doc.stem).toContain(doc.fileName);
      expect(subtitle, doc.stem).toContain(doc.id);
    }
  });

  it('show a field, variant or value table for every definition that has fields, variants or values, before its examples', () => {
    for (const doc of docs) {
      const page = html(doc);
      for (const d of doc.definitions.filter((x) => x.isType && (x.fields.length > 0 || x.variants.length > 0 || (x.enum?.length ?? 0) > 0))) {
        const section = new RegExp(`<section class="schema-def[^"]*" id="${d.anchor}"[^>]*>([^]*?)</section>`).exec(page)?.[1] ?? '';
        const table = section.search(/<table class="schema-table (fields|variants|values)/);
        expect(table, `${doc.stem}#${d.anchor}`).toBeGreaterThan(0);
        const examples = section.indexOf(`id="${d.anchor}.examples"`);
        if (examples > 0) expect(table, `${doc.stem}#${d.anchor}: the table before the examples`).toBeLessThan(examples);
      }
    }
  });

  it('unfold a field’s object or union type in place, in a <details> under the row, and list a union’s variants', () => {
    let unfolded = 0;
    for (const doc of docs) {
      const page = html(doc);
      for (const d of doc.definitions.filter((x) => x.isType)) {
        for (const f of d.fields) {
          const inner = f.refs.map((l) => byKey.get(`${l.family}/${l.stem}#${l.def}`)).find((x): x is Definition => x !== undefined && x !== d && (x.fields.length > 0 || x.variants.length > 0));
          if (inner === undefined) continue;
          const rowId = `${d.anchor}.${f.name}`;
          const nestedId = inner.fields.length > 0 ? `${rowId}.${inner.fields[0]!.name}` : `${rowId}.variant-1`;
          const row = page.indexOf(`id="${rowId}"`);
          const nested = page.indexOf(`id="${nestedId}"`, row);
          expect(row, `${doc.stem}: ${rowId}`).toBeGreaterThan(0);
          expect(nested, `${doc.stem}: ${nestedId} unfolded under ${rowId}`).toBeGreaterThan(row);
          expect(page.slice(row, nested), `${doc.stem}: ${rowId} unfolds in a <details>`).toMatch(/<tr class="unfold[^"]*"><td colspan="3"[^>]*><details/);
          unfolded++;
        }
        if (d.variants.length > 0) for (const [i] of d.variants.entries()) expect(page, `${doc.stem}#${d.anchor} variant ${i + 1}`).toContain(`id="${d.anchor}.variant-${i + 1}"`);
      }
    }
    expect(unfolded).toBeGreaterThan(50);
  });

  it('carry the whole description: a lede of whole sentences under the title, the rest right after the first table', () => {
    let split = 0;
    for (const doc of docs) {
      const page = html(doc);
      const { lede, rest } = splitLede(doc.description);
      const ledeAt = page.indexOf(`<p class="schema-lede">${esc(lede)}</p>`);
      expect(ledeAt, `${doc.stem}: lede`).toBeGreaterThan(0);
      if (rest === '') continue;
      split++;
      const restAt = page.indexOf(`<p class="schema-more">${esc(rest)}</p>`);
      const firstTable = page.search(/<table class="schema-table/);
      expect(restAt, `${doc.stem}: the rest of the description`).toBeGreaterThan(firstTable);
      expect(page.slice(firstTable, restAt), `${doc.stem}: no second definition between the first table and the rest`).not.toContain('<section class="schema-def');
    }
    expect(split, 'long descriptions are split').toBeGreaterThan(5);
  });
});

describe('splitLede', () => {
  it('keeps whole sentences within the budget, at least the first, and loses no word', () => {
    const text = 'One short sentence. Another of `code`. (A third in brackets.) RFC 0039 §A: a fourth. e.g. lower case stays joined.';
    for (const budget of [1, 20, 40, 60, 80, 200]) {
      const { lede, rest } = splitLede(text, budget);
      expect([lede, rest].filter((x) => x !== '').join(' ')).toBe(text);
      expect(lede.length <= budget || !lede.includes('. ')).toBe(true);
      expect(lede.endsWith('.') || lede.endsWith(')')).toBe(true);
    }
    expect(splitLede(text, 20)).toEqual({ lede: 'One short sentence.', rest: text.slice('One short sentence. '.length) });
    expect(splitLede(text, 1000).rest).toBe('');
    expect(splitLede('', LEDE_BUDGET)).toEqual({ lede: '', rest: '' });
  });
});
