/**
 * The registered widget kinds (runtime/inquirium/widget-kinds.ts) against the schemas that register them, and the
 * answers each allows against its payload's choices (fast-check).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerAllowed, takesList, validateProposedQuestion, WIDGET_KINDS, widgetKindOf } from '../../../runtime/inquirium/widget-kinds.ts';

const request = JSON.parse(readFileSync('schemas/inquirium/v1/inquirium.operator-question.request.v1.schema.json', 'utf8')) as {
  $defs: { WidgetKind: { enum: string[] } } & Record<string, { $ref?: string }>;
  'x-type-index': Record<string, string>;
};
/** A valid corpus request, without the `$schema` key an example file carries for editors. */
function example(name: string): Record<string, unknown> {
  const { $schema: _editorHint, ...req } = JSON.parse(readFileSync(`schemas/inquirium/v1/examples/inquirium.operator-question.request.v1/valid/${name}.json`, 'utf8')) as Record<string, unknown>;
  // The host refuses a question without a timeout (it could never fail closed); the corpus leaves some out.
  return { timeout: 'PT10M', ...req };
}
const POLICY = { displayCeiling: 'personal' as const };

describe('the widget kind table', () => {
  it('has exactly the kinds the request schema registers, each with the payload schema its type index names', () => {
    expect(WIDGET_KINDS.map((k) => k.kind)).toEqual(request.$defs.WidgetKind.enum);
    for (const k of WIDGET_KINDS) {
      const def = request['x-type-index'][k.kind]!.replace('#/$defs/', '');
      expect(request.$defs[def]!.$ref, k.kind).toBe(`./${k.payloadSchema}.schema.json`);
    }
  });

  it('every valid corpus request passes the host refusal function, and its timeout default is an allowed answer', () => {
    for (const name of ['confirm-egress', 'free-text-with-allowlist', 'multi-choice-sources', 'seed-remote-runtime-approval']) {
      const req = example(name);
      expect(validateProposedQuestion(req, POLICY), name).toEqual([]);
      const def = req['default/on-timeout'] as { answer: string | string[] } | undefined;
      if (def !== undefined) expect(answerAllowed(req, def.answer), name).toBe(true);
    }
  });

  it('an answer is allowed exactly when its values are distinct choices, one string unless the kind takes a list, within the arity', () => {
    const req = example('multi-choice-sources');
    const payload = req['widget/payload'] as Record<string, unknown>;
    const kind = widgetKindOf(req['widget/kind'])!;
    const values = kind.choices(payload).map((c) => c.value);
    const { min, max } = kind.arity(payload);
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...values), fc.string()), { maxLength: 5 }), (answer) => {
        const expected = answer.length >= min && answer.length <= max && new Set(answer).size === answer.length && answer.every((a) => values.includes(a));
        expect(answerAllowed(req, answer)).toBe(expected);
      }),
    );
    const single = example('seed-remote-runtime-approval');
    const singleKind = widgetKindOf(single['widget/kind'])!;
    expect(takesList(singleKind)).toBe(false);
    const choices = singleKind.choices(single['widget/payload'] as Record<string, unknown>).map((c) => c.value);
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...choices), fc.string()), (a) => {
        expect(answerAllowed(single, a)).toBe(choices.includes(a));
      }),
    );
    expect(answerAllowed(single, [choices[0]!])).toBe(false);
  });

  it('free text with a case-insensitive allowlist accepts any casing of an entry and nothing else', () => {
    const req = example('free-text-with-allowlist');
    const payload = req['widget/payload'] as { allowlist: string[]; match?: string };
    const ci = payload.match === 'case-insensitive';
    fc.assert(
      fc.property(fc.constantFrom(...payload.allowlist), fc.boolean(), (entry, upper) => {
        const typed = upper ? entry.toUpperCase() : entry;
        expect(answerAllowed(req, typed)).toBe(ci || typed === entry);
      }),
    );
  });

  it('refuses duplicate option values and a timeout default outside the choices, which no schema can state', () => {
    const req = example('seed-remote-runtime-approval');
    const payload = req['widget/payload'] as { options: { value: string; title: string }[] };
    const dup = { ...req, 'widget/payload': { options: [payload.options[0], { ...payload.options[1], value: payload.options[0]!.value }] } };
    expect(validateProposedQuestion(dup, POLICY).map((i) => i.code)).toContain('duplicate-option-values');
    const badDefault = { ...req, 'default/on-timeout': { answer: 'maybe', 'reason/code': 'timeout-fail-closed' } };
    expect(validateProposedQuestion(badDefault, POLICY).map((i) => i.code)).toEqual(['default-not-allowed']);
  });

  it('a kind missing from the table is refused by the host even when the schema knows it', () => {
    const req = example('confirm-egress');
    expect(validateProposedQuestion(req, POLICY, WIDGET_KINDS.filter((k) => k.kind !== 'confirm')).map((i) => i.code)).toEqual(['widget-kind-unregistered']);
  });
});
