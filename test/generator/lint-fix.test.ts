/**
 * `wopkit lint --fix` (rule example-schema): writes the `$schema` an example names for editors into exactly the
 * examples that lack it or name another target, as their first member, and leaves every other byte of those files, and
 * every other file, as it was (the script it replaces reformatted 48 untouched examples).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { run, scratchFixture } from './helpers.ts';
import { withExampleSchema } from '../../generator/fix-example-schema.ts';

const REF = 'https://wopkit.dev/schemas/demo/v1/x.schema.json';

function files(dir: string, base = dir): Map<string, string> {
  const out = new Map<string, string>();
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) for (const [k, v] of files(p, base)) out.set(k, v);
    else out.set(relative(base, p), readFileSync(p, 'utf8'));
  }
  return out;
}

describe('withExampleSchema', () => {
  it('inserts as the first member in the file\'s own style, replaces a wrong value in place, changes nothing else (property)', () => {
    // JS objects put index-like keys first whatever the text says: leave them out of the key-order check
    const key = fc.string().filter((k) => k !== '$schema' && !/^(0|[1-9][0-9]*)$/.test(k));
    const object = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 });
    fc.assert(
      fc.property(object, fc.constantFrom(0, 2, 4, '\t'), fc.boolean(), fc.option(fc.string(), { nil: undefined }), (obj, indent, wrapped, wrong) => {
        const inner = wrong === undefined ? obj : { ...obj, $schema: wrong };
        const doc = wrapped ? { description: 'd', expect: { instancePath: '', keyword: 'type' }, instance: inner } : inner;
        const text = `${JSON.stringify(doc, null, indent)}\n`;
        const fixed = withExampleSchema(text, wrapped ? '/instance' : '', REF)!;
        const parsed = JSON.parse(fixed) as Record<string, unknown>;
        const target = (wrapped ? parsed['instance'] : parsed) as Record<string, unknown>;
        expect(target['$schema']).toBe(REF);
        if (wrong === undefined) expect(Object.keys(target)[0]).toBe('$schema');
        const rest = Object.fromEntries(Object.entries(target).filter(([k]) => k !== '$schema'));
        // compared as JSON: the document is JSON text, in which -0 is written 0 (fc.jsonValue generates -0)
        expect(JSON.stringify(rest)).toBe(JSON.stringify(obj));
        expect(JSON.stringify(Object.keys(rest))).toBe(JSON.stringify(Object.keys(obj)));
        // what was already there keeps its bytes: the fixed text minus the inserted member is the original
        if (wrong === undefined && Object.keys(obj).length > 0 && indent !== 0) expect(fixed.split('\n').filter((l) => !l.includes(`"$schema": ${JSON.stringify(REF)},`)).join('\n')).toBe(text);
        expect(withExampleSchema(fixed, wrapped ? '/instance' : '', REF)).toBe(fixed);
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 200) },
    );
  });

  it('keeps a compact file compact and an empty object readable', () => {
    expect(withExampleSchema('{"a":1}', '', REF)).toBe(`{"$schema":"${REF}","a":1}`);
    expect(withExampleSchema('{ "a": 1 }', '', REF)).toBe(`{ "$schema": "${REF}", "a": 1 }`);
    expect(withExampleSchema('{}\n', '', REF)).toBe(`{ "$schema": "${REF}" }\n`);
    expect(withExampleSchema('[1]', '', REF)).toBeUndefined();
  });
});

describe('wopkit lint --fix', () => {
  it('fixes exactly the examples with an example-schema finding, keeping their formatting; lint is clean after', async () => {
    const { root, cleanup } = scratchFixture();
    try {
      const examples = join(root, 'schemas/demo/v1/examples');
      const strip = (rel: string, indent: number | string, change: (j: Record<string, unknown>) => void) => {
        const p = join(examples, rel);
        const j = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
        change(j);
        writeFileSync(p, `${JSON.stringify(j, null, indent)}\n`);
      };
      strip('config/valid/full.json', 4, (j) => delete j['$schema']);
      strip('config/invalid/' + readdirSync(join(examples, 'config/invalid'))[0], '\t', (j) => delete (j['instance'] as Record<string, unknown>)['$schema']);
      strip('shared--Settings/valid/' + readdirSync(join(examples, 'shared--Settings/valid'))[0], 2, (j) => (j['$schema'] = 'https://wopkit.dev/schemas/demo/v1/shared.schema.json'));
      const before = files(root);
      const lint = await run(['lint', '--root', root, '--format', 'json']);
      expect(JSON.parse(lint.out).findings.map((f: { rule: string }) => f.rule)).toEqual(['example-schema', 'example-schema', 'example-schema']);
      expect(lint.out).toContain('or run wopkit lint --fix');
      const fixed = await run(['lint', '--fix', '--root', root]);
      expect(fixed.code).toBe(0);
      expect(fixed.out).toMatch(/^lint: fixed 3 files \(example-schema\): /);
      expect(fixed.out).toMatch(/^lint: clean/m);
      const after = files(root);
      const changed = [...after.keys()].filter((k) => after.get(k) !== before.get(k));
      expect(changed.length).toBe(3);
      for (const k of changed) {
        const old = before.get(k)!.split('\n');
        const now = after.get(k)!.split('\n');
        // one line added (a missing $schema) or one line changed (a wrong one), in the file's own indentation
        expect(now.filter((l) => !old.includes(l))).toHaveLength(1);
        expect(now.filter((l) => !old.includes(l))[0]).toMatch(/^(    |\t\t|  )"\$schema": "https:\/\/wopkit\.dev\/schemas\/demo\/v1\//);
      }
      expect((await run(['lint', '--fix', '--root', root])).out).not.toMatch(/fixed/);
    } finally {
      cleanup();
    }
  });

  it('never writes what lint refuses: ids off the base and examples naming any $schema are clean after one --fix (one base from the settings)', async () => {
    const { root, cleanup } = scratchFixture();
    try {
      writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'acme', wopkit: { idBase: 'https://acme.example/s/' } }));
      const dir = join(root, 'schemas/demo/v1');
      // Every $id is off the base the settings name (fix must write the one id-base asks for, not the one the schema had).
      for (const n of readdirSync(dir).filter((f) => f.endsWith('.schema.json'))) {
        const p = join(dir, n);
        writeFileSync(p, readFileSync(p, 'utf8').replace('https://wopkit.dev/schemas/demo/v1/', 'https://old.example/demo/v1/'));
      }
      // One example names a wrong target's $id, one none.
      const full = join(dir, 'examples/config/valid/full.json');
      writeFileSync(full, readFileSync(full, 'utf8').replace(/"\$schema": "[^"]*"/, '"$schema": "https://wopkit.dev/schemas/demo/v1/shared.schema.json"'));
      const settings = join(dir, 'examples/shared--Settings/valid', readdirSync(join(dir, 'examples/shared--Settings/valid'))[0]!);
      writeFileSync(settings, readFileSync(settings, 'utf8').replace(/\s*"\$schema": "[^"]*",?/, ''));
      const before = JSON.parse((await run(['lint', '--root', root, '--format', 'json'])).out).findings as { rule: string }[];
      expect(new Set(before.map((f) => f.rule))).toEqual(new Set(['id-base', 'example-schema']));
      const fixed = await run(['lint', '--fix', '--root', root]);
      expect(fixed.out).toMatch(/^lint: fixed \d+ files \(example-schema, id-base\): /);
      const after = await run(['lint', '--root', root, '--format', 'json']);
      expect(JSON.parse(after.out).findings).toEqual([]);
      expect(after.code).toBe(0);
      expect((await run(['check-examples', '--root', root])).code).toBe(0);
    } finally {
      cleanup();
    }
  });
});
