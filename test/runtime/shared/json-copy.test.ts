/**
 * copyJson gives what structuredClone gives for the data an event, transcript or trace holds, and shares nothing
 * with its input; the event log keeps the payload it validated, whatever the caller does to its object afterwards.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import fc from 'fast-check';
import { copyJson } from '../../../runtime/shared/json-copy.ts';
import { eventsOf, openRuntime, request } from '../support.ts';

/** Every container of `v`, to check that none of them is reused in a copy. */
const containers = (v: unknown, out = new Set<object>()): Set<object> => {
  if (v !== null && typeof v === 'object') {
    out.add(v);
    for (const x of Object.values(v)) containers(x, out);
  }
  return out;
};

describe('copyJson', () => {
  it('equals structuredClone on JSON values, undefined members and non-plain objects, and shares no container (property)', () => {
    const value = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(fc.string(), fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.date({ noInvalidDate: true }).map((d) => ({ at: d })))),
    );
    fc.assert(
      fc.property(value, (v) => {
        const copy = copyJson(v);
        expect(copy).toStrictEqual(structuredClone(v));
        const mine = containers(v);
        for (const c of containers(copy)) expect(mine.has(c)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps an own __proto__ member a member (JSON.parse makes one), whatever its value, and leaves the prototype alone', () => {
    for (const text of ['{"__proto__": {"polluted": true}, "a": 1}', '{"__proto__": 5}', '{"x": [{"__proto__": null}]}']) {
      const parsed: unknown = JSON.parse(text);
      const copy = copyJson(parsed);
      expect(copy).toStrictEqual(structuredClone(parsed));
      expect(JSON.stringify(copy)).toBe(JSON.stringify(parsed));
    }
    const undefinedMember = Object.defineProperty({}, '__proto__', { value: undefined, enumerable: true, writable: true, configurable: true });
    expect(copyJson(undefinedMember)).toStrictEqual(structuredClone(undefinedMember));
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(copyJson(JSON.parse('{"__proto__": {"polluted": true}}')))).toBe(Object.prototype);
  });

  it('is typed by structure, never by the caller: an object copies to an object of unknown members, anything else to unknown', () => {
    expectTypeOf(copyJson({ a: 1 })).toEqualTypeOf<{ [key: string]: unknown }>();
    expectTypeOf(copyJson([1, 2])).toEqualTypeOf<{ [key: string]: unknown }>();
    const parsed: unknown = JSON.parse('1');
    expectTypeOf(copyJson(parsed)).toEqualTypeOf<unknown>();
    expectTypeOf(copyJson(parsed)).not.toEqualTypeOf<{ [key: string]: unknown }>();
    expect(copyJson([1, { a: 2 }])).toEqual([1, { a: 2 }]);
  });

  it('copies an object without a prototype to a plain object (as structuredClone does), and a Date to a Date', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: [1, { b: 2 }] });
    expect(Object.getPrototypeOf(copyJson(bare))).toBe(Object.getPrototypeOf(structuredClone(bare)));
    expect(copyJson(bare)).toEqual({ a: [1, { b: 2 }] });
    const at = new Date(0);
    expect(copyJson({ at }).at).toEqual(at);
    expect(copyJson({ at }).at).not.toBe(at);
  });
});

describe('the event log copies the payload it validated', () => {
  it('a caller changing its payload object after append changes neither the stored nor the returned event', async () => {
    const { rt, port } = await openRuntime();
    await request(port, (plan) => rt.startRun(plan, { runId: 'r1', workflowId: 'wf', memoryRef: 'mem://tenant-a/copy' }));
    const payload = { anything: { nested: [1, 2] } };
    const appended = await request(port, (plan) => {
      const e = rt.log.append(plan, 'r1', { type: 'vendor.acme.custom', payload });
      payload.anything.nested.push(3);
      return e;
    });
    expect(appended.value.payload).toEqual({ anything: { nested: [1, 2] } });
    expect((await eventsOf(rt, 'r1')).at(-1)?.payload).toEqual({ anything: { nested: [1, 2] } });
  });
});
