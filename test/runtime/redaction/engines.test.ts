import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { redact } from '../../../runtime/redaction/chokepoint.ts';
import { engineFor, LeftmostLongestMatcher, REGEXP_MAX_FIRST_UNITS, type Engine } from '../../../runtime/redaction/leftmost-longest.ts';
import { referenceRedact } from '../../../runtime/redaction/reference.ts';
import type { TenantSecretScope } from '../../../runtime/redaction/secret-registry.ts';
import { acceptSecrets, openRuntime, requestSecrets } from '../support.ts';

const ENGINES: readonly Engine[] = ['regexp', 'automaton'];
const runtime = openRuntime();

/** Few code units (so secrets overlap, nest and share prefixes), regex metacharacters, and units beyond Latin-1 and the BMP. */
const unit = fc.constantFrom('a', 'b', 'c', '.', '*', '\\', '$', 'é', '€', '😀', '\n');
const secretArb = fc.string({ minLength: 8, maxLength: 14, unit });

/** A set with secrets that are substrings or prefixes of others (cut from the first one), and content made of them. */
const scenario = fc
  .tuple(fc.uniqueArray(secretArb, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 4 }), fc.array(fc.oneof(fc.nat(), fc.string({ maxLength: 6, unit })), { maxLength: 16 }))
  .map(([base, cuts, pieces]) => {
    const host = base.join('');
    const derived = cuts.map((c) => host.slice(c % host.length, (c % host.length) + 8 + (c % 5)));
    const secrets = [...new Set([...base, ...derived.filter((d) => d.length >= 8)])];
    const content = pieces.map((p) => (typeof p === 'number' ? (p % 3 === 0 ? secrets[p % secrets.length]!.slice(1) : secrets[p % secrets.length]!) : p)).join('');
    return { secrets, content };
  });

/**
 * One request's view of a tenant with `secrets` registered, 100 per run (a run holds at most 128); a value that
 * could overlap a marker is refused: fine.
 */
async function registryOf(secrets: readonly string[]): Promise<TenantSecretScope> {
  const scope = await requestSecrets((await runtime).rt, 't');
  for (let at = 0; at < secrets.length; at += 100) {
    await acceptSecrets(scope, `run-${at}`, secrets.slice(at, at + 100).map((s, i) => [`s${at + i}`, s] as const));
  }
  return scope;
}

/** The brute-force leftmost-longest scan the engines must reproduce, as [start, end] pairs. */
function bruteForce(patterns: readonly string[], text: string): [number, number][] {
  const out: [number, number][] = [];
  for (let s = 0; s < text.length; ) {
    const lens = patterns.filter((p) => p.length > 0 && text.startsWith(p, s)).map((p) => p.length);
    if (lens.length === 0) {
      s++;
      continue;
    }
    out.push([s, s + Math.max(...lens)]);
    s += Math.max(...lens);
  }
  return out;
}

describe('redaction engines agree with the simple reference', () => {
  it('redact equals the reference on random content and secret sets: overlaps, prefixes, nesting, unicode (property)', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ secrets, content }) => {
        const r = (await registryOf(secrets)).secrets;
        expect(redact(content, r)).toBe(referenceRedact(content, r.secrets()));
      }),
      { numRuns: 1500 },
    );
  });

  it('each engine, forced, finds exactly the brute-force leftmost-longest matches (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6, unit: fc.constantFrom('a', 'b', 'c', '😀', '|', '(') }), { minLength: 1, maxLength: 10 }),
        fc.string({ maxLength: 60, unit: fc.constantFrom('a', 'b', 'c', '😀', '|', '(', 'x') }),
        (patterns, text) => {
          const expected = bruteForce(patterns, text);
          for (const engine of ENGINES) {
            const m = new LeftmostLongestMatcher(patterns, { engine });
            const found = m.matches(text);
            expect(found.map((x) => [x.start, x.end]), engine).toEqual(expected);
            for (const x of found) expect(text.slice(x.start, x.end)).toBe(patterns[x.pattern]);
            expect(m.test(text), engine).toBe(expected.length > 0);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('picks the RegExp for few distinct first units and the automaton for many or long patterns', () => {
    expect(engineFor(['sk-live-0001', 'sk-live-0002'])).toBe('regexp');
    const varied = Array.from({ length: REGEXP_MAX_FIRST_UNITS + 1 }, (_, i) => `${String.fromCharCode(65 + i)}-token-value`);
    expect(engineFor(varied)).toBe('automaton');
    expect(engineFor(['k'.repeat(65)])).toBe('automaton');
  });

  it('both engines give the same redaction on a large varied set (the automaton path of the chokepoint)', async () => {
    const values = Array.from({ length: 300 }, (_, i) => `${String.fromCharCode(0x41 + (i % 58))}key${i.toString(36)}-value`);
    expect(engineFor(values)).toBe('automaton');
    const r = (await registryOf(values)).secrets;
    expect(engineFor(r.secrets().map((s) => s.value))).toBe('automaton');
    const content = values.filter((_, i) => i % 7 === 0).join(' and ') + ' tail';
    expect(redact(content, r)).toBe(referenceRedact(content, r.secrets()));
  });
});
