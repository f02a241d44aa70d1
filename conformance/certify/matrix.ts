/**
 * The INTEROP-MATRIX row upstream asks a host to add beside its evidence, generated from a bundle (never typed by
 * hand), in the columns of upstream's INTEROP-MATRIX.md host tables: host (with its build), implemented from, suite,
 * advertised profiles (with witness counts), discovery, pass / fail / blocked / inapplicable / skipped, the bundle
 * (witness digest and signing key), evidence tier, and the certified profiles.
 */
import type { BundleV3 } from './bundle-types.ts';

export interface MatrixRowOptions {
  /** Where the bundle is published (the Bundle column's link). */
  readonly bundleLink?: string;
  /** What the host was implemented from (not in a bundle; the operator says it). */
  readonly implementedFrom?: string;
}

const code = (s: string) => `\`${s}\``;

/** One Markdown table row for upstream's INTEROP-MATRIX.md. */
export function matrixRow(b: BundleV3, o: MatrixRowOptions = {}): string {
  const t = b.results.totals;
  const certified = b.claimedProfiles.filter((p) => p.certified).map((p) => code(p.id));
  const tiers = [...new Set(b.claimedProfiles.map((p) => p.evidenceTier))];
  const cells = [
    `**${code(`${b.host.name}@${b.host.version}`)}** (build ${code(`${b.host.build.kind}:${b.host.build.id.slice(0, 12)}`)})`,
    o.implementedFrom ?? '—',
    `${code(b.suite.version)} (as ${code(b.suite.name)}), ${code(`--target-major ${b.suite.targetMajor}`)}`,
    b.claimedProfiles.map((p) => `${code(p.id)} (witnessCount ${p.witnessCount})`).join(', ') || '—',
    `${code(`protocolVersions ${JSON.stringify(b.discovery.protocolVersions)}`)}, ${code(`preferredVersion ${b.discovery.preferredVersion}`)}, sha256 ${code(`${b.discovery.sha256.slice(0, 12)}…`)}`,
    `${t.executedPass} / ${t.executedFail} / ${t.blocked} / ${t.inapplicable} / ${t.skipped} (${b.results.requirements.length} ledger rows, ${b.assertionCount} assertions)`,
    `${o.bundleLink !== undefined ? `[bundle](${o.bundleLink})` : 'bundle'}, witness ${code(`${b.witnessSha256.slice(0, 12)}…`)}, signed ${code(b.signature.keyId)} (published in its discovery ${code('signingKeys[]')})`,
    tiers.map(code).join(', ') || code('self'),
    certified.length > 0 ? `**${certified.join(', ')}**` : 'none',
  ];
  return `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
}
