/**
 * Upstream OpenWOP's certification bundle v3 (schemas/v2/certification-bundle.schema.json, RFC 0168 §E), as the
 * types `wopkit certify` writes and reads. The root and every object in it are closed upstream; these interfaces carry
 * exactly its members.
 */
export type RowResult = 'executed-pass' | 'executed-fail' | 'skipped' | 'inapplicable' | 'blocked';
export const ROW_RESULTS: readonly RowResult[] = ['executed-pass', 'executed-fail', 'skipped', 'inapplicable', 'blocked'];
export type EvidenceTier = 'self' | 'steward' | 'independent';
export type BuildKind = 'image-digest' | 'commit' | 'artifact-sha256';
export const BUILD_KINDS: readonly BuildKind[] = ['image-digest', 'commit', 'artifact-sha256'];

/** One ledger row: one requirement id the run resolved. */
export interface BundleRow {
  readonly id: string;
  readonly scenario: string;
  readonly result: RowResult;
  readonly assertions?: number;
  readonly detail?: string;
}
export interface Relaxation {
  readonly obligation: string;
  readonly durability: 'session' | 'deployment' | 'persisted';
  readonly reason: string;
}
export interface ClaimedProfile {
  readonly id: string;
  readonly evidenceTier: EvidenceTier;
  readonly witnessCount: number;
  readonly certified: boolean;
}
export interface Totals {
  readonly executedPass: number;
  readonly executedFail: number;
  readonly skipped: number;
  readonly inapplicable: number;
  readonly blocked: number;
}
export interface BundleSignature {
  readonly alg: 'ed25519';
  readonly keyId: string;
  readonly sig: string;
  readonly over: readonly string[];
}
export interface BundleV3 {
  readonly bundleVersion: '3';
  readonly generatedAt: string;
  readonly suite: { readonly name: '@openwop/openwop-conformance'; readonly version: string; readonly targetMajor: 1 | 2; readonly specArtifactsVersion: string };
  readonly host: {
    readonly name: string;
    readonly version: string;
    readonly vendor?: string;
    readonly build: { readonly kind: BuildKind; readonly id: string };
    readonly signingKeyId?: string;
    readonly relaxations?: readonly Relaxation[];
  };
  readonly discovery: { readonly url: string; readonly sha256: string; readonly protocolVersions: readonly string[]; readonly preferredVersion: string; readonly document?: Readonly<Record<string, unknown>> };
  readonly claimedProfiles: readonly ClaimedProfile[];
  readonly results: { readonly totals: Totals; readonly requirements: readonly BundleRow[] };
  readonly witnessSha256: string;
  readonly assertionCount: number;
  readonly detail?: { readonly nonPass: readonly { readonly id: string; readonly result: string; readonly reason: string }[] };
  readonly signature: BundleSignature;
  readonly verifierSignature?: { readonly alg: 'ed25519'; readonly keyId: string; readonly sig: string };
}
/** A bundle before it is signed. */
export type UnsignedBundle = Omit<BundleV3, 'signature' | 'verifierSignature'>;
