import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AhoCorasick } from '../../../runtime/redaction/aho-corasick.ts';
import { naiveRedact, redact, redactionMarker } from '../../../runtime/redaction/chokepoint.ts';
import { RunSecretRegistry, SecretRegistries, SimulatedByokResolver } from '../../../runtime/redaction/secret-registry.ts';

const registry = (secrets: Record<string, string>) => {
  const r = new RunSecretRegistry('tenant-a');
  for (const [id, v] of Object.entries(secrets)) r.register(id, v, 'run');
  return r;
};

describe('SR-1 redaction chokepoint', () => {
  it('replaces a registered plaintext with [REDACTED:<secretId>]', () => {
    expect(redact('key is sk-live-12345678 ok', registry({ 'byok-1': 'sk-live-12345678' }))).toBe('key is [REDACTED:byok-1] ok');
  });
  it('does not redact values shorter than 8 characters', () => {
    const r = registry({ short: 'abc1234' });
    expect(r.size).toBe(0);
    expect(redact('abc1234', r)).toBe('abc1234');
  });
  it('does not register platform-scope values', () => {
    const r = new RunSecretRegistry('t');
    expect(r.register('env', 'PLATFORM-KEY-123', 'platform')).toBe(false);
    expect(redact('PLATFORM-KEY-123', r)).toBe('PLATFORM-KEY-123');
  });
  it('redacts a longer secret that contains a shorter one whole (longest first)', () => {
    const r = registry({ short: 'password', long: 'password-extended-1' });
    expect(redact('x password-extended-1 y password z', r)).toBe('x [REDACTED:long] y [REDACTED:short] z');
  });
  it('treats regex metacharacters literally', () => {
    const r = registry({ re: '.*+?^${}()|[]\\' });
    expect(redact('a .*+?^${}()|[]\\ b', r)).toBe('a [REDACTED:re] b');
    expect(redact('aaaaaaaaaaaaaaaaaaaa', r)).toBe('aaaaaaaaaaaaaaaaaaaa');
  });
  it('the BYOK resolver registers what it resolves into the run registry; the registry dies with the run', () => {
    const regs = new SecretRegistries();
    const vault = new SimulatedByokResolver(regs);
    vault.store('byok-7', 'sk-tenant-secret-9', 'tenant');
    expect(vault.resolve('run-1', 'tenant-a', 'byok-7')).toBe('sk-tenant-secret-9');
    expect(redact('sk-tenant-secret-9', regs.get('run-1'))).toBe(redactionMarker('byok-7'));
    regs.endRun('run-1');
    expect(regs.has('run-1')).toBe(false);
  });
  it('a run belongs to one tenant', () => {
    const regs = new SecretRegistries();
    regs.forRun('run-1', 'tenant-a');
    expect(() => regs.forRun('run-1', 'tenant-b')).toThrow();
  });

  const secretArb = fc.string({ minLength: 8, maxLength: 16, unit: fc.constantFrom('a', 'b', 'c', '.', '*', '[', '(', '$', '1') });
  it('no registered secret of 8+ characters survives, whatever overlaps (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(secretArb, { maxLength: 8 }), fc.array(fc.oneof(secretArb, fc.string({ maxLength: 6 })), { maxLength: 12 }), (secrets, pieces) => {
        const r = new RunSecretRegistry('t');
        secrets.forEach((s, i) => r.register(`s${i}`, s, 'run'));
        let out: string;
        try { out = redact(pieces.join(''), r); } catch (e) { expect((e as Error).name).toBe('RedactionFailedError'); return; }
        for (const s of secrets) expect(out.includes(s)).toBe(false);
      }),
      { numRuns: 1500 },
    );
  });
  it('equals the naive longest-first replace when secrets do not overlap in the content (differential property)', () => {
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

describe('Aho-Corasick', () => {
  it('finds the longest pattern ending at each position', () => {
    const ac = new AhoCorasick(['he', 'she', 'hers', 'his']);
    expect([...ac.longestEndingAt('ushers')].map((m) => [m.start, m.end, m.pattern])).toEqual([[1, 4, 1], [2, 6, 2]]);
    expect(ac.leftmostLongest('ushers').map((m) => [m.start, m.end])).toEqual([[1, 4]]);
  });
  it('agrees with a brute-force leftmost-longest scan (property)', () => {
    const unit = fc.constantFrom('a', 'b', 'c');
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4, unit }), { minLength: 1, maxLength: 6 }), fc.string({ maxLength: 30, unit }), (patterns, text) => {
        const ac = new AhoCorasick(patterns);
        const found = ac.leftmostLongest(text);
        // every reported match is a real occurrence, non-overlapping, increasing
        let last = 0;
        for (const m of found) {
          expect(text.slice(m.start, m.end)).toBe(patterns[m.pattern]);
          expect(m.start).toBeGreaterThanOrEqual(last);
          last = m.end;
        }
        // the first match is the leftmost occurrence of any pattern, and the longest there
        let best: [number, number] | undefined;
        for (let s = 0; s < text.length && best === undefined; s++) {
          const lens = patterns.filter((p) => text.startsWith(p, s)).map((p) => p.length);
          if (lens.length > 0) best = [s, s + Math.max(...lens)];
        }
        expect(found[0] === undefined ? undefined : [found[0].start, found[0].end]).toEqual(best);
      }),
      { numRuns: 1000 },
    );
  });
});
