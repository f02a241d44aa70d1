/**
 * One text per validation failure: the generator's failureMessage (check-examples, watch) and the generated guards'
 * toFailures (assert* guards, wopkit validate) say the same for every error, and an enum failure lists the values the
 * enum allows.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { failureMessage } from '../../generator/failure-message.ts';
import { toFailures } from '../../generated/guards/index.ts';
import { run, scratchFixture } from './helpers.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const json = fc.jsonValue({ maxDepth: 2 });
const error = fc.record({
  keyword: fc.constantFrom('enum', 'const', 'additionalProperties', 'unevaluatedProperties', 'required', 'type', 'format'),
  message: fc.option(fc.string(), { nil: undefined }),
  params: fc.oneof(
    fc.record({ allowedValues: fc.array(json, { maxLength: 4 }) }),
    fc.record({ allowedValue: json }),
    fc.record({ additionalProperty: fc.string() }),
    fc.record({ unevaluatedProperty: fc.string() }),
    fc.dictionary(fc.string(), json, { maxKeys: 2 }),
  ),
});

describe('failure messages', () => {
  it('failureMessage and the generated toFailures agree on every error (property)', () => {
    fc.assert(
      fc.property(error, (e) => {
        const [guard] = toFailures([{ ...e, instancePath: '/x', schemaPath: '#/x' } as never]);
        expect(guard?.message).toBe(failureMessage(e));
      }),
      { numRuns: Number(process.env['FC_RUNS'] ?? 300) },
    );
  });

  it('an enum failure lists the allowed values; a const failure the required value', () => {
    expect(failureMessage({ keyword: 'enum', message: 'must be equal to one of the allowed values', params: { allowedValues: ['public', 'community', 'personal'] } })).toBe(
      'must be equal to one of the allowed values: "public", "community", "personal"',
    );
    expect(failureMessage({ keyword: 'const', message: 'must be equal to constant', params: { allowedValue: 'v1' } })).toBe('must be equal to constant: "v1"');
  });

  it('check-examples names the allowed values of an enum a valid example breaks, at its line', async () => {
    const { root, cleanup } = scratchFixture();
    try {
      const p = join(root, 'schemas/demo/v1/examples/config/valid/full.json');
      const example = JSON.parse(readFileSync(p, 'utf8'));
      example.label = 'secret';
      writeFileSync(p, JSON.stringify(example, null, 2));
      const r = await run(['check-examples', '--root', root]);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/^schemas\/demo\/v1\/examples\/config\/valid\/full\.json:\d+:\d+: #\/label: valid example rejected: must be equal to one of the allowed values: "public", "community", "personal" \[enum\] \[example-valid\]$/m);
    } finally {
      cleanup();
    }
  });
});
