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
import { redact, redactionMarker, writeRedactor } from '../../../runtime/redaction/chokepoint.ts';
import { SecretRefusedError, SecretRegistries, type RegisteredSecret } from '../../../runtime/redaction/secret-registry.ts';
import { ManualClock } from '../../../runtime/shared/clock.ts';

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

/** Register each run's secrets in its own registry of one tenant; what registration refused is left out. */
function tenantOf(runs: readonly (readonly string[])[]): { regs: SecretRegistries; accepted: RegisteredSecret[][] } {
  const regs = new SecretRegistries({ clock: new ManualClock() });
  const accepted = runs.map((values, r) => values.flatMap((value, i): RegisteredSecret[] => {
    const secretId = `r${r}s${i}`;
    try {
      return regs.forRun(`run-${r}`, 'acme').register(secretId, value, 'run') ? [{ secretId, value }] : [];
    } catch (e) {
      if (e instanceof SecretRefusedError) return [];
      throw e;
    }
  }));
  return { regs, accepted };
}

const ab = fc.constantFrom('a', 'b');
const runsArb = (unit: fc.Arbitrary<string>) => fc.array(fc.uniqueArray(fc.string({ minLength: 8, maxLength: 11, unit }), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 });

describe('one merged matcher per tenant', () => {
  it('equals the leftmost-longest reference over the union of the live registries (differential property)', () => {
    fc.assert(
      fc.property(runsArb(ab), fc.string({ maxLength: 80, unit: ab }), (runs, text) => {
        const { regs } = tenantOf(runs);
        const union = regs.tenantSecrets('acme')!.secrets();
        expect(writeRedactor(regs)(text, { tenant: 'acme' })).toBe(referenceRedact(text, union));
      }),
      { numRuns: 1500 },
    );
  });

  it('equals sequential per-registry redaction when values of different registries cannot meet in the content (property)', () => {
    const abc = fc.constantFrom('a', 'b', 'c');
    fc.assert(
      fc.property(runsArb(abc), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.string({ maxLength: 6, unit: fc.constantFrom('x', 'y', ' ') })), { maxLength: 12 }), (runs, picks) => {
        const { regs, accepted } = tenantOf(runs);
        // No value of one registry contains a value of another (else the merged set redacts the longer one whole).
        const owner = accepted.flatMap((secrets, r) => secrets.map((s) => ({ r, v: s.value })));
        fc.pre(owner.every((a) => owner.every((b) => a.r === b.r || !a.v.includes(b.v))));
        // Pieces: one value each, filler from another alphabet, values apart by '|' (so they cannot run together).
        const text = picks.map(([r, n, filler]) => {
          const secrets = accepted[r % accepted.length]!;
          return secrets.length === 0 ? filler : `${filler}${secrets[n % secrets.length]!.value}|`;
        }).join('');
        const sequential = accepted.reduce((out, secrets) => referenceRedact(out, secrets), text);
        expect(redact(text, regs.tenantSecrets('acme'))).toBe(sequential);
      }),
      { numRuns: 1000 },
    );
  });

  it('a value held by two runs stays redacted until the last of them ends; the set recompiles only when it changes', () => {
    const regs = new SecretRegistries();
    regs.forRun('r1', 'acme').register('k1', 'sk-live-shared-0123456789', 'run');
    regs.forRun('r2', 'acme').register('k2', 'sk-live-shared-0123456789', 'run');
    const set = regs.tenantSecrets('acme')!;
    const version = set.version;
    expect(redact('x sk-live-shared-0123456789', set)).toBe('x [REDACTED:k1]');
    regs.endRun('r1');
    expect(set.version).toBe(version + 1); // the value is now marked with r2's id
    expect(redact('x sk-live-shared-0123456789', set)).toBe('x [REDACTED:k2]');
    regs.forRun('r3', 'acme');
    expect(set.version).toBe(version + 1); // a run without secrets changes nothing
    regs.endRun('r2');
    expect(regs.tenantSecrets('acme')?.size ?? 0).toBe(0);
  });
});

describe('the marker is collision-proof', () => {
  const markerish = fc.constantFrom('[', ']', 'R', 'E', 'D', 'A', 'C', 'T', ':', 'x', '-', 'r0s0', 'r1s1', '[REDACTED:', 'EDACTED', 'REDACTED:r0s1]');
  const valueArb = fc.array(markerish, { minLength: 2, maxLength: 8 }).map((parts) => parts.join('')).filter((v) => v.length >= 8);
  it('for any accepted set (values overlapping the marker and each other included): never throws, idempotent, no value survives (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(valueArb, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 3 }), fc.array(fc.oneof(markerish, valueArb, fc.constantFrom('[REDACTED:r0s0]', '[REDACTED:r1s0]', '[REDACTED:nobody]')), { maxLength: 16 }), (runs, pieces) => {
        const { regs, accepted } = tenantOf(runs);
        const set = regs.tenantSecrets('acme');
        const text = pieces.join('') + runs.flat().join('');
        const once = redact(text, set);
        expect(redact(once, set)).toBe(once);
        for (const { value } of accepted.flat()) expect(once.includes(value)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('registration accepts ordinary values next to the refused ones (the rule is not vacuous)', () => {
    const { accepted } = tenantOf([['REDACTED:', 'sk-live-0123456789', 'xx[REDACTED:yy', 'abc]defghijk', 'EDACTED:r0s'], ['plain-secret-1']]);
    expect(accepted.map((a) => a.map((s) => s.value))).toEqual([['sk-live-0123456789'], ['plain-secret-1']]);
  });

  it('an id whose marker would spell a live value of the tenant is refused too (rule 4, the other way round)', () => {
    // run 0 registers "EDACTED:r1s0" (fine while no marker spells it); run 1's id r1s0 would: [REDACTED:r1s0]
    const { accepted } = tenantOf([['EDACTED:r1s0'], ['plain-secret-1', 'plain-secret-2']]);
    expect(accepted.map((a) => a.map((s) => s.secretId))).toEqual([['r0s0'], ['r1s1']]);
  });
});
