/**
 * The validator of the playground and the schema pages' "Try it" boxes (site/src/lib/playground/), without a
 * browser: on every corpus example of every type it reports exactly what `wopkit validate --format json` reports
 * (valid, or the same failures in the same order: pointer, keyword, message), run events included; a malformed
 * document gets the CLI's own parse error; its failure wording equals the generated guards'; the permalink carries
 * any text; the editor marks the line each failure points at. The page itself, in Chromium: reader.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { validate } from '../../generator/commands/validate.ts';
import { parseJsonText } from '../../generator/json-parse.ts';
import { KNOWN_RUN_EVENT_TYPES, RUN_EVENT_ENVELOPE } from '../../generated/run-events/index.ts';
import { toFailures as guardFailures } from '../../generated/guards/index.ts';
import type { SchemaDoc, SiteIndex } from '../../generator/site-data-format.ts';
import { checkText, checkValue, toFailures, type ValidatorFn, type Verdict } from '../../site/src/lib/playground/check.ts';
import { backdropHtml, marks } from '../../site/src/lib/playground/editor.ts';
import { playgroundFile, type PlaygroundFile, type ValidatorRef } from '../../site/src/lib/playground/model.ts';
import { decodePermalink, encodePermalink } from '../../site/src/lib/playground/permalink.ts';
import { readFileSync } from 'node:fs';

const siteIndex = JSON.parse(readFileSync('generated/site-data/index.json', 'utf8')) as SiteIndex;
const docs = siteIndex.families.flatMap((f) => f.schemas.map((s) => JSON.parse(readFileSync(join('generated/site-data', s.data), 'utf8')) as SchemaDoc));
const byFile = new Map(docs.map((d) => [`${d.family}/${d.stem}`, d]));
const index = {
  definitionOf: (l: { family: string; stem: string; def: string }) => byFile.get(`${l.family}/${l.stem}`)?.definitions.find((d) => d.def === l.def),
  hrefOf: (family: string, stem: string, d: { anchor: string }) => `/schemas/${family}/${stem}/#${d.anchor}`,
};
const typeIndexEntries = docs.flatMap((d) => d.definitions.flatMap((x) => x.typeIndex));
const files: PlaygroundFile[] = docs.map((d) => playgroundFile(d, index, typeIndexEntries, { envelope: RUN_EVENT_ENVELOPE, known: KNOWN_RUN_EVENT_TYPES }));

/** The generated module a validator ref names, loaded as the browser loads it (one file of by-type/). */
const modules = new Map<string, Record<string, unknown>>();
async function load(ref: ValidatorRef): Promise<ValidatorFn> {
  let m = modules.get(ref.module);
  if (m === undefined) modules.set(ref.module, (m = (await import(resolve('generated/validators/by-type', `${ref.module}.js`))) as Record<string, unknown>));
  return m[ref.name] as ValidatorFn;
}

const scratch = mkdtempSync(join(tmpdir(), 'wopkit-playground-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `wopkit validate --format json <type> <files…>` in process: each file's validity and failures. */
async function cli(type: string, instances: readonly string[]): Promise<{ valid: boolean; failures: { instancePath: string; keyword: string; message: string }[]; error?: { message: string } }[]> {
  const paths = instances.map((text, i) => {
    const p = join(scratch, `${type}-${i}.json`);
    writeFileSync(p, text);
    return p;
  });
  let out = '';
  await validate({ command: 'validate', args: [type, ...paths], format: 'json', root: resolve('.'), flags: new Set() }, { out: (s) => (out += s), err: () => {} });
  return (JSON.parse(out) as { results: { valid: boolean; failures: { instancePath: string; keyword: string; message: string }[]; error?: { message: string } }[] }).results;
}

/** The playground's verdict in the CLI's shape. */
const asCli = (v: Verdict) => (v.kind === 'valid' ? { valid: true, failures: [] } : v.kind === 'invalid' ? { valid: false, failures: v.failures.map((f) => ({ instancePath: f.instancePath, message: f.message, keyword: f.keyword })) } : { valid: false, failures: [], error: { message: v.message } });

describe('the playground reports what the CLI reports', () => {
  it('on every corpus example of every type, valid and invalid, run events through their payloads', async () => {
    let compared = 0;
    for (const file of files) {
      for (const t of file.types) {
        const examples = [...t.examples.valid.map((e) => e.instance), ...t.examples.invalid.map((e) => e.instance)];
        if (examples.length === 0) continue;
        const texts = examples.map((e) => `${JSON.stringify(e, null, 2)}\n`);
        const expected = await cli(t.title, texts);
        const validateFn = await load(t.validator);
        const payloads = t.payloads === undefined ? undefined : new Map(await Promise.all(Object.entries(t.payloads).map(async ([k, r]) => [k, await load(r)] as const)));
        const dispatch = payloads === undefined ? undefined : { payloadOf: (x: string) => payloads.get(x) };
        for (const [i, text] of texts.entries()) {
          const got = asCli(checkText(text, validateFn, dispatch));
          expect(got, `${t.title} example ${i}`).toEqual({ valid: expected[i]!.valid, failures: expected[i]!.failures });
          compared++;
        }
        // The invalid ones are invalid, as the corpus declares.
        for (const e of t.examples.invalid) expect(checkValue(e.instance, validateFn, dispatch).kind, `${t.title}: ${e.name}`).toBe('invalid');
      }
    }
    expect(compared).toBeGreaterThan(500);
  }, 120_000);

  it('a malformed document: the same parse error, with line and column, as the CLI', async () => {
    const bad = ['{"a": 1,}', '{\n  "id": x\n}', '[1, 2', '', '{"a" 1}', '\ufeff{"a": tru}'];
    const expected = await cli('MemoryEntry', bad);
    const validateFn = await load({ module: 'MemoryEntry', name: 'validateMemoryEntry' });
    for (const [i, text] of bad.entries()) {
      const v = checkText(text, validateFn);
      expect(v.kind, JSON.stringify(text)).toBe('malformed');
      expect(expected[i]!.error?.message, JSON.stringify(text)).toBe((v as { message: string }).message);
      if (v.kind === 'malformed' && v.line !== undefined) expect(v.message).toContain(`line ${v.line}, column ${v.column}`);
    }
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('}', ',', ':', 'x', '"'), (json, at, junk) => {
        const text = json.slice(0, at % (json.length + 1)) + junk + json.slice(at % (json.length + 1));
        const p = parseJsonText(text);
        const v = checkText(text, validateFn);
        if (p.ok) expect(v.kind).not.toBe('malformed');
        else expect(v).toMatchObject({ kind: 'malformed', message: p.message });
      }),
    );
  });

  it('words failures as the generated guards do, for any keyword and parameters', () => {
    const error = fc.record({
      instancePath: fc.string(),
      keyword: fc.constantFrom('additionalProperties', 'unevaluatedProperties', 'enum', 'const', 'required', 'type', 'pattern'),
      message: fc.option(fc.string(), { nil: undefined }),
      schemaPath: fc.string(),
      params: fc.record({ additionalProperty: fc.option(fc.string(), { nil: undefined }), unevaluatedProperty: fc.option(fc.string(), { nil: undefined }), allowedValues: fc.option(fc.array(fc.jsonValue()), { nil: undefined }), allowedValue: fc.jsonValue() }, { requiredKeys: [] }),
    });
    fc.assert(
      fc.property(fc.array(error, { maxLength: 4 }), (errors) => {
        expect(toFailures(errors)).toEqual(guardFailures(errors));
      }),
    );
  });
});

