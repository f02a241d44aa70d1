/**
 * `wopkit compat --majors` (generator/compat/majors.ts): every change of the types two majors share, classified as
 * compat classifies a release. On a small corpus of two majors: a change in a shared file is reported at its pointer
 * with its classification; the title suffix of the later major and a definition it reuses from the earlier one are
 * not; files of one major only are listed. On this repository's corpus: the closed v2 discovery root is reported, and
 * the CLI prints the same report.
 */
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../../generator/load.ts';
import { Resolved } from '../../../generator/resolve.ts';
import { DEFAULT_CONFIG } from '../../../generator/corpus-config.ts';
import { majorPairs, majorsReport } from '../../../generator/compat/majors.ts';
import type { JsonObject, LoadedCorpus, SchemaFile } from '../../../generator/model.ts';
import { REPO, run } from '../helpers.ts';

const BASE = 'https://example.org/schemas/';
const file = (major: string, stem: string, schema: JsonObject): SchemaFile => {
  const id = `${BASE}demo/${major}/${stem}.schema.json`;
  return { family: 'demo', major, fileName: `${stem}.schema.json`, stem, path: `schemas/demo/${major}/${stem}.schema.json`, id, schema: { $id: id, ...schema } };
};
const str = { description: 'A string.', type: 'string' };
const corpus: LoadedCorpus = {
  root: '/nonexistent',
  config: DEFAULT_CONFIG,
  examples: [],
  schemas: [
    file('v1', 'thing', { title: 'Thing', 'x-direction': 'request', type: 'object', properties: { a: str, b: str, shared: { $ref: '#/$defs/Shared' } }, additionalProperties: true, $defs: { Shared: { title: 'Shared', type: 'object', properties: { s: str }, additionalProperties: false } } }),
    file('v1', 'old', { title: 'Old', type: 'string' }),
    file('v2', 'thing', { title: 'ThingV2', 'x-direction': 'request', type: 'object', properties: { a: { description: 'Now a number.', type: 'number' }, b: str, shared: { $ref: '../v1/thing.schema.json#/$defs/Shared' } }, required: ['a'], additionalProperties: false }),
    file('v2', 'new', { title: 'NewV2', type: 'string' }),
  ],
};

describe('compat --majors', () => {
  const r = new Resolved(corpus);
  const report = majorsReport(r, 'demo', 'v1', 'v2');

  it('pairs consecutive majors of each family and lists the files only one major has', () => {
    expect(majorPairs(r)).toEqual([{ family: 'demo', from: 'v1', to: 'v2' }]);
    expect(report.shared).toEqual(['thing']);
    expect(report.onlyFrom).toEqual(['old']);
    expect(report.onlyTo).toEqual(['new']);
  });

  it('reports each change of a shared file at its pointer, classified by direction (a request shape: tightening breaks)', () => {
    const at = (pointer: string) => report.changes.filter((c) => c.pointer === pointer).map((c) => [c.kind, c.classification, c.type]);
    expect(at('/properties/a/type')).toEqual([['type-changed', 'breaking', 'ThingV2']]);
    expect(at('/additionalProperties')).toEqual([['object-closed', 'breaking', 'ThingV2']]);
    expect(report.changes.some((c) => c.kind === 'required-added' && c.classification === 'breaking')).toBe(true);
    expect(report.summary.breaking).toBe(report.changes.filter((c) => c.classification === 'breaking').length);
  });

  it('leaves out the later major\'s title suffix and a definition the later file reuses from the earlier major', () => {
    expect(report.changes.filter((c) => c.pointer === '/title')).toEqual([]);
    expect(report.changes.filter((c) => c.pointer.startsWith('/$defs/Shared'))).toEqual([]);
    expect(report.changes.every((c) => c.file === 'schemas/demo/v2/thing.schema.json')).toBe(true);
  });

  it('on this corpus: the v2 discovery root is closed (breaking), and the CLI prints the same report as JSON', async () => {
    const repo = new Resolved(loadCorpus(REPO));
    const ours = majorsReport(repo, 'openwop', 'v1', 'v2');
    expect(ours.changes.find((c) => c.file.endsWith('/v2/capabilities.schema.json') && c.pointer === '/additionalProperties')).toMatchObject({ kind: 'object-closed', classification: 'breaking' });
    expect(ours.shared.length).toBe(10);
    const res = await run(['compat', '--majors', '--root', REPO, '--format', 'json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.out)).toEqual({ command: 'compat --majors', ok: true, majors: [JSON.parse(JSON.stringify(ours))] });
  });
});
