/**
 * One merged matcher per tenant (issue 12, item 2) and the collision-proof marker (item 3), as properties:
 * - the merged result equals the quadratic leftmost-longest reference over the union of the tenant's registries,
 *   and equals sequential per-registry redaction (the old chokepoint's shape) whenever values of different
 *   registries cannot meet in the content;
 * - for any secret set that registration accepts — values that overlap the marker and each other included —
 *   redaction never throws, terminates in one pass, is idempotent and leaves no registered value.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { redact, redactionMarker } from '../../../runtime/redaction/chokepoint.ts';
import type { RegisteredSecret, TenantSecretScope } from '../../../runtime/redaction/secret-registry.ts';
import { acceptSecrets, endRun, openRuntime, registerSecrets, request, requestSecrets, withRuntime } from '../support.ts';

const runtime = openRuntime();

/** Quadratic reference: at each position the longest secret starting there, else one character; protected markers kept. */
function referenceRedact(content: string, secrets: readonly RegisteredSecret[]): string {
  const byLength = [...secrets].sort((a, b) => b.value.length - a.value.length);
  const markers = new Set(secrets.map((s) => redactionMarker(s.secretId)));
  let out = '';
  for (let i = 0; i < content.length; ) {
    const marker = [...markers].find((m) => content.startsWith(m, i));
    const hit = marker === undefined ? byLength.find((s) => content.startsWith(s.value, i)) : undefined;
    if (marker !== undefined) {
      out += marker;
      i += marker.length;
    } else if (hit !== undefined) {
      out += redactionMarker(hit.secretId);
      i += hit.value.length;
    } else out += content[i++];
  }
  return out;
}

/** Register each run's secrets in its own registry of tenant acme, in one request's view; what registration refused is left out. */
async function tenantOf(runs: readonly (readonly string[])[], scope?: TenantSecretScope): Promise<{ scope: TenantSecretScope; accepted: RegisteredSecret[][] }> {
  const s = scope ?? (await requestSecrets((await runtime).rt, 'acme'));
  const accepted: RegisteredSecret[][] = [];
  for (const [r, values] of runs.entries()) accepted.push(await acceptSecrets(s, `run-${r}`, values.map((value, i) => [`r${r}s${i}`, value] as const)));
  return { scope: s, accepted };
}

const ab = fc.constantFrom('a', 'b');
const runsArb = (unit: fc.Arbitrary<string>) => fc.array(fc.uniqueArray(fc.string({ minLength: 8, maxLength: 11, unit }), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 });

