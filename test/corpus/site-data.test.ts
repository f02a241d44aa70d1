/**
 * Real corpus: the site data is complete and its links never dangle (the site renders it without re-reading schemas).
 * The site shows the first major (its schema pages have no major switch yet): the data covers exactly that major.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCorpus } from '../../generator/load.ts';
import { Resolved } from '../../generator/resolve.ts';
import { REPO } from '../generator/helpers.ts';
import type { SchemaDoc, SiteIndex } from '../../generator/site-data-format.ts';

const DATA = join(REPO, 'generated/site-data');
const read = (rel: string) => JSON.parse(readFileSync(join(DATA, rel), 'utf8'));
describe('site data', () => {
  const r = new Resolved(loadCorpus(REPO)).firstMajorOnly();
  const corpus = r.corpus;
  const index = read('index.json') as SiteIndex;
  const docs = new Map<string, SchemaDoc>();
  for (const f of index.families) for (const s of f.schemas) docs.set(s.data, read(s.data));

  it('documents every schema file and every type', () => {
    expect(docs.size).toBe(corpus.schemas.length);
    // every titled root and $defs entry, including a pure $defs container root (documented, no type generated)
    expect(Object.keys(index.types).sort()).toEqual([...r.entries.values()].filter((e) => e.title).map((e) => e.title).sort());
    for (const t of r.types) expect(index.types[t.title], t.title).toBeDefined();
  });

  it('every type carries its TypeScript declaration, validator name and examples', () => {
    for (const doc of docs.values())
      for (const d of doc.definitions.filter((x) => x.isType)) {
        expect(d.typescript, d.title).toMatch(new RegExp(`^(/\\*\\*[\\s\\S]*?\\*/\\s*)?export (interface|type) ${d.title}\\b`));
        expect(d.validator).toBe(`validate${d.title}`);
        for (const f of d.fields) expect(f.description, `${d.title}.${f.name}`).not.toBe('');
      }
  });

  it('every link points at an existing document and anchor', () => {
    const anchors = new Set([...docs].flatMap(([data, doc]) => doc.definitions.map((d) => `${data}#${d.anchor}`)));
    let links = 0;
    for (const doc of docs.values())
      for (const d of doc.definitions) {
        const all = [...d.references, ...d.referencedBy, ...d.fields.flatMap((f) => f.refs), ...d.variants.flatMap((v) => v.refs), ...d.typeIndex.map((t) => t.ref)];
        for (const l of all) {
          expect(l, d.title).not.toBeNull();
          expect(docs.has(l!.data), `${d.title} → ${l!.data}`).toBe(true);
          if (l!.anchor) expect(anchors.has(`${l!.data}#${l!.anchor}`), `${d.title} → ${l!.data}#${l!.anchor}`).toBe(true);
          links++;
        }
      }
    for (const [title, at] of Object.entries(index.types)) expect(anchors.has(`${at.data}#${at.anchor}`), title).toBe(true);
    expect(links).toBeGreaterThan(100);
  });

  it('carries every example of the corpus', () => {
    let n = 0;
    for (const doc of docs.values()) for (const d of doc.definitions) n += d.examples.valid.length + d.examples.invalid.length;
    expect(n).toBe(corpus.examples.length);
  });
});