describe('the playground data of each schema file', () => {
  it('names, for every type with a validator, a module of generated/validators/by-type/ that exports it', async () => {
    for (const f of files) for (const t of f.types) expect(typeof (await load(t.validator)), `${t.title}: ${t.validator.module}.${t.validator.name}`).toBe('function');
    expect(files.flatMap((f) => f.types).length).toBeGreaterThan(150);
  });

  it('dispatches every known run-event type of the envelope to a payload validator', () => {
    const envelope = files.flatMap((f) => f.types).find((t) => t.title === RUN_EVENT_ENVELOPE)!;
    expect(Object.keys(envelope.payloads ?? {}).sort()).toEqual([...KNOWN_RUN_EVENT_TYPES].sort());
  });

  it('lists the runtime rules a type and the types it uses carry, each once', () => {
    const request = files.flatMap((f) => f.types).find((t) => t.title === 'InquiriumOperatorQuestionRequest')!;
    const ids = request.rules.map((r) => `${r.of}/${r.id}`);
    expect(ids).toEqual(expect.arrayContaining(['InquiriumOperatorQuestionRequest/question-host-validation']));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.some((id) => !id.startsWith('InquiriumOperatorQuestionRequest/'))).toBe(true);
  });
});

describe('permalink and editor marks', () => {
  it('the permalink carries any text, malformed JSON and any Unicode included; a damaged one is refused', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,30}$/), (doc, type) => {
        expect(decodePermalink(encodePermalink({ type, doc }))).toEqual({ type, doc });
      }),
    );
    expect(decodePermalink('#type=MemoryEntry&doc=%%%')).toBeUndefined();
    expect(decodePermalink('#doc=e30')).toBeUndefined();
    expect(decodePermalink('')).toBeUndefined();
  });

  it('marks the line of each failure (the member, or the object that lacks it), and of a parse error', () => {
    const text = '{\n  "id": "m1",\n  "tags": [\n    3\n  ]\n}\n';
    const v: Verdict = { kind: 'invalid', failures: [{ instancePath: '/tags/0', keyword: 'type', message: 'must be string' }, { instancePath: '', keyword: 'required', message: "must have required property 'content'" }] };
    expect([...marks(text, v).entries()]).toEqual([[3, ['type: must be string']], [0, ["required: must have required property 'content'"]]]);
    const html = backdropHtml(text, v);
    expect(html.split('\n')[3]).toContain('pg-marked');
    expect(html).toContain('type: must be string');
    expect(html.split('\n').length).toBe(text.split('\n').length + 1);
    const malformed = checkText('{\n  "a": nope\n}', (() => true) as ValidatorFn);
    expect([...marks('{\n  "a": nope\n}', malformed).keys()]).toEqual([1]);
    expect(backdropHtml('<b>&', { kind: 'valid' })).toBe('<span class="pg-line">&lt;b&gt;&amp;</span>\n');
  });
});
