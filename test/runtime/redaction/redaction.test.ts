import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LeftmostLongestMatcher } from '../../../runtime/redaction/leftmost-longest.ts';
import { naiveRedact, redact, redactionMarker } from '../../../runtime/redaction/chokepoint.ts';
import { RunSecretRegistry, SecretRefusedError, SecretRegistries, SimulatedByokResolver, type SecretScope } from '../../../runtime/redaction/secret-registry.ts';

const registry = (secrets: Record<string, string>) => {
  const r = new RunSecretRegistry('tenant-a');
  for (const [id, v] of Object.entries(secrets)) r.register(id, v, 'run');
  return r;
};

/**
 * Naive reference for the chokepoint's semantics: at each position try every secret, longest first, replace the
 * first that matches and jump past it; repeat the whole pass until nothing matches. Quadratic, obviously right.
 */
function referenceRedact(content: string, r: RunSecretRegistry): string {
  const secrets = [...r.secrets()].sort((a, b) => b.value.length - a.value.length);
  let out = content;
  for (let round = 0; round < 4; round++) {
    let next = '';
    let changed = false;
    for (let i = 0; i < out.length; ) {
      const hit = secrets.find((s) => out.startsWith(s.value, i));
      if (hit === undefined) { next += out[i]; i++; continue; }
      next += redactionMarker(hit.secretId);
      i += hit.value.length;
      changed = true;
    }
    out = next;
    if (!changed || !secrets.some((s) => out.includes(s.value))) return out;
  }
  throw new Error('reference did not converge');
}

describe('SR-1 redaction chokepoint', () => {
  it('replaces a registered plaintext with [REDACTED:<secretId>]', () => {
    expect(redact('key is sk-live-12345678 ok', registry({ 'byok-1': 'sk-live-12345678' }))).toBe('key is [REDACTED:byok-1] ok');
  });
  it('redacts at exactly 8 characters and not at 7 (the minimum-length floor)', () => {
    const r = registry({ eight: 'abcd1234', seven: 'xyz1234' });
    expect(r.size).toBe(1);
    expect(redact('abcd1234 xyz1234', r)).toBe('[REDACTED:eight] xyz1234');
  });
  it.each<[SecretScope, boolean]>([['user', true], ['tenant', true], ['run', true], ['platform', false]])('a value resolved at %s scope registers: %s', (scope, registers) => {
    const regs = new SecretRegistries();
    const vault = new SimulatedByokResolver(regs);
    vault.store('k', 'SCOPED-SECRET-VALUE', scope);
    expect(vault.resolve('run-1', 'tenant-a', 'k')).toBe('SCOPED-SECRET-VALUE');
    expect(redact('x SCOPED-SECRET-VALUE y', regs.get('run-1'))).toBe(registers ? 'x [REDACTED:k] y' : 'x SCOPED-SECRET-VALUE y');
  });
  it('redacts a longer secret that contains a shorter one whole (longest first)', () => {
    const r = registry({ short: 'password', long: 'password-extended-1' });
    expect(redact('x password-extended-1 y password z', r)).toBe('x [REDACTED:long] y [REDACTED:short] z');
  });
  it('picks the leftmost occurrence when two secrets overlap, and the longest at one position', () => {
    const r = registry({ a: 'AAAABBBB', b: 'BBBBCCCCC' });
    // a starts first: it wins even though b is longer; b is then broken and cannot be spelled.
    expect(redact('AAAABBBBCCCCC', r)).toBe('[REDACTED:a]CCCCC');
    // a forward-only automaton would see b (the longest ending at the last C) and hide c starting later
    const r2 = registry({ x: 'zzzzqqqq', y: 'qqqqwwwwwwww', z: 'wwwwwwww' });
    expect(redact('zzzzqqqqwwwwwwww', r2)).toBe('[REDACTED:x][REDACTED:z]');
  });
  it('treats regex metacharacters literally', () => {
    const r = registry({ re: '.*+?^${}()|[]\\' });
    expect(redact('a .*+?^${}()|[]\\ b', r)).toBe('a [REDACTED:re] b');
    expect(redact('aaaaaaaaaaaaaaaaaaaa', r)).toBe('aaaaaaaaaaaaaaaaaaaa');
  });
  it('handles secrets outside the BMP (surrogate pairs) by code units', () => {
    const r = registry({ emoji: '🔑🔑secret' });
    expect(redact('x🔑🔑secret🔑', r)).toBe('x[REDACTED:emoji]🔑');
  });
  it('a value that a marker next to text could spell is refused at registration (the marker stays collision-proof)', () => {
    // "D:inner]tail" is spelled by the marker for `inner` followed by "tail"; "D:l]xxxx" re-spelled itself forever
    const r = registry({ inner: 'INNER-SECRET' });
    expect(() => r.register('spelled', 'D:inner]tail', 'run')).toThrow(SecretRefusedError);
    expect(() => r.register('l', 'D:l]xxxx', 'run')).toThrow(SecretRefusedError);
    expect(r.size).toBe(1);
    expect(redact('INNER-SECRETtail', r)).toBe('[REDACTED:inner]tail');
    expect(redact(`D:l]${'x'.repeat(24)}`, r)).toBe(`D:l]${'x'.repeat(24)}`);
  });
  it('leaves markers of registered ids alone: one pass, idempotent, even over content that already carries markers', () => {
    const r = registry({ inner: 'INNER-SECRET', other: 'OTHER-SECRET' });
    const once = redact('[REDACTED:inner]INNER-SECRET[REDACTED:nobody]OTHER-SECRET', r);
    expect(once).toBe('[REDACTED:inner][REDACTED:inner][REDACTED:nobody][REDACTED:other]');
    expect(redact(once, r)).toBe(once);
  });
  it('the BYOK resolver registers what it resolves into the run registry; the registry dies with the run', () => {
    const regs = new SecretRegistries();
    const vault = new SimulatedByokResolver(regs);
    vault.store('byok-7', 'sk-tenant-secret-9', 'tenant');
    expect(vault.resolve('run-1', 'tenant-a', 'byok-7')).toBe('sk-tenant-secret-9');
    expect(redact('sk-tenant-secret-9', regs.get('run-1'))).toBe(redactionMarker('byok-7'));
    regs.endRun('run-1');
    expect(regs.has('run-1')).toBe(false);
    expect(regs.liveForTenant('tenant-a')).toEqual([]);
  });
  it('a run belongs to one tenant', () => {
    const regs = new SecretRegistries();
    regs.forRun('run-1', 'tenant-a');
    expect(() => regs.forRun('run-1', 'tenant-b')).toThrow();
  });

  const meta = fc.constantFrom('a', 'b', 'c', '.', '*', '[', '(', '$', '\\', '1');
  const secretArb = fc.string({ minLength: 8, maxLength: 16, unit: meta });
  it('no registered secret of 8+ characters survives, whatever overlaps, nesting or metacharacters (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(secretArb, { minLength: 1, maxLength: 8 }),
        fc.array(fc.oneof(secretArb, fc.string({ maxLength: 6, unit: meta }), fc.nat().map(String)), { maxLength: 12 }),
        fc.nat(),
        (secrets, pieces, seed) => {
          const r = new RunSecretRegistry('t');
          // nested: add a substring of one secret as a secret of its own when it is long enough
          const host = secrets[seed % secrets.length]!;
          const nested = host.slice(seed % 3, (seed % 3) + 8 + (seed % 4));
          const candidates = [...new Set([...secrets, ...(nested.length >= 8 ? [nested] : [])])];
          // a value that could overlap the marker syntax is refused at registration (item 3); the rest must not survive
          const all = candidates.filter((s, i) => {
            try {
              return r.register(`s${i}`, s, 'run');
            } catch (e) {
              if (e instanceof SecretRefusedError) return false;
              throw e;
            }
          });
          const out = redact(pieces.join('') + candidates.join(''), r);
          for (const s of all) expect(out.includes(s)).toBe(false);
        },
      ),
      { numRuns: 1500 },
    );
  });
  it('equals a naive longest-first reference on random overlapping inputs (differential property)', () => {
    const ab = fc.constantFrom('a', 'b');
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 8, maxLength: 11, unit: ab }), { minLength: 1, maxLength: 10 }), fc.string({ maxLength: 80, unit: ab }), (secrets, text) => {
        const r = new RunSecretRegistry('t');
        secrets.forEach((s, i) => r.register(`s${i}`, s, 'run'));
        expect(redact(text, r)).toBe(referenceRedact(text, r));
      }),
      { numRuns: 2000 },
    );
  });
  it('equals the naive per-secret split/join when secrets do not overlap in the content (differential property)', () => {
    const word = fc.string({ minLength: 8, maxLength: 12, unit: fc.constantFrom('q', 'w', 'e', 'r', 't', 'y') });
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 10 }), (secrets, picks) => {
        const r = new RunSecretRegistry('t');
        secrets.forEach((s, i) => r.register(`s${i}`, s, 'run'));
        const text = picks.map((p) => (p % 3 === 0 ? ' plain ' : ` ${secrets[p % secrets.length]} `)).join('|');
        expect(redact(text, r)).toBe(naiveRedact(text, r));
      }),
      { numRuns: 500 },
    );
  });
});

