/**
 * Properties of certification over random result sets:
 * - a run with any skipped, blocked, failed, inapplicable or vacuous requirement, or any operator relaxation, cannot
 *   produce `certified: true` (and the bundle says why per row);
 * - every bundle cut verifies under its own key, and `certify verify` re-derives each certified flag;
 * - independent evidence is refused without a distinct verifier key.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RequirementResult } from '../../../conformance/requirement-results.ts';
import { cutBundle } from '../../../conformance/certify/bundle.ts';
import { CertifyError } from '../../../conformance/certify/errors.ts';
import { MAJORS } from '../../../conformance/certify/profiles.ts';
import { verifyBundle } from '../../../conformance/certify/verify.ts';
import { publicKeyOf } from '../../../conformance/certify/keys.ts';
import type { BundleV3 } from '../../../conformance/certify/bundle-types.ts';
import { bundleOf, cleanResults, keyPair, MEMORY_DISCOVERY } from './support.ts';

const host = keyPair();
const keys = new Map([[host.entry.keyId, publicKeyOf(host.entry, 'host')]]);

type Damage = { readonly kind: 'fail' | 'blocked' | 'skipped' | 'inapplicable' | 'vacuous'; readonly at: number };
const damage = fc.record({ kind: fc.constantFrom('fail', 'blocked', 'skipped', 'inapplicable', 'vacuous'), at: fc.nat() }) as fc.Arbitrary<Damage>;

function damaged(rows: readonly RequirementResult[], ds: readonly Damage[]): RequirementResult[] {
  const out = [...rows];
  for (const d of ds) {
    const i = d.at % out.length;
    const r = out[i]!;
    out[i] = d.kind === 'fail' ? { ...r, outcome: 'fail', reason: 'broke', failures: ['broke'] }
      : d.kind === 'vacuous' ? { ...r, assertions: 0 }
      : { ...r, outcome: 'skip', skipClass: d.kind, reason: `${d.kind} by the test`, assertions: 0 };
  }
  return out;
}

describe('certification over random result sets', () => {
  it('a clean run certifies the witnessed floors (the property below is not vacuous)', () => {
    const b = bundleOf(cleanResults(), host.privateKey);
    expect(b.claimedProfiles.filter((p) => p.certified).map((p) => p.id)).toEqual(['openwop-discovery-core', 'openwop-memory']);
    expect(verifyBundle(b, keys, 'test').ok).toBe(true);
  });

  it('any skipped, blocked, failed, inapplicable or vacuous requirement, or a relaxation, withholds every certification', () => {
    fc.assert(fc.property(fc.array(damage, { maxLength: 4 }), fc.boolean(), (ds, relaxed) => {
      fc.pre(ds.length > 0 || relaxed);
      const b = bundleOf(damaged(cleanResults(), ds), host.privateKey, relaxed ? { relaxations: [{ obligation: 'memory.ttl', durability: 'deployment', reason: 'test' }] } : {});
      expect(b.claimedProfiles.some((p) => p.certified)).toBe(false);
      const v = verifyBundle(b, keys, 'test');
      expect(v.certifiedProfiles).toEqual([]);
      // The bundle is still honest evidence: every failure verify reports is a cut-gate one (an executed failure).
      expect(v.failures.filter((f) => f.group !== 'cut-gate').map((f) => `${f.predicate} ${f.member} ${f.detail}`)).toEqual([]);
    }), { numRuns: 200 });
  });

  it('a bundle whose certified flag was set by hand on a damaged ledger is refused, naming the profile', () => {
    fc.assert(fc.property(fc.array(damage, { minLength: 1, maxLength: 3 }), (ds) => {
      const b = bundleOf(damaged(cleanResults(), ds), host.privateKey);
      const forged: BundleV3 = { ...b, claimedProfiles: b.claimedProfiles.map((p) => (p.id === 'openwop-memory' ? { ...p, certified: true } : p)) };
      const v = verifyBundle(forged, keys, 'test');
      expect(v.ok).toBe(false);
      expect(v.failures.some((f) => f.member.startsWith('claimedProfiles[') && f.detail.startsWith('openwop-memory'))).toBe(true);
    }), { numRuns: 100 });
  });

  it('claimedProfiles are derived from the document: adding or dropping a claim is refused', () => {
    const b = bundleOf(cleanResults(), host.privateKey);
    const more = { ...b, claimedProfiles: [...b.claimedProfiles, { id: 'openwop-secrets', evidenceTier: 'self' as const, witnessCount: 0, certified: false }] };
    expect(verifyBundle(more, keys, 'test').failures.map((f) => f.predicate)).toContain('profiles-derived');
    const fewer = { ...b, claimedProfiles: b.claimedProfiles.slice(1) };
    expect(verifyBundle(fewer, keys, 'test').failures.map((f) => f.predicate)).toContain('profiles-derived');
    // A document without memory derives no memory claim.
    const plain = bundleOf(cleanResults(), host.privateKey, { document: { ...MEMORY_DISCOVERY, memory: { supported: true, writable: false } } });
    expect(plain.claimedProfiles.map((p) => p.id)).not.toContain('openwop-memory');
  });

  it('independent evidence is refused without a distinct verifier key, and verified with one', () => {
    const input = {
      results: { requirements: cleanResults(), host: { name: 'h', version: '1', baseUrl: 'http://x' }, finishedAt: '2026-12-07T20:00:00.000Z' },
      major: MAJORS[1]!, discovery: { url: 'http://x/.well-known/openwop', document: MEMORY_DISCOVERY }, build: { kind: 'commit' as const, id: 'c' }, suiteVersion: 'v', evidenceTier: 'independent' as const,
    };
    expect(() => cutBundle(input, host.privateKey)).toThrow(CertifyError);
    expect(() => cutBundle(input, host.privateKey, host.privateKey)).toThrow(/verifier key .* is the host key/);
    const verifier = keyPair();
    const b = cutBundle(input, host.privateKey, verifier.privateKey);
    expect(b.verifierSignature?.keyId).toBe(verifier.entry.keyId);
    expect(verifyBundle(b, keys, 'test').failures.map((f) => f.member)).toEqual(['verifierSignature.keyId']);
    expect(verifyBundle(b, new Map([...keys, [verifier.entry.keyId, publicKeyOf(verifier.entry, 'v')]]), 'test').ok).toBe(true);
    const selfSigned = { ...b, verifierSignature: { ...b.verifierSignature!, keyId: host.entry.keyId } };
    expect(verifyBundle(selfSigned, keys, 'test').failures.map((f) => f.predicate)).toContain('independent-has-distinct-verifier');
  });

  it('malformed bundles are refused with the member named, never a crash', () => {
    fc.assert(fc.property(fc.jsonValue(), (junk) => {
      const v = verifyBundle(junk, keys, 'test');
      expect(v.ok).toBe(false);
      expect(v.failures.length).toBeGreaterThan(0);
    }), { numRuns: 200 });
    const b = bundleOf(cleanResults(), host.privateKey);
    const extra = { ...b, note: 'x' };
    expect(verifyBundle(extra, keys, 'test').failures.map((f) => [f.predicate, f.member])).toEqual([['closed-shape', 'note']]);
  });
});
