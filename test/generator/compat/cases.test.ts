/**
 * The compat change corpus: one folder per change kind under cases/<case>/, a baseline (base/) and a changed corpus
 * (changed/) — in most folders the same change applied to a request shape and to a response shape — and the expected
 * classification as data (expected.json: file, pointer, kind, direction, classification of every change). One test
 * per folder; adding a folder adds a case.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../../generator/load.ts';
import { resolveCorpus } from '../../../generator/resolve.ts';
import { compareCorpora } from '../../../generator/compat/report.ts';
import { CHANGE_KINDS, changeKindTable } from '../../../generator/compat/changes.ts';
import { REPO } from '../helpers.ts';
import { byCodeUnits } from '../../../generator/order.ts';

const CASES = join(import.meta.dirname, 'cases');
const cases = readdirSync(CASES).sort();

interface Expected {
  file: string;
  pointer: string;
  kind: string;
  direction: string;
  classification: string;
}
const order = (a: Expected, b: Expected) => byCodeUnits(a.file, b.file) || byCodeUnits(a.pointer, b.pointer) || byCodeUnits(a.kind, b.kind);

describe('compat classifies every change kind by direction', () => {
  it.each(cases)('%s', (name) => {
    const dir = join(CASES, name);
    const base = resolveCorpus(loadCorpus(join(dir, 'base')));
    const changed = resolveCorpus(loadCorpus(join(dir, 'changed')));
    const expected: Expected[] = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));
    const got = compareCorpora(base, changed, { rfcs: [], changelog: [] }).map(({ file, pointer, kind, direction, classification }) => ({ file, pointer, kind, direction: direction ?? '', classification }));
    expect(got.sort(order)).toEqual([...expected].sort(order));
  });

  it('the corpus covers every change kind the brief names, in both directions', () => {
    const seen = new Map<string, Set<string>>();
    for (const name of cases)
      for (const e of JSON.parse(readFileSync(join(CASES, name, 'expected.json'), 'utf8')) as Expected[]) {
        const set = seen.get(e.kind) ?? new Set<string>();
        set.add(e.direction);
        seen.set(e.kind, set);
      }
    const required = ['file-added', 'file-removed', 'file-renamed', 'id-changed', 'definition-added', 'definition-removed', 'property-added', 'property-removed', 'required-added', 'required-removed', 'type-narrowed', 'type-widened', 'enum-value-added', 'enum-value-removed', 'const-changed', 'object-opened', 'object-closed', 'bound-tightened', 'bound-loosened', 'pattern-changed', 'ref-changed'];
    for (const kind of required) {
      expect(Object.keys(CHANGE_KINDS), kind).toContain(kind);
      expect([...(seen.get(kind) ?? [])], kind).toEqual(expect.arrayContaining(['request', 'response']));
    }
  });

  it("docs/generator.md lists exactly the table's change kinds", () => {
    const docs = readFileSync(join(REPO, 'docs/generator.md'), 'utf8');
    const block = /<!-- compat-kinds: begin[^\n]*-->\n([\s\S]*?)\n<!-- compat-kinds: end -->/.exec(docs);
    expect(block, 'docs/generator.md has a compat-kinds block').not.toBeNull();
    expect(block![1]).toBe(changeKindTable());
  });
});
