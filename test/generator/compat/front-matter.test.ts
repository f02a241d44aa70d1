/**
 * compat reads three keys of the RFC front matter (number, compatibility, affects) with a small reader instead of a
 * YAML library (the CLI's packages stay ajv and ajv-formats); it must agree with a real YAML parser on every RFC.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import { frontMatterKeys, readRfcs, rfcsFor } from '../../../generator/compat/acknowledge.ts';
import { REPO } from '../helpers.ts';

describe('RFC front matter as compat reads it', () => {
  const files = readdirSync(join(REPO, 'RFCs')).filter((f) => f.endsWith('.md'));
  it.each(files)('%s: number, compatibility, affects, and the other scalar and list keys agree with js-yaml', (f) => {
    const text = readFileSync(join(REPO, 'RFCs', f), 'utf8');
    const parsed = yaml.load(/^---\r?\n([\s\S]*?)\r?\n---/.exec(text)![1]!) as Record<string, unknown>;
    const keys = frontMatterKeys(text);
    expect(keys.get('number')).toBe(String(parsed['number']));
    expect(keys.get('compatibility')).toBe(parsed['compatibility']);
    expect(keys.get('affects')).toEqual(parsed['affects']);
    for (const k of ['title', 'status', 'summary', 'supersedes', 'authors']) expect(keys.get(k), k).toEqual(parsed[k]);
  });

  it('flow sequences and quoted scalars', () => {
    const keys = frontMatterKeys('---\naffects: [schemas/a.schema.json, "schemas/b.schema.json#/$defs/X", \'it\'\'s\']\ncompatibility: "breaking" # now\n---\nbody');
    expect(keys.get('affects')).toEqual(['schemas/a.schema.json', 'schemas/b.schema.json#/$defs/X', "it's"]);
    expect(keys.get('compatibility')).toBe('breaking');
  });

  it('maps a change to the RFCs whose affects cover its place, else to those naming the file', () => {
    const rfcs = readRfcs(REPO);
    const numbers = (file: string, pointer: string) => rfcsFor(rfcs, [file], pointer).map((r) => r.number);
    expect(numbers('schemas/openwop/v1/memory-entry.schema.json', '/properties/expiresAt')).toEqual(['AM-1.1']);
    expect(numbers('schemas/openwop/v1/memory-entry.schema.json', '/properties/tags/items')).toEqual(['0012', 'AM-1.1']);
    expect(numbers('schemas/openwop/v1/capabilities.schema.json', '/$defs/CommitmentsCapability/properties/supported')).toEqual(['0068']);
    expect(numbers('schemas/openwop/v1/capabilities.schema.json', '/$defs/HostInfo')).toEqual(['0012', '0039', '0068', 'AM-1.1']);
  });
});
