/**
 * Cut a bundle v3 from one suite run (conformance/run.ts) and the discovery document the host served:
 * - the ledger: one row per OpenWOP requirement id the run resolved (Inquirium rows stay in the project's results;
 *   rows with no witness are not resolved by a run and are left out), its outcome mapped to upstream's five results,
 *   every non-pass row with its reason (also listed in `detail.nonPass`);
 * - `claimedProfiles`: derived from the discovery document by the major's predicates (profiles.ts), each certified only
 *   when {@link certifiable} holds;
 * - `witnessSha256`, `assertionCount` and the totals computed from the rows; then the Ed25519 attestation (sign.ts).
 * Pure, except for the signature's use of the key.
 */
import type { KeyObject } from 'node:crypto';
import type { SuiteResults } from '../run.ts';
import type { RequirementResult } from '../requirement-results.ts';
import { REQUIREMENTS } from '../requirements.ts';
import { canonicalJson, sha256Hex } from './canonical.ts';
import type { BundleRow, BundleV3, BuildKind, ClaimedProfile, EvidenceTier, Relaxation, RowResult, Totals, UnsignedBundle } from './bundle-types.ts';
import { CertifyError } from './errors.ts';
import { signingKeyEntry } from './keys.ts';
import { derivedProfiles, type MajorRule, type ProfileRule } from './profiles.ts';
import { signAttestation, verifierAttestation, witnessDigest } from './sign.ts';

/** upstream's suite name: the bundle schema admits only this value (docs/certify.md says what it means here). */
export const BUNDLE_SUITE_NAME = '@openwop/openwop-conformance';
/** The upstream commit whose bundle schema, id grammar and profile predicates this code restates. */
export const UPSTREAM_CONTRACT = 'openwop/openwop@35bd91f4d9e56e6acc371701d1b401c8a48cff8b';

/** Our requirement outcome → upstream's row result; a pass without an assertion witnesses nothing and is `blocked`. */
export function rowResult(r: Pick<RequirementResult, 'outcome' | 'skipClass' | 'assertions'>): RowResult {
  if (r.outcome === 'pass') return r.assertions > 0 ? 'executed-pass' : 'blocked';
  if (r.outcome === 'fail') return 'executed-fail';
  if (r.skipClass === 'inapplicable') return 'inapplicable';
  if (r.skipClass === 'skipped') return 'skipped';
  return 'blocked';
}

/** The ledger rows of a run: OpenWOP rows a scenario resolved, in table order. */
export function ledgerRows(requirements: readonly RequirementResult[]): BundleRow[] {
  return requirements.filter((r) => r.namespace === 'openwop' && r.outcome !== 'unwitnessed').map((r) => {
    const result = rowResult(r);
    const scenario = (r.scenarios.length > 0 ? r.scenarios : REQUIREMENTS.get(r.id)?.scenarios ?? []).join(',');
    return { id: r.id, scenario, result, assertions: r.assertions, ...(result === 'executed-pass' ? {} : { detail: r.outcome === 'pass' ? 'passed without an assertion: a witness of nothing' : r.reason ?? result }) };
  });
}

/** The totals of a ledger. */
export function totalsOf(rows: readonly BundleRow[]): Totals {
  const n = (x: RowResult) => rows.filter((r) => r.result === x).length;
  return { executedPass: n('executed-pass'), executedFail: n('executed-fail'), skipped: n('skipped'), inapplicable: n('inapplicable'), blocked: n('blocked') };
}

/**
 * Whether a claimed profile can certify on this ledger: the profile has a floor, every floor id has an
 * `executed-pass` row with at least one assertion, no row of the ledger is anything but a witnessed pass (a failed,
 * skipped, blocked, inapplicable or vacuous row anywhere withholds every certification), and the operator declared no
 * relaxation.
 */
export function certifiable(profile: Pick<ProfileRule, 'floor'>, rows: readonly BundleRow[], relaxations: readonly Relaxation[]): boolean {
  if (profile.floor.length === 0 || relaxations.length > 0) return false;
  if (rows.length === 0 || !rows.every((r) => r.result === 'executed-pass' && (r.assertions ?? 0) > 0)) return false;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return profile.floor.every((id) => byId.has(id));
}