describe('LeftmostLongestMatcher (Aho–Corasick over reversed patterns)', () => {
  it('takes the leftmost match, the longest at that position', () => {
    const m = new LeftmostLongestMatcher(['he', 'she', 'hers', 'his']);
    expect(m.matches('ushers').map((x) => [x.start, x.end, x.pattern])).toEqual([[1, 4, 1]]);
    expect(m.matches('hershe').map((x) => [x.start, x.end, x.pattern])).toEqual([[0, 4, 2], [4, 6, 0]]);
    expect(m.test('xxhixx')).toBe(false);
    expect(m.test('xxhisx')).toBe(true);
  });
  it('agrees exactly with a brute-force leftmost-longest scan (property)', () => {
    const unit = fc.constantFrom('a', 'b', 'c');
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5, unit }), { minLength: 1, maxLength: 8 }), fc.string({ maxLength: 40, unit }), (patterns, text) => {
        const expected: [number, number][] = [];
        for (let s = 0; s < text.length; ) {
          const lens = patterns.filter((p) => text.startsWith(p, s)).map((p) => p.length);
          if (lens.length === 0) { s++; continue; }
          const e = s + Math.max(...lens);
          expected.push([s, e]);
          s = e;
        }
        const found = new LeftmostLongestMatcher(patterns).matches(text);
        expect(found.map((m) => [m.start, m.end])).toEqual(expected);
        for (const m of found) expect(text.slice(m.start, m.end)).toBe(patterns[m.pattern]);
      }),
      { numRuns: 2000 },
    );
  });
});
