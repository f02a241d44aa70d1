/**
 * Acceptance: anyone's corpus. In an empty folder, `init`, then a schema under the author's own domain and names
 * (lower-case type names, allowed by their settings), then `gen --all`, `lint`, `check-examples`, `validate` on every
 * example, `compat` and a short `gen --watch` all succeed, and no generated file name or content says "wopkit".
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWatch } from '../../generator/watch/command.ts';
import { run } from './helpers.ts';

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => relative(dir, join(d.parentPath, d.name))).sort();

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

describe('a downstream corpus, from init to watch', () => {
  const root = mkdtempSync(join(tmpdir(), 'downstream-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const base = 'https://specs.acme.example/';
  const folder = join(root, 'schemas/shop/v1');
  const id = `${base}shop/v1/order-line.schema.json`;

  it('init, an own schema with lower-case type names, gen --all, lint, check-examples, validate, compat, watch: no "wopkit"', async () => {
    const init = await run(['init', '--root', root, '--family', 'shop', '--id-base', base]);
    expect(init.code, init.err).toBe(0);

    // The author's settings: their names, lower-case type names allowed.
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    manifest.wopkit.typeName = '[a-z][A-Za-z0-9]*|[A-Z][A-Za-z0-9]*';
    manifest.wopkit.output = { name: 'acme-shop', csharp: { namespace: 'Acme.Shop' } };
    writeFileSync(join(root, 'package.json'), json(manifest));

    // The author's schema: an order line with a money $defs entry, lower-case titles.
    writeFileSync(join(folder, 'order-line.schema.json'), json({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: id,
      title: 'orderLine',
      description: 'One line of an order.',
      'x-direction': 'request',
      type: 'object',
      additionalProperties: false,
      required: ['sku', 'quantity', 'price'],
      properties: {
        sku: { description: 'Stock keeping unit.', type: 'string', pattern: '^[A-Z0-9-]+$' },
        quantity: { description: 'How many; at least one.', type: 'integer', minimum: 1 },
        price: { description: 'Unit price.', $ref: '#/$defs/money' },
      },
      $defs: {
        money: {
          title: 'money',
          description: 'An amount in minor units of a currency.',
          type: 'object',
          additionalProperties: false,
          required: ['amount', 'currency'],
          properties: {
            amount: { description: 'Minor units (cents).', type: 'integer' },
            currency: { description: 'ISO 4217 code.', type: 'string', pattern: '^[A-Z]{3}$' },
          },
        },
      },
    }));
    const example = (target: string, kind: string, name: string, body: unknown) => {
      mkdirSync(join(folder, 'examples', target, kind), { recursive: true });
      writeFileSync(join(folder, 'examples', target, kind, name), json(body));
    };
    const ref = (def?: string) => (def ? `${id}#/$defs/${def}` : id);
    example('order-line', 'valid', 'one.json', { $schema: ref(), sku: 'A-1', quantity: 2, price: { amount: 250, currency: 'EUR' } });
    example('order-line', 'invalid', 'zero.json', { description: 'At least one.', expect: { instancePath: '/quantity', keyword: 'minimum' }, instance: { $schema: ref(), sku: 'A-1', quantity: 0, price: { amount: 1, currency: 'EUR' } } });
    example('order-line--money', 'valid', 'eur.json', { $schema: ref('money'), amount: 99, currency: 'EUR' });
    example('order-line--money', 'invalid', 'lower.json', { description: 'Codes are upper case.', expect: { instancePath: '/currency', keyword: 'pattern' }, instance: { $schema: ref('money'), amount: 1, currency: 'eur' } });

    const gen = await run(['gen', '--all', '--root', root]);
    expect(gen.code, gen.err).toBe(0);
    for (const command of ['lint', 'check-examples', 'compat']) {
      const r = await run([command, '--root', root]);
      expect(r.code, `${command}: ${r.out}\n${r.err}`).toBe(0);
    }
    // validate: every example file gets the verdict its folder declares, through the generated validators.
    for (const [type, target] of [['Note', 'note'], ['orderLine', 'order-line'], ['money', 'order-line--money']] as const)
      for (const kind of ['valid', 'invalid'] as const) {
        const files = readdirSync(join(folder, 'examples', target, kind)).map((n) => join(folder, 'examples', target, kind, n));
        const r = await run(['validate', type, ...files, '--root', root, '--format', 'json']);
        expect(JSON.parse(r.out).results.map((x: { valid: boolean }) => x.valid), `${type} ${kind}`).toEqual(files.map(() => kind === 'valid'));
      }

    // A lower-case title's validator name names it too.
    expect((await run(['validate', 'validateorderLine', join(folder, 'examples/order-line/valid/one.json'), '--root', root])).code).toBe(0);

    // A short gen --watch: one edit is regenerated, then it stops.
    const lines: string[] = [];
    const stop = new AbortController();
    const watching = runWatch({ command: 'gen', args: [], format: 'text', root, flags: new Set(['--watch']) }, { out: (s) => lines.push(s), err: (s) => lines.push(s) }, stop.signal);
    const deadline = Date.now() + 20_000;
    while (!lines.some((l) => l.startsWith('watch: watching')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const schemaFile = join(folder, 'order-line.schema.json');
    writeFileSync(schemaFile, readFileSync(schemaFile, 'utf8').replace('One line of an order.', 'One line of an order (edited).'));
    while (!lines.some((l) => l.startsWith('watch: generated/ up to date') && lines.some((x) => x.startsWith('watch: changed'))) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    expect(await watching).toBe(0);
    expect(readFileSync(join(root, 'generated/ts/order-line.ts'), 'utf8')).toContain('(edited)');

    // Nothing generated names this toolkit: no file name, no content.
    const generated = filesUnder(join(root, 'generated'));
    expect(generated.length).toBeGreaterThan(15);
    expect(generated.filter((f) => /wopkit/i.test(f))).toEqual([]);
    expect(generated.filter((f) => /wopkit/i.test(readFileSync(join(root, 'generated', f), 'utf8')))).toEqual([]);
    // The other languages carry the corpus's own names.
    expect(generated).toEqual(expect.arrayContaining(['other-languages/python/acme_shop_types.py', 'other-languages/go/acmeshop/types.go', 'other-languages/csharp/AcmeShopTypes.cs']));
    expect(readFileSync(join(root, 'generated/other-languages/csharp/AcmeShopTypes.cs'), 'utf8')).toContain('namespace Acme.Shop');
  }, 120_000);
});