/** How many floor ids of a profile have a witnessed pass. */
export const witnessCount = (profile: Pick<ProfileRule, 'floor'>, rows: readonly BundleRow[]): number =>
  profile.floor.filter((id) => rows.some((r) => r.id === id && r.result === 'executed-pass' && (r.assertions ?? 0) > 0)).length;

/** The claimed profiles of a discovery document and a ledger. */
export function claimedProfiles(major: MajorRule, document: Readonly<Record<string, unknown>>, rows: readonly BundleRow[], relaxations: readonly Relaxation[], tier: EvidenceTier): ClaimedProfile[] {
  return derivedProfiles(major, document).map((p) => ({ id: p.id, evidenceTier: tier, witnessCount: witnessCount(p, rows), certified: certifiable(p, rows, relaxations) }));
}

export interface CutInput {
  readonly results: Pick<SuiteResults, 'requirements' | 'finishedAt'> & { readonly host: Pick<SuiteResults['host'], 'name' | 'version'> };
  readonly major: MajorRule;
  readonly discovery: { readonly url: string; readonly document: Readonly<Record<string, unknown>> };
  readonly build: { readonly kind: BuildKind; readonly id: string };
  readonly suiteVersion: string;
  readonly relaxations?: readonly Relaxation[];
  readonly evidenceTier?: EvidenceTier;
}

/** The unsigned bundle of a run. */
export function unsignedBundle(input: CutInput, signingKeyId: string): UnsignedBundle {
  const rows = ledgerRows(input.results.requirements);
  if (rows.length === 0) throw new CertifyError('usage', 'the run resolved no OpenWOP requirement: nothing to certify');
  const relaxations = input.relaxations ?? [];
  const versions = input.major.versions(input.discovery.document);
  if (versions === undefined) throw new CertifyError('discovery_unavailable', `the discovery document at ${input.discovery.url} advertises no protocol version of major ${input.major.major}`);
  const nonPass = rows.filter((r) => r.result !== 'executed-pass').map((r) => ({ id: r.id, result: r.result, reason: r.detail ?? r.result }));
  const tier = input.evidenceTier ?? 'self';
  return {
    bundleVersion: '3',
    generatedAt: input.results.finishedAt,
    suite: { name: BUNDLE_SUITE_NAME, version: input.suiteVersion, targetMajor: input.major.major, specArtifactsVersion: UPSTREAM_CONTRACT },
    host: { name: input.results.host.name, version: input.results.host.version, build: input.build, signingKeyId, ...(relaxations.length > 0 ? { relaxations } : {}) },
    discovery: { url: input.discovery.url, sha256: sha256Hex(canonicalJson(input.discovery.document)), ...versions, document: input.discovery.document },
    claimedProfiles: claimedProfiles(input.major, input.discovery.document, rows, relaxations, tier),
    results: { totals: totalsOf(rows), requirements: rows },
    witnessSha256: witnessDigest(rows, relaxations),
    assertionCount: rows.reduce((n, r) => n + (r.assertions ?? 0), 0),
    ...(nonPass.length > 0 ? { detail: { nonPass } } : {}),
  };
}

/**
 * Cut and sign. `evidenceTier: independent` is refused unless a verifier key distinct from the host key signs too
 * (upstream RFC 0148 R5: a self-signed "independent" claim is no independent evidence); `steward` is refused (a
 * steward's attestation is not something this tool can produce).
 */
export function cutBundle(input: CutInput, hostKey: KeyObject, verifierKey?: KeyObject): BundleV3 {
  const hostKeyId = signingKeyEntry(hostKey).keyId;
  const tier = input.evidenceTier ?? 'self';
  if (tier === 'steward') throw new CertifyError('evidence_tier_refused', 'evidenceTier steward needs the steward\'s own attestation; certify writes self, or independent with --verifier-key');
  if (tier === 'independent') {
    if (verifierKey === undefined) throw new CertifyError('evidence_tier_refused', 'evidenceTier independent needs --verifier-key: a verifier key distinct from the host key');
    if (signingKeyEntry(verifierKey).keyId === hostKeyId) throw new CertifyError('evidence_tier_refused', `evidenceTier independent refused: the verifier key ${hostKeyId} is the host key`);
  }
  const unsigned = unsignedBundle(input, hostKeyId);
  return { ...unsigned, signature: signAttestation(unsigned, hostKey), ...(tier === 'independent' && verifierKey !== undefined ? { verifierSignature: verifierAttestation(unsigned, verifierKey) } : {}) };
}
