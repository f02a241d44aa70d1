/**
 * The bundle v3 digests and the Ed25519 attestation (upstream RFC 0168 §E.2, RFC 0212 §C), computed exactly as
 * upstream's verifier recomputes them:
 * - `witnessSha256`: SHA-256 of the canonical JSON of the ledger rows sorted by id in code-unit order, each reduced to
 *   `id`, `scenario`, `result` and, only when present, `assertions` and `detail`; when the host declares relaxations
 *   the preimage is `{rows, relaxations}` instead, so stripping a relaxation breaks the digest;
 * - the signature: Ed25519 over the canonical JSON of `{witnessSha256, host.build, suite.version, discovery.sha256}`
 *   (the dotted names are the object's keys), `over` naming those four members.
 */
import { sign as edSign, verify as edVerify, type KeyObject } from 'node:crypto';
import { canonicalJson, codeUnitCompare, fromBase64url, sha256Hex, toBase64url } from './canonical.ts';
import type { BundleRow, BundleSignature, BundleV3, Relaxation, UnsignedBundle } from './bundle-types.ts';
import { signingKeyEntry } from './keys.ts';

/** The members the attestation covers, in upstream's order (`signature.over`). */
export const SIGNED_MEMBERS = ['witnessSha256', 'host.build', 'suite.version', 'discovery.sha256'] as const;

/** The witness digest of a ledger and the relaxations declared beside it. */
export function witnessDigest(rows: readonly BundleRow[], relaxations: readonly Relaxation[] = []): string {
  const preimageRows = [...rows].sort((a, b) => codeUnitCompare(a.id, b.id)).map((r) => ({
    id: r.id, scenario: r.scenario, result: r.result,
    ...(r.assertions === undefined ? {} : { assertions: r.assertions }),
    ...(r.detail === undefined ? {} : { detail: r.detail }),
  }));
  return sha256Hex(canonicalJson(relaxations.length > 0 ? { rows: preimageRows, relaxations } : preimageRows));
}

/** The bytes the attestation signs. */
export function attestationBytes(b: Pick<UnsignedBundle, 'witnessSha256' | 'host' | 'suite' | 'discovery'>): Buffer {
  return Buffer.from(canonicalJson({ witnessSha256: b.witnessSha256, 'host.build': b.host.build, 'suite.version': b.suite.version, 'discovery.sha256': b.discovery.sha256 }), 'utf8');
}

/** Sign a bundle with the operator's private key; the signature member (the key id derived from the key). */
export function signAttestation(b: UnsignedBundle, privateKey: KeyObject): BundleSignature {
  return { alg: 'ed25519', keyId: signingKeyEntry(privateKey).keyId, sig: toBase64url(edSign(null, attestationBytes(b), privateKey)), over: [...SIGNED_MEMBERS] };
}

/** A second attestation by a verifier's key (an `independent` claim), over the same bytes. */
export function verifierAttestation(b: UnsignedBundle, verifierKey: KeyObject): NonNullable<BundleV3['verifierSignature']> {
  return { alg: 'ed25519', keyId: signingKeyEntry(verifierKey).keyId, sig: toBase64url(edSign(null, attestationBytes(b), verifierKey)) };
}

/** Whether `sig` (unpadded base64url) is a valid attestation of `b` under `publicKey`. Never throws. */
export function attestationVerifies(b: Pick<UnsignedBundle, 'witnessSha256' | 'host' | 'suite' | 'discovery'>, sig: string, publicKey: KeyObject): boolean {
  try {
    return edVerify(null, attestationBytes(b), publicKey, fromBase64url(sig));
  } catch {
    return false;
  }
}