describe('one merged matcher per tenant', () => {
  it('equals the leftmost-longest reference over the union of the live registries (differential property)', async () => {
    await fc.assert(
      fc.asyncProperty(runsArb(ab), fc.string({ maxLength: 80, unit: ab }), async (runs, text) => {
        const { scope } = await tenantOf(runs);
        const union = scope.secrets.secrets();
        expect(new Set(union.map((s) => s.value))).toEqual(new Set(runs.flat()));
        expect(scope.redact(text)).toBe(referenceRedact(text, union));
      }),
      { numRuns: 1500 },
    );
  });

  it('the union a later request reads back from the store (sealed, then opened) is the union the registering request had (property)', async () => {
    await fc.assert(
      fc.asyncProperty(runsArb(ab), fc.string({ maxLength: 80, unit: ab }), async (runs, text) => {
        await withRuntime({}, async ({ rt, port }) => {
          const registered = await request(port, async (plan) => {
            const scope = await rt.secretsOf(plan, 'acme');
            runs.forEach((_, r) => scope.claimRun(`run-${r}`));
            await tenantOf(runs, scope);
            return { union: scope.secrets.secrets(), redacted: scope.redact(text) };
          });
          const later = await requestSecrets(rt, 'acme');
          const byValue = (x: readonly RegisteredSecret[]) => [...x].sort((p, q) => (p.value < q.value ? -1 : 1));
          expect(byValue(later.secrets.secrets())).toEqual(byValue(registered.union));
          expect(later.redact(text)).toBe(registered.redacted);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('equals sequential per-registry redaction when values of different registries cannot meet in the content (property)', async () => {
    const abc = fc.constantFrom('a', 'b', 'c');
    await fc.assert(
      fc.asyncProperty(runsArb(abc), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.string({ maxLength: 6, unit: fc.constantFrom('x', 'y', ' ') })), { maxLength: 12 }), async (runs, picks) => {
        const { scope, accepted } = await tenantOf(runs);
        // No value of one registry contains a value of another (else the merged set redacts the longer one whole).
        const owner = accepted.flatMap((secrets, r) => secrets.map((s) => ({ r, v: s.value })));
        fc.pre(owner.every((a) => owner.every((b) => a.r === b.r || !a.v.includes(b.v))));
        // Pieces: one value each, filler from another alphabet, values apart by '|' (so they cannot run together).
        const text = picks.map(([r, n, filler]) => {
          const secrets = accepted[r % accepted.length]!;
          return secrets.length === 0 ? filler : `${filler}${secrets[n % secrets.length]!.value}|`;
        }).join('');
        const sequential = accepted.reduce((out, secrets) => referenceRedact(out, secrets), text);
        expect(redact(text, scope.secrets)).toBe(sequential);
      }),
      { numRuns: 1000 },
    );
  });

  it('a value held by two runs stays redacted until the last of them ends; the set is reopened only when it changes', async () => {
    const { rt } = await openRuntime();
    const view = async () => (await requestSecrets(rt, 'acme')).secrets;
    await registerSecrets(rt, 'acme', 'r1', { k1: 'sk-live-shared-0123456789' });
    await registerSecrets(rt, 'acme', 'r2', { k2: 'sk-live-shared-0123456789' });
    const set = await view();
    expect(await view()).toBe(set); // nothing changed: the cached set, not a new one
    expect(redact('x sk-live-shared-0123456789', set)).toBe('x [REDACTED:k1]');
    await endRun(rt, 'acme', 'r1');
    const after = await view();
    expect(after).not.toBe(set);
    expect(redact('x sk-live-shared-0123456789', after)).toBe('x [REDACTED:k2]'); // the value is now marked with r2's id
    await registerSecrets(rt, 'acme', 'r3', {});
    expect(await view()).toBe(after); // a run without secrets changes nothing
    await endRun(rt, 'acme', 'r2');
    expect((await view()).size).toBe(0);
  });
});

describe('the marker is collision-proof', () => {
  const markerish = fc.constantFrom('[', ']', 'R', 'E', 'D', 'A', 'C', 'T', ':', 'x', '-', 'r0s0', 'r1s1', '[REDACTED:', 'EDACTED', 'REDACTED:r0s1]');
  const valueArb = fc.array(markerish, { minLength: 2, maxLength: 8 }).map((parts) => parts.join('')).filter((v) => v.length >= 8);
  it('for any accepted set (values overlapping the marker and each other included): never throws, idempotent, no value survives (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uniqueArray(valueArb, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 3 }), fc.array(fc.oneof(markerish, valueArb, fc.constantFrom('[REDACTED:r0s0]', '[REDACTED:r1s0]', '[REDACTED:nobody]')), { maxLength: 16 }), async (runs, pieces) => {
        const { scope, accepted } = await tenantOf(runs);
        const set = scope.secrets;
        const text = pieces.join('') + runs.flat().join('');
        const once = redact(text, set);
        expect(redact(once, set)).toBe(once);
        for (const { value } of accepted.flat()) expect(once.includes(value)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('registration accepts ordinary values next to the refused ones (the rule is not vacuous)', async () => {
    const { accepted } = await tenantOf([['REDACTED:', 'sk-live-0123456789', 'xx[REDACTED:yy', 'abc]defghijk', 'EDACTED:r0s'], ['plain-secret-1']]);
    expect(accepted.map((a) => a.map((s) => s.value))).toEqual([['sk-live-0123456789'], ['plain-secret-1']]);
  });

  it('an id whose marker would spell a live value of the tenant is refused too (rule 4, the other way round)', async () => {
    // run 0 registers "EDACTED:r1s0" (fine while no marker spells it); run 1's id r1s0 would: [REDACTED:r1s0]
    const { accepted } = await tenantOf([['EDACTED:r1s0'], ['plain-secret-1', 'plain-secret-2']]);
    expect(accepted.map((a) => a.map((s) => s.secretId))).toEqual([['r0s0'], ['r1s1']]);
  });
});
